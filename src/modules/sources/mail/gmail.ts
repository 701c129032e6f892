// Google mail through the Gmail API. The first sync (and any after Gmail forgot the history id)
// lists each chosen label's messages (`users.messages.list?labelIds=`), having first read the
// mailbox's current history id (`users.getProfile`); later syncs read `users.history.list?startHistoryId=`
// and look at each message it names (`format=minimal`: its labels): gone (404) or out of every
// chosen label leaves, still in one is present. A 404 on the history id starts over in full. Only a
// message not brought in yet is fetched whole (`format=full`); its attachments are fetched one by one.
import { MailError, MailResyncRequired } from './mail-errors.js';
import type { MailApi } from './mail-api.js';
import type { MailAttachment, MailChange, MailCursor, MailMessage, MailReader, MailSyncHooks } from './mail-reader.js';

interface GmailPart {
  partId?: string;
  mimeType?: string;
  filename?: string;
  headers?: { name: string; value: string }[];
  body?: { attachmentId?: string; size?: number; data?: string };
  parts?: GmailPart[];
}

interface GmailMessage {
  id: string;
  labelIds?: string[];
  internalDate?: string;
  payload?: GmailPart;
}

interface GmailCursor {
  historyId?: string;
  /** A history listing under way: its page token. */
  historyPage?: string;
  /** A full listing under way: the history id read before it, the label being listed and its page token. */
  full?: { historyId: string; label: number; pageToken?: string };
}

/** Gmail's messages are all in one place: the items of a mailbox have no folder. */
const FOLDER = '';

const decode = (data: string | undefined) => (data === undefined ? '' : Buffer.from(data, 'base64url').toString('utf8'));

function walk(part: GmailPart | undefined, visit: (part: GmailPart) => void): void {
  if (!part) return;
  visit(part);
  for (const child of part.parts ?? []) walk(child, visit);
}

export class GmailReader implements MailReader {
  /** The parts of each message loaded, so that its attachments are listed without fetching it again. */
  private readonly payloads = new WeakMap<MailMessage, GmailPart | undefined>();

  constructor(
    private readonly api: MailApi,
    private readonly labels: readonly string[],
    private readonly maxAttachmentBytes: number,
  ) {}

  private get messages(): string {
    return `${this.api.base}/users/me/messages`;
  }

  async run(start: MailCursor, hooks: MailSyncHooks): Promise<MailCursor> {
    const cursor = start as GmailCursor;
    if (cursor.full === undefined && cursor.historyId !== undefined) {
      try {
        return await this.readHistory(cursor.historyId, cursor.historyPage, hooks);
      } catch (error) {
        if (!(error instanceof MailResyncRequired)) throw error;
        // The history id is too old: list everything again, and remove at the end what was not seen.
      }
    }
    return this.listAll(cursor.full, hooks);
  }

  private async listAll(resumed: GmailCursor['full'], hooks: MailSyncHooks): Promise<MailCursor> {
    let full = resumed;
    if (full === undefined) {
      const profile = await this.api.getJson<{ historyId?: string }>(`${this.api.base}/users/me/profile`);
      if (typeof profile.historyId !== 'string') throw new MailError('bad_response', 'Gmail answered a profile without a history id');
      full = { historyId: profile.historyId, label: 0 };
      await hooks.save({ full });
    }
    for (let label = full.label; label < this.labels.length; label++) {
      let pageToken = label === full.label ? full.pageToken : undefined;
      do {
        const url = new URL(this.messages);
        url.searchParams.set('labelIds', this.labels[label]!);
        url.searchParams.set('maxResults', '100');
        if (pageToken !== undefined) url.searchParams.set('pageToken', pageToken);
        const page = await this.api.getJson<{ messages?: { id?: string }[]; nextPageToken?: string }>(url.href);
        const ids = (page.messages ?? []).map((m) => m.id).filter((id): id is string => typeof id === 'string');
        await hooks.apply(ids.map((id) => this.present(id)));
        pageToken = typeof page.nextPageToken === 'string' ? page.nextPageToken : undefined;
        await hooks.save({ full: { historyId: full.historyId, label: pageToken === undefined ? label + 1 : label, ...(pageToken === undefined ? {} : { pageToken }) } });
      } while (pageToken !== undefined);
    }
    await hooks.fullRoundEnded(FOLDER);
    return { historyId: full.historyId };
  }

  private async readHistory(startHistoryId: string, resumedPage: string | undefined, hooks: MailSyncHooks): Promise<MailCursor> {
    let pageToken = resumedPage;
    for (;;) {
      const url = new URL(`${this.api.base}/users/me/history`);
      url.searchParams.set('startHistoryId', startHistoryId);
      url.searchParams.set('maxResults', '100');
      if (pageToken !== undefined) url.searchParams.set('pageToken', pageToken);
      const page = await this.api.getJson<{ history?: { messages?: { id?: string }[]; messagesDeleted?: { message?: { id?: string } }[] }[]; historyId?: string; nextPageToken?: string }>(url.href, [404]);
      const deleted = new Set<string>();
      const touched = new Set<string>();
      for (const record of page.history ?? []) {
        for (const entry of record.messagesDeleted ?? []) if (typeof entry.message?.id === 'string') deleted.add(entry.message.id);
        for (const message of record.messages ?? []) if (typeof message.id === 'string') touched.add(message.id);
      }
      const changes: MailChange[] = [...deleted].map((messageId) => ({ kind: 'removed', messageId, folder: FOLDER }));
      for (const id of touched) if (!deleted.has(id)) changes.push(await this.inScope(id));
      await hooks.apply(changes);
      pageToken = typeof page.nextPageToken === 'string' ? page.nextPageToken : undefined;
      if (pageToken === undefined) {
        if (typeof page.historyId !== 'string') throw new MailError('bad_response', 'Gmail answered a history page without a history id');
        return { historyId: page.historyId };
      }
      await hooks.save({ historyId: startHistoryId, historyPage: pageToken });
    }
  }

  /** A message the history names: present when it still carries a chosen label, removed otherwise. */
  private async inScope(id: string): Promise<MailChange> {
    let message: GmailMessage;
    try {
      message = await this.api.getJson<GmailMessage>(`${this.messages}/${encodeURIComponent(id)}?format=minimal`, [404]);
    } catch (error) {
      if (error instanceof MailResyncRequired) return { kind: 'removed', messageId: id, folder: FOLDER };
      throw error;
    }
    const labels = message.labelIds ?? [];
    return this.labels.some((label) => labels.includes(label)) ? this.present(id) : { kind: 'removed', messageId: id, folder: FOLDER };
  }

  private present(id: string): MailChange {
    return { kind: 'present', messageId: id, folder: FOLDER, load: () => this.load(id) };
  }

  private async load(id: string): Promise<MailMessage> {
    const message = await this.api.getJson<GmailMessage>(`${this.messages}/${encodeURIComponent(id)}?format=full`);
    const headers = new Map((message.payload?.headers ?? []).map((h) => [h.name.toLowerCase(), h.value]));
    const list = (name: string) => (headers.get(name) ?? '').split(',').map((s) => s.trim()).filter(Boolean);
    let plain: string | undefined;
    let html: string | undefined;
    let hasAttachments = false;
    walk(message.payload, (part) => {
      if (part.filename) hasAttachments = true;
      else if (part.mimeType === 'text/plain' && plain === undefined) plain = decode(part.body?.data);
      else if (part.mimeType === 'text/html' && html === undefined) html = decode(part.body?.data);
    });
    const date = message.internalDate !== undefined && /^\d+$/.test(message.internalDate) ? new Date(Number(message.internalDate)).toISOString() : (headers.get('date') ?? '');
    const loaded: MailMessage = {
      id,
      subject: headers.get('subject') ?? '',
      from: headers.get('from') ?? '',
      to: list('to'),
      cc: list('cc'),
      date,
      body: plain ?? html ?? '',
      bodyType: plain === undefined && html !== undefined ? 'html' : 'text',
      webLink: `https://mail.google.com/mail/#all/${encodeURIComponent(id)}`,
      hasAttachments,
    };
    this.payloads.set(loaded, message.payload);
    return loaded;
  }

  async attachments(message: MailMessage): Promise<MailAttachment[]> {
    if (!message.hasAttachments) return [];
    const payload = this.payloads.has(message) ? this.payloads.get(message) : (await this.api.getJson<GmailMessage>(`${this.messages}/${encodeURIComponent(message.id)}?format=full`)).payload;
    const found: MailAttachment[] = [];
    walk(payload, (part) => {
      if (!part.filename) return;
      const attachmentId = part.body?.attachmentId;
      const inline = part.body?.data;
      const id = attachmentId ?? part.partId ?? part.filename;
      found.push({
        // Gmail's attachment ids change between reads of a message; the part id does not.
        id: part.partId ?? id,
        name: part.filename,
        size: part.body?.size,
        load: async () => {
          const data = attachmentId === undefined ? inline : (await this.api.getJson<{ data?: string }>(`${this.messages}/${encodeURIComponent(message.id)}/attachments/${encodeURIComponent(attachmentId)}`)).data;
          if (typeof data !== 'string') throw new MailError('bad_response', 'Gmail answered an attachment without its bytes');
          const bytes = Buffer.from(data, 'base64url');
          if (bytes.length > this.maxAttachmentBytes) throw new MailError('bad_response', `larger than ${this.maxAttachmentBytes} bytes`);
          return bytes;
        },
      });
    });
    return found;
  }
}
