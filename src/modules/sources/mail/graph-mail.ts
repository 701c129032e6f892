// Microsoft 365 mail through Graph: each chosen folder read with `GET /me/mailFolders/{id}/messages/delta`
// (the message's text asked for as plain text), its deltaLink kept per folder; a 410 on it
// (syncStateNotFound) starts that folder again in full. Removed or moved-out messages come as
// `@removed`. Attachments: `GET /me/messages/{id}/attachments` listed without their bytes, then each
// file attachment fetched alone, so that one too large is never downloaded.
import { MailError, MailResyncRequired } from './mail-errors.js';
import type { MailApi } from './mail-api.js';
import type { MailAttachment, MailChange, MailCursor, MailMessage, MailReader, MailSyncHooks } from './mail-reader.js';

interface FolderCursor {
  delta?: string;
  page?: string;
}

interface GraphRecipient {
  emailAddress?: { name?: string; address?: string };
}

interface GraphMessage {
  id: string;
  '@removed'?: object;
  subject?: string;
  from?: GraphRecipient;
  toRecipients?: GraphRecipient[];
  ccRecipients?: GraphRecipient[];
  receivedDateTime?: string;
  body?: { contentType?: string; content?: string };
  webLink?: string;
  hasAttachments?: boolean;
}

const SELECT = 'subject,from,toRecipients,ccRecipients,receivedDateTime,body,webLink,hasAttachments';
const PREFER = { prefer: 'outlook.body-content-type="text", odata.maxpagesize=50' };

const recipient = (r: GraphRecipient | undefined) => {
  const address = r?.emailAddress?.address ?? '';
  const name = r?.emailAddress?.name;
  return name && name !== address ? `${name} <${address}>` : address;
};

export class GraphMailReader implements MailReader {
  constructor(
    private readonly api: MailApi,
    private readonly folders: readonly string[],
    private readonly maxAttachmentBytes: number,
  ) {}

  async run(cursor: MailCursor, hooks: MailSyncHooks): Promise<MailCursor> {
    const positions = { ...((cursor.folders ?? {}) as Record<string, FolderCursor>) };
    for (const folder of this.folders) {
      positions[folder] = await this.syncFolder(folder, positions[folder] ?? {}, async (position) => {
        positions[folder] = position;
        await hooks.save({ folders: positions });
      }, hooks);
    }
    // Folders no longer chosen keep no position.
    return { folders: Object.fromEntries(this.folders.map((folder) => [folder, positions[folder]!])) };
  }

  private fullUrl(folder: string): string {
    return `${this.api.base}/me/mailFolders/${encodeURIComponent(folder)}/messages/delta?$select=${SELECT}`;
  }

  private async syncFolder(folder: string, start: FolderCursor, save: (position: FolderCursor) => Promise<void>, hooks: MailSyncHooks): Promise<FolderCursor> {
    let full = start.delta === undefined;
    let url = start.page ?? start.delta ?? this.fullUrl(folder);
    let resynced = false;
    for (;;) {
      let page: { value?: unknown; '@odata.nextLink'?: unknown; '@odata.deltaLink'?: unknown };
      try {
        page = await this.api.getJson(url, [410], PREFER);
      } catch (error) {
        if (!(error instanceof MailResyncRequired)) throw error;
        if (resynced) throw new MailError('bad_response', 'Graph asked for a full resync twice in one sync');
        resynced = true;
        full = true;
        await save({});
        url = this.fullUrl(folder);
        continue;
      }
      if (!Array.isArray(page.value)) throw new MailError('bad_response', 'Graph answered a delta page without a value list');
      const changes: MailChange[] = [];
      for (const item of page.value as GraphMessage[]) {
        if (typeof item?.id !== 'string') continue;
        if (item['@removed']) changes.push({ kind: 'removed', messageId: item.id, folder });
        else changes.push({ kind: 'present', messageId: item.id, folder, load: async () => this.toMessage(item) });
      }
      await hooks.apply(changes);
      const next = typeof page['@odata.nextLink'] === 'string' ? page['@odata.nextLink'] : undefined;
      const delta = typeof page['@odata.deltaLink'] === 'string' ? page['@odata.deltaLink'] : undefined;
      if (next !== undefined) {
        this.api.requireOwnUrl(next);
        // The page link is kept while the delta link of the former round is not: a full round stays full.
        await save(full ? { page: next } : { delta: start.delta!, page: next });
        url = next;
        continue;
      }
      if (delta === undefined) throw new MailError('bad_response', 'Graph answered a delta page with neither a next nor a delta link');
      this.api.requireOwnUrl(delta);
      if (full) await hooks.fullRoundEnded(folder);
      await save({ delta });
      return { delta };
    }
  }

  private toMessage(item: GraphMessage): MailMessage {
    return {
      id: item.id,
      subject: item.subject ?? '',
      from: recipient(item.from),
      to: (item.toRecipients ?? []).map(recipient),
      cc: (item.ccRecipients ?? []).map(recipient),
      date: item.receivedDateTime ?? '',
      body: item.body?.content ?? '',
      bodyType: item.body?.contentType === 'html' ? 'html' : 'text',
      webLink: item.webLink,
      hasAttachments: item.hasAttachments === true,
    };
  }

  async attachments(message: MailMessage): Promise<MailAttachment[]> {
    if (!message.hasAttachments) return [];
    const base = `${this.api.base}/me/messages/${encodeURIComponent(message.id)}/attachments`;
    const listed = await this.api.getJson<{ value?: { id?: string; name?: string; size?: number; '@odata.type'?: string }[] }>(`${base}?$select=id,name,size`);
    return (listed.value ?? [])
      // Only files: attached Outlook items and cloud links have no bytes of their own.
      .filter((a) => typeof a.id === 'string' && (a['@odata.type'] === undefined || a['@odata.type'] === '#microsoft.graph.fileAttachment'))
      .map((a) => ({
        id: a.id!,
        name: a.name ?? `attachment ${a.id}`,
        size: typeof a.size === 'number' ? a.size : undefined,
        load: async () => {
          const file = await this.api.getJson<{ contentBytes?: string }>(`${base}/${encodeURIComponent(a.id!)}`);
          if (typeof file.contentBytes !== 'string') throw new MailError('bad_response', 'Graph answered an attachment without its bytes');
          const bytes = Buffer.from(file.contentBytes, 'base64');
          if (bytes.length > this.maxAttachmentBytes) throw new MailError('bad_response', `larger than ${this.maxAttachmentBytes} bytes`);
          return bytes;
        },
      }));
  }
}
