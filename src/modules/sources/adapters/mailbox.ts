// The mailbox adapter of the sources engine (../source-sync.ts): brings a mailbox's chosen folders
// (Microsoft Graph) or labels (Gmail) into its corpus, through the provider's reader (../mail/:
// graph-mail.ts, gmail.ts). An access token comes from the sealed refresh token (a rotated one
// replaces it; an empty one never does); the reader hands over pages of changes from the stored
// cursor. A message not brought in yet becomes a document (its headers and text), and each of its
// attachments another one, written together with their items and counters (through the intake), so
// a message is in the corpus whole or not at all; one already there is only marked seen. A message
// gone from the mailbox or moved out of scope leaves with its attachments. The cursor is saved after
// each page: a sync stopped midway goes on from there. A full listing ends by removing what it did
// not see. A refused grant marks the mailbox reauthorization_required. Writes to the mailbox are
// guarded by its generation: a re-authorization during the sync makes it stop (SyncSuperseded).
import { MailError } from '../mail/mail-errors.js';
import type { MailProviders } from '../mail/mail-providers.js';
import type { MailChange, MailCursor, MailMessage, MailReader } from '../mail/mail-reader.js';
import { messageDocument, messageTitle } from '../mail/message-document.js';
import { displayName } from '../../documents/incoming.js';
import { openRefreshToken, refreshTokenColumns } from '../../email-indexing/mailbox-secrets.js';
import { foldersOf } from '../../email-indexing/mailbox-columns.js';
import type { Job } from '../../../jobs/job-types.js';
import type { Repositories } from '../../../repositories.js';
import type { MailboxChange, MailboxRow } from '../../email-indexing/mailboxes.repo.js';
import { endsTheSync, SyncSuperseded, type SourceAdapter, type SourceRefusal, type SyncContext } from '../source-adapter.js';
import type { SourceSyncChange } from '../source-sync.repo.js';
import type { AdapterDeps } from './adapter-deps.js';
import { mailboxSubject } from '../sync-jobs.repo.js';

export interface MailSyncOptions {
  /** Larger attachments are counted as failed, not downloaded. */
  maxFileBytes: number;
  maxRetries: number;
  maxWaitMs: number;
}

/** The mailbox's documents are written in the name of whoever linked it. */
const ownerOf = (mailbox: MailboxRow) => ({ organizationId: mailbox.organization_id, corpusId: mailbox.corpus_id, userId: mailbox.created_by });

interface NewPart {
  part: string;
  type: string;
  source: string;
  bytes: Buffer;
}

export class MailboxAdapter implements SourceAdapter<'mailbox.sync', MailboxRow> {
  constructor(
    private readonly deps: AdapterDeps,
    private readonly providers: MailProviders,
    private readonly options: MailSyncOptions,
  ) {}

  sourceOf(payload: Job<'mailbox.sync'>['payload']) {
    return { organizationId: payload.organizationId, sourceId: payload.mailboxId };
  }

  subject = mailboxSubject;

  readonly table = 'mailboxes';

  find(repos: Repositories, organizationId: number, mailboxId: number): Promise<MailboxRow | undefined> {
    return repos.mailboxes.find(organizationId, mailboxId);
  }

  /** The sync reads on from the stored cursor; no sync is due while one runs. */
  started(): SourceSyncChange {
    return { next_sync_on: null };
  }

  async sync(mailbox: MailboxRow, context: SyncContext): Promise<SourceSyncChange> {
    if (mailbox.authorization_status !== 'active') throw new MailError('auth', 'The mailbox needs to be authorized again', null, true);
    return { sync_cursor: JSON.stringify(await this.syncMessages(mailbox, context)) };
  }

  refusalOf(error: unknown) {
    return error instanceof MailError ? error : undefined;
  }

  ended(): SourceSyncChange {
    return {};
  }

  /** Unless the mailbox was authorized again since the sync began; a refused grant asks for another authorization. */
  writeEnd(repos: Repositories, mailbox: MailboxRow, fields: SourceSyncChange, refusal: SourceRefusal | undefined): Promise<boolean> {
    const authorization = refusal?.revoked ? { authorization_status: 'reauthorization_required' as const } : {};
    return repos.mailboxes.updateOfGeneration(mailbox.organization_id, mailbox.id, mailbox.generation, { ...fields, ...authorization });
  }

  private async syncMessages(mailbox: MailboxRow, { stopping, wait }: SyncContext): Promise<MailCursor> {
    const tokens = await this.providers.oauth(mailbox.provider).refresh(openRefreshToken(this.deps.secrets, mailbox), stopping);
    // A rotated refresh token replaces the stored one at once (the former may no longer work); none sent keeps it.
    if (tokens.refreshToken !== undefined) await this.write(mailbox, refreshTokenColumns(this.deps.secrets, tokens.refreshToken));
    const api = this.providers.api(mailbox.provider, tokens.accessToken, {
      wait,
      maxRetries: this.options.maxRetries,
      maxWaitMs: this.options.maxWaitMs,
      // An attachment's JSON carries its bytes in base64: a third more, and the envelope.
      maxBytes: Math.ceil(this.options.maxFileBytes * 1.4) + 64 * 1024,
      signal: stopping,
      now: () => Date.now(),
    });
    const reader = this.providers.reader(mailbox.provider, api, foldersOf(mailbox.folders), this.options.maxFileBytes);
    const { mailboxes } = this.deps.store.repos;
    return reader.run(JSON.parse(mailbox.sync_cursor) as MailCursor, {
      apply: async (changes) => {
        for (const change of changes) {
          stopping.throwIfAborted();
          await this.apply(mailbox, reader, change);
        }
      },
      save: (cursor) => this.write(mailbox, { sync_cursor: JSON.stringify(cursor) }),
      fullRoundEnded: async (folder) => {
        for (const messageId of await mailboxes.unseenMessages(mailbox.id, folder, mailbox.sync_number)) {
          stopping.throwIfAborted();
          await this.removeMessage(mailbox, messageId);
        }
      },
    });
  }

  private async apply(mailbox: MailboxRow, reader: MailReader, change: MailChange): Promise<void> {
    const items = await this.deps.store.repos.mailboxes.itemsOf(mailbox.id, change.messageId);
    if (change.kind === 'removed') {
      // Only the folder that holds it removes it: a message moved between two chosen folders stays.
      if (items.some((item) => item.folder === change.folder)) await this.removeMessage(mailbox, change.messageId);
      return;
    }
    if (items.length > 0) return this.deps.store.repos.mailboxes.markSeen(mailbox.id, change.messageId, change.folder, mailbox.sync_number);
    const message = await change.load();
    const { type, bytes } = messageDocument(message);
    const parts: NewPart[] = [{ part: '', type, source: messageTitle(message), bytes }];
    let failed = 0;
    for (const attachment of await reader.attachments(message)) {
      const fetched = await this.attachmentBytes(attachment);
      const detected = fetched === undefined ? undefined : this.deps.detectType(fetched);
      if (fetched === undefined || detected === undefined) {
        failed++;
        continue;
      }
      parts.push({ part: attachment.id, type: detected, source: displayName(attachment.name, `attachment ${attachment.id}`), bytes: fetched });
    }
    await this.bringIn(mailbox, message, change.folder, parts, failed);
  }

  /** An attachment's bytes; undefined when it is too large or the provider refused that one file. */
  private async attachmentBytes(attachment: { size: number | undefined; load(): Promise<Buffer> }): Promise<Buffer | undefined> {
    if (attachment.size !== undefined && attachment.size > this.options.maxFileBytes) return undefined;
    try {
      const bytes = await attachment.load();
      return bytes.length > this.options.maxFileBytes ? undefined : bytes;
    } catch (error) {
      if (error instanceof MailError && !endsTheSync(error.code)) return undefined;
      throw error;
    }
  }

  /** Writes the message's documents with their items and counters, together. */
  private async bringIn(mailbox: MailboxRow, message: MailMessage, folder: string, parts: NewPart[], failed: number): Promise<void> {
    const accessUrl = message.webLink?.slice(0, 2000) ?? null;
    const documents = parts.map((part) => ({ bytes: part.bytes, type: part.type, source: part.source, accessUrl, uploadFrom: 'email' as const }));
    await this.deps.intake.admit(ownerOf(mailbox), documents, async (repos, { admitted }) => {
      await repos.mailboxes.saveItems(
        parts.map((part, index) => ({ mailbox_id: mailbox.id, message_id: message.id, part: part.part, folder, document_id: admitted[index]!, seen_sync: mailbox.sync_number })),
      );
      await repos.sourceSync.bump(this.table, mailbox.id, 'sync_added', parts.length);
      await repos.sourceSync.bump(this.table, mailbox.id, 'sync_failed', failed);
    });
  }

  /** A message leaving the corpus: its documents (its text and its attachments) withdrawn and its items removed, together. */
  private async removeMessage(mailbox: MailboxRow, messageId: string): Promise<void> {
    const items = await this.deps.store.repos.mailboxes.itemsOf(mailbox.id, messageId);
    const documentIds = items.flatMap((item) => (item.document_id === null ? [] : [item.document_id]));
    await this.deps.intake.withdraw(ownerOf(mailbox), documentIds, async (repos, { withdrawn }) => {
      await repos.sourceSync.bump(this.table, mailbox.id, 'sync_removed', withdrawn.length);
      await repos.mailboxes.deleteItems(mailbox.id, messageId);
    });
  }

  /** Writes to the mailbox unless it was authorized again since the sync began: the sync then stops. */
  private async write(mailbox: MailboxRow, fields: MailboxChange): Promise<void> {
    if (!(await this.deps.store.repos.mailboxes.updateOfGeneration(mailbox.organization_id, mailbox.id, mailbox.generation, fields))) throw new SyncSuperseded();
  }
}
