// Linked mailboxes: list, read, remove, and ask for a sync. Whoever may write to the corpus manages
// its mailboxes (owners and admins write to every corpus), as for document-library connectors; a
// mailbox on a corpus the caller does not see is a 404, and so is another organization's.
import { Conflict, NotFound } from '../../errors.js';
import type { ListSlice, ListWindow } from '../../pagination.js';
import type { Repositories, UnitOfWork } from '../../repositories.js';
import type { Actor } from '../auth/actor.js';
import type { CorporaService } from '../corpora/corpora.service.js';
import { isOrganizationAdmin } from '../corpora/corpus.policy.js';
import type { MailboxView } from './email-indexing.schemas.js';
import { presentMailbox } from './mailbox.presenter.js';
import type { MailboxWithCreator } from './mailboxes.repo.js';

/** Queues a sync of the mailbox unless one is queued or running: false then. */
export async function queueMailboxSync(repos: Repositories, organizationId: number, mailboxId: number, at: string): Promise<boolean> {
  if (!(await repos.mailboxes.markQueued(organizationId, mailboxId))) return false;
  await repos.jobs.enqueue('mailbox.sync', { organizationId, mailboxId }, at);
  return true;
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
    try {
      await this.corpora.requireCorpus(actor, row.corpus_id, 'write');
    } catch (error) {
      if (error instanceof NotFound) throw new NotFound('mailbox', mailboxId);
      throw error;
    }
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
