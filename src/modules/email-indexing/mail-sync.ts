// The mailbox.sync job: brings a mailbox's chosen folders (Microsoft) or labels (Google) into its
// corpus. An access token comes from the sealed refresh token (a rotated one replaces it; an empty one
// never does); the provider's reader (src/email/) hands over pages of changes from the stored cursor.
// A message not brought in yet becomes a document (its headers and text), and each of its attachments
// another one, written together with their items and counters in one transaction, so a message is in
// the corpus whole or not at all; one already there is only marked seen (nothing is downloaded). A
// message gone from the mailbox or moved out of scope leaves with its attachments. The cursor is saved
// after each page: a sync stopped midway goes on from there, and re-applies nothing twice. A full
// listing ends by removing what it did not see. The provider's refusals end the sync as failed with a
// code on the mailbox (a refused grant also marks it reauthorization_required); the job itself then
// succeeds, since trying again at once would meet the same refusal. Its end queues the next scheduled
// sync. Writes to the mailbox are guarded by its generation: a re-authorization during the sync makes
// it stop without writing its cursor, token or outcome, and a sync of the new state is queued instead.
import { setTimeout as delay } from 'node:timers/promises';
import { now } from '../../clock.js';
import { MailError } from '../../email/mail-errors.js';
import type { MailProviders } from '../../email/mail-providers.js';
import type { MailChange, MailCursor, MailMessage, MailReader } from '../../email/mail-reader.js';
import { messageDocument, messageTitle } from '../../email/message-document.js';
import type { CompleteJob, Job, JobHandler } from '../../jobs/job-types.js';
import type { UnitOfWork } from '../../repositories.js';
import type { SecretBox } from '../../secrets/secret-box.js';
import { displayName } from '../documents/incoming.js';
import type { DocumentIntake } from '../documents/intake.js';
import { openRefreshToken, refreshTokenColumns } from './mailbox-secrets.js';
import { foldersOf } from './mailbox.presenter.js';
import type { MailboxChange, MailboxRow } from './mailboxes.repo.js';
import { queueNextScheduledSync } from './mailboxes.service.js';
import { mailboxSubject } from '../connectors/sync-jobs.repo.js';
import { queueSyncNow } from '../connectors/sync-schedule.js';

export interface MailSyncOptions {
  /** Larger attachments are counted as failed, not downloaded. */
  maxFileBytes: number;
  maxRetries: number;
  maxWaitMs: number;
}

/** Failures of an attachment that end the sync rather than the attachment: the whole mailbox is out of reach. */
const FATAL_CODES = new Set(['auth', 'throttled', 'upstream', 'unreachable']);

/** The mailbox's documents are written in the name of whoever linked it. */
const ownerOf = (mailbox: MailboxRow) => ({ organizationId: mailbox.organization_id, corpusId: mailbox.corpus_id, userId: mailbox.created_by });

interface NewPart {
  part: string;
  type: string;
  source: string;
  bytes: Buffer;
}

export class MailSync implements JobHandler<'mailbox.sync'> {
  /** Waits out a Retry-After; tests replace it to record the delays instead of sleeping. */
  wait: (ms: number, signal?: AbortSignal) => Promise<void> = (ms, signal) => delay(ms, undefined, signal ? { signal } : {});

  constructor(
    private readonly store: UnitOfWork,
    private readonly intake: DocumentIntake,
    private readonly secrets: SecretBox,
    private readonly providers: MailProviders,
    private readonly detectType: (bytes: Buffer) => string | undefined,
    private readonly options: MailSyncOptions,
    private readonly onEnqueued: () => void,
  ) {}

  async run(job: Job<'mailbox.sync'>, complete: CompleteJob, stopping: AbortSignal = new AbortController().signal): Promise<void> {
    const mailbox = await this.begin(job.payload.organizationId, job.payload.mailboxId, job.id);
    if (!mailbox) return;
    try {
      if (mailbox.authorization_status !== 'active') throw new MailError('auth', 'The mailbox needs to be authorized again', null, true);
      const cursor = await this.syncMessages(mailbox, stopping);
      await this.finish(mailbox, complete, { cursor });
    } catch (error) {
      if (error instanceof SyncSuperseded) return this.finish(mailbox, complete, 'superseded');
      if (stopping.aborted || !(error instanceof MailError)) throw error;
      await this.finish(mailbox, complete, { error });
    }
  }

  /** The job failed for good (the database's faults): the sync ends failed, and the schedule goes on. */
  async onFailed(job: Job<'mailbox.sync'>, reason: string): Promise<void> {
    const { organizationId, mailboxId } = job.payload;
    const at = now();
    await this.store.transaction(async (repos) => {
      await repos.mailboxes.update(organizationId, mailboxId, {
        sync_status: 'failed',
        sync_finished_on: at,
        sync_job_id: null,
        sync_error_code: null,
        sync_error: `The sync stopped: ${reason}`.slice(0, 500),
      });
      await queueNextScheduledSync(repos, organizationId, mailboxId, at);
    });
  }

  /**
   * The mailbox with this job's sync started; the job's own sync found running (stopped midway) goes
   * on as it was. Another job's sync running (two jobs claimed at once): nothing, this job just ends.
   */
  private async begin(organizationId: number, mailboxId: number, jobId: number): Promise<MailboxRow | undefined> {
    const { mailboxes } = this.store.repos;
    const current = await mailboxes.find(organizationId, mailboxId);
    if (!current) return undefined;
    // A sync running with no job recorded began before jobs were recorded: it is this one going on.
    const resumed = current.sync_status === 'running' && (current.sync_job_id === jobId || current.sync_job_id === null);
    if (!resumed) {
      const started = await mailboxes.startSync(organizationId, mailboxId, jobId, {
        sync_number: current.sync_number + 1,
        sync_started_on: now(),
        sync_finished_on: null,
        next_sync_on: null,
        sync_added: 0,
        sync_removed: 0,
        sync_failed: 0,
        sync_error_code: null,
        sync_error: null,
      });
      if (!started) return undefined;
    }
    return mailboxes.find(organizationId, mailboxId);
  }

  private async syncMessages(mailbox: MailboxRow, stopping: AbortSignal): Promise<MailCursor> {
    const tokens = await this.providers.oauth(mailbox.provider).refresh(openRefreshToken(this.secrets, mailbox), stopping);
    // A rotated refresh token replaces the stored one at once (the former may no longer work); none sent keeps it.
    if (tokens.refreshToken !== undefined) await this.write(mailbox, refreshTokenColumns(this.secrets, tokens.refreshToken));
    const api = this.providers.api(mailbox.provider, tokens.accessToken, {
      wait: (ms, signal) => this.wait(ms, signal),
      maxRetries: this.options.maxRetries,
      maxWaitMs: this.options.maxWaitMs,
      // An attachment's JSON carries its bytes in base64: a third more, and the envelope.
      maxBytes: Math.ceil(this.options.maxFileBytes * 1.4) + 64 * 1024,
      signal: stopping,
      now: () => Date.now(),
    });
    const reader = this.providers.reader(mailbox.provider, api, foldersOf(mailbox.folders), this.options.maxFileBytes);
    const { mailboxes } = this.store.repos;
    return reader.run(JSON.parse(mailbox.cursor) as MailCursor, {
      apply: async (changes) => {
        for (const change of changes) {
          stopping.throwIfAborted();
          await this.apply(mailbox, reader, change);
        }
      },
      save: (cursor) => this.write(mailbox, { cursor: JSON.stringify(cursor) }),
      fullRoundEnded: async (folder) => {
        for (const messageId of await mailboxes.unseenMessages(mailbox.id, folder, mailbox.sync_number)) {
          stopping.throwIfAborted();
          await this.removeMessage(mailbox, messageId);
        }
      },
    });
  }

  private async apply(mailbox: MailboxRow, reader: MailReader, change: MailChange): Promise<void> {
    const items = await this.store.repos.mailboxes.itemsOf(mailbox.id, change.messageId);
    if (change.kind === 'removed') {
      // Only the folder that holds it removes it: a message moved between two chosen folders stays.
      if (items.some((item) => item.folder === change.folder)) await this.removeMessage(mailbox, change.messageId);
      return;
    }
    if (items.length > 0) return this.store.repos.mailboxes.markSeen(mailbox.id, change.messageId, change.folder, mailbox.sync_number);
    const message = await change.load();
    const { type, bytes } = messageDocument(message);
    const parts: NewPart[] = [{ part: '', type, source: messageTitle(message), bytes }];
    let failed = 0;
    for (const attachment of await reader.attachments(message)) {
      const fetched = await this.attachmentBytes(attachment);
      const detected = fetched === undefined ? undefined : this.detectType(fetched);
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
      if (error instanceof MailError && !FATAL_CODES.has(error.code)) return undefined;
      throw error;
    }
  }

  /** Writes the message's documents with their items and counters, together. */
  private async bringIn(mailbox: MailboxRow, message: MailMessage, folder: string, parts: NewPart[], failed: number): Promise<void> {
    const accessUrl = message.webLink?.slice(0, 2000) ?? null;
    const documents = parts.map((part) => ({ bytes: part.bytes, type: part.type, source: part.source, accessUrl, uploadFrom: 'email' as const }));
    await this.intake.admit(ownerOf(mailbox), documents, async (repos, { admitted }) => {
      await repos.mailboxes.saveItems(
        parts.map((part, index) => ({ mailbox_id: mailbox.id, message_id: message.id, part: part.part, folder, document_id: admitted[index]!, seen_sync: mailbox.sync_number })),
      );
      await repos.mailboxes.bump(mailbox.id, 'sync_added', parts.length);
      await repos.mailboxes.bump(mailbox.id, 'sync_failed', failed);
    });
  }

  /** A message leaving the corpus: its documents (its text and its attachments) withdrawn and its items removed, together. */
  private async removeMessage(mailbox: MailboxRow, messageId: string): Promise<void> {
    const items = await this.store.repos.mailboxes.itemsOf(mailbox.id, messageId);
    const documentIds = items.flatMap((item) => (item.document_id === null ? [] : [item.document_id]));
    await this.intake.withdraw(ownerOf(mailbox), documentIds, async (repos, { withdrawn }) => {
      await repos.mailboxes.bump(mailbox.id, 'sync_removed', withdrawn.length);
      await repos.mailboxes.deleteItems(mailbox.id, messageId);
    });
  }

  /** Writes to the mailbox unless it was authorized again since the sync began: the sync then stops. */
  private async write(mailbox: MailboxRow, fields: MailboxChange): Promise<void> {
    if (!(await this.store.repos.mailboxes.updateOfGeneration(mailbox.organization_id, mailbox.id, mailbox.generation, fields))) throw new SyncSuperseded();
  }

  /**
   * Ends the sync: its outcome and cursor on the mailbox, the next scheduled sync queued, and the job
   * done, together. A sync superseded by a re-authorization writes no outcome: a sync of the new
   * state is queued now in its place (the re-authorization could not queue one while this ran).
   */
  private async finish(mailbox: MailboxRow, complete: CompleteJob, outcome: { cursor: MailCursor } | { error: MailError } | 'superseded'): Promise<void> {
    const at = now();
    const { organization_id: organizationId, id: mailboxId } = mailbox;
    await this.store.transaction(async (repos) => {
      const ended =
        outcome === 'superseded'
          ? undefined
          : 'cursor' in outcome
            ? { sync_status: 'succeeded' as const, cursor: JSON.stringify(outcome.cursor), sync_error_code: null, sync_error: null }
            : {
                sync_status: 'failed' as const,
                sync_error_code: outcome.error.code,
                sync_error: outcome.error.message.slice(0, 500),
                ...(outcome.error.revoked ? { authorization_status: 'reauthorization_required' as const } : {}),
              };
      const written = ended !== undefined && (await repos.mailboxes.updateOfGeneration(organizationId, mailboxId, mailbox.generation, { ...ended, sync_finished_on: at, sync_job_id: null }));
      if (!written) {
        // Superseded (or nothing to write): the new state's sync is queued in this one's place.
        await repos.mailboxes.update(organizationId, mailboxId, { sync_status: 'queued', sync_job_id: null, next_sync_on: null });
        await queueSyncNow(repos, mailboxSubject(mailboxId), organizationId, at);
      } else {
        await queueNextScheduledSync(repos, organizationId, mailboxId, at);
      }
      await complete(repos);
    });
    if (outcome === 'superseded') this.onEnqueued();
  }
}

/** A re-authorization came while the sync ran: it stops without writing over the new state. */
class SyncSuperseded extends Error {
  constructor() {
    super('The mailbox was authorized again while this sync ran');
  }
}
