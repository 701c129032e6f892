// Linked mailboxes: list, read, remove, and ask for a sync. Whoever may write to the corpus manages
// its mailboxes (owners and admins write to every corpus), as for document-library connectors; a
// mailbox on a corpus the caller does not see is a 404, and so is another organization's.
import { Conflict, NotFound } from '../../errors.js';
import type { ListSlice, ListWindow } from '../../pagination.js';
import type { Repositories, UnitOfWork } from '../../repositories.js';
import type { Actor } from '../auth/actor.js';
import type { CorporaService } from '../corpora/corpora.service.js';
import { isOrganizationAdmin } from '../corpora/corpus.policy.js';
import type { MailboxView, UpdateMailboxInput } from './email-indexing.schemas.js';
import { presentMailbox } from './mailbox.presenter.js';
import type { MailboxRow, MailboxWithCreator } from './mailboxes.repo.js';
import { mailboxSubject, queueScheduledSync, queueSyncNow } from '../sources/index.js';

/**
 * Queues a sync of the mailbox now unless one is queued or running: false then. A scheduled sync
 * waiting for its time is brought forward (it is the same job): a mailbox has one waiting job at most.
 */
export async function queueMailboxSync(repos: Repositories, organizationId: number, mailboxId: number, at: string): Promise<boolean> {
  if (!(await repos.mailboxes.markQueued(organizationId, mailboxId))) return false;
  await queueSyncNow(repos, mailboxSubject(mailboxId), organizationId, at);
  return true;
}

/**
 * Puts a changed schedule in place: the waiting scheduled job goes and the next is queued `minutes`
 * from now. While a sync is queued or running its end queues the next by the new schedule.
 */
export async function applySchedule(repos: Repositories, mailbox: Pick<MailboxRow, 'organization_id' | 'id' | 'sync_status'>, minutes: number | null, at: string): Promise<void> {
  await repos.mailboxes.update(mailbox.organization_id, mailbox.id, { schedule_minutes: minutes });
  if (mailbox.sync_status === 'queued' || mailbox.sync_status === 'running') return;
  await repos.syncJobs.dropWaiting(mailboxSubject(mailbox.id));
  const due = minutes === null ? null : await queueScheduledSync(repos, mailboxSubject(mailbox.id), mailbox.organization_id, at, minutes);
  await repos.mailboxes.update(mailbox.organization_id, mailbox.id, { next_sync_on: due });
}

export class MailboxesService {
  constructor(
    private readonly store: UnitOfWork,
    private readonly corpora: CorporaService,
    /** Wakes the worker when a sync is queued. */
    private readonly onEnqueued: () => void,
  ) {}

  private async requireMailbox(actor: Actor, mailboxId: number): Promise<MailboxWithCreator> {
    const row = await this.store.repos.mailboxes.find(actor.organizationId, mailboxId);
    if (!row) throw new NotFound('mailbox', mailboxId);
    await this.corpora.requireWritableHolder(actor, row.corpus_id, 'mailbox', mailboxId);
    return row;
  }

  async list(actor: Actor, window: ListWindow): Promise<ListSlice<MailboxView>> {
    const corpusIds = isOrganizationAdmin(actor) ? undefined : await this.store.repos.connectors.writableCorpora(actor.organizationId, actor.userId);
    const { items, total } = await this.store.repos.mailboxes.list(actor.organizationId, corpusIds, window);
    return { items: items.map(presentMailbox), total };
  }

  async get(actor: Actor, mailboxId: number): Promise<MailboxView> {
    return presentMailbox(await this.requireMailbox(actor, mailboxId));
  }

  /** Unlinks the mailbox: its refresh token and pending syncs go; the documents it brought in stay in the corpus. */
  async remove(actor: Actor, mailboxId: number): Promise<{ id: number }> {
    await this.requireMailbox(actor, mailboxId);
    await this.store.repos.mailboxes.delete(actor.organizationId, mailboxId);
    return { id: mailboxId };
  }

  /** Changes the mailbox's settings (its schedule); nothing sent, nothing changed. */
  async update(actor: Actor, mailboxId: number, input: UpdateMailboxInput, at: string): Promise<MailboxView> {
    const current = await this.requireMailbox(actor, mailboxId);
    return this.store.transaction(async (repos) => {
      if (input.schedule_minutes !== undefined && input.schedule_minutes !== current.schedule_minutes) {
        await applySchedule(repos, current, input.schedule_minutes, at);
        await repos.mailboxes.update(actor.organizationId, mailboxId, { modified_on: at });
      }
      const row = await repos.mailboxes.find(actor.organizationId, mailboxId);
      if (!row) throw new NotFound('mailbox', mailboxId);
      return presentMailbox(row);
    });
  }

  async requestSync(actor: Actor, mailboxId: number, at: string): Promise<MailboxView> {
    await this.requireMailbox(actor, mailboxId);
    const view = await this.store.transaction(async (repos) => {
      if (!(await queueMailboxSync(repos, actor.organizationId, mailboxId, at))) {
        throw new Conflict(`A sync of mailbox ${mailboxId} is already queued or running; wait for it to end`);
      }
      const row = await repos.mailboxes.find(actor.organizationId, mailboxId);
      if (!row) throw new NotFound('mailbox', mailboxId);
      return presentMailbox(row);
    });
    this.onEnqueued();
    return view;
  }
}
