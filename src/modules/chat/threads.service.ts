// Chat threads: a person's conversations with agents. Opening one takes an agent the caller can see;
// the list holds the caller's own threads; reading one takes seeing it (thread.policy.ts); changing
// or deleting it takes being its owner or an admin. A deleted thread leaves every view with its
// responses, whose rows stay for cost and usage figures.
import { now } from '../../clock.js';
import { NotFound } from '../../errors.js';
import { sentFields } from '../../fields.js';
import type { ListSlice, ListWindow } from '../../pagination.js';
import type { Repositories, UnitOfWork } from '../../repositories.js';
import { requireVisibleAgent } from '../agents/agent-access.js';
import type { Actor } from '../auth/actor.js';
import { requireVisibleThread } from './thread-access.js';
import { presentThread } from './thread.presenter.js';
import { authorize, threadPolicy } from './thread.policy.js';
import type { ThreadFilter } from './threads.repo.js';
import type { OpenThreadInput, ThreadView, UpdateThreadInput } from './threads.schemas.js';

/** The title of a thread opened without one. */
export const DEFAULT_THREAD_TITLE = 'New chat';

export const distinctTags = (tags: string[]) => [...new Set(tags)];

export class ThreadsService {
  constructor(private readonly store: UnitOfWork) {}

  private async view(actor: Actor, threadId: number, repos: Repositories = this.store.repos): Promise<ThreadView> {
    const thread = await repos.threads.findRecord(actor.organizationId, threadId);
    if (!thread) throw new NotFound('thread', threadId);
    return presentThread(thread);
  }

  async open(actor: Actor, input: OpenThreadInput): Promise<ThreadView> {
    await requireVisibleAgent(this.store.repos, actor, input.agent_id);
    const at = now();
    const threadId = await this.store.repos.threads.insert({
      organization_id: actor.organizationId,
      agent_id: input.agent_id,
      user_id: actor.userId,
      title: input.title ?? DEFAULT_THREAD_TITLE,
      last_activity_on: at,
      created_on: at,
      created_by: actor.userId,
      modified_on: at,
      modified_by: actor.userId,
    });
    return this.view(actor, threadId);
  }

  /** The caller's own threads, the most recently active first. */
  async list(actor: Actor, filter: Omit<ThreadFilter, 'userId'>, window: ListWindow): Promise<ListSlice<ThreadView>> {
    const { items, total } = await this.store.repos.threads.listOfUser(actor.organizationId, { ...filter, userId: actor.userId }, window);
    return { items: items.map(presentThread), total };
  }

  async get(actor: Actor, threadId: number): Promise<ThreadView> {
    return presentThread((await requireVisibleThread(this.store.repos, actor, threadId)).thread);
  }

  async update(actor: Actor, threadId: number, input: UpdateThreadInput): Promise<ThreadView> {
    const { thread } = await requireVisibleThread(this.store.repos, actor, threadId);
    authorize(threadPolicy.mayChange(actor, thread), 'Only the thread’s owner, owners and admins may change it');
    return this.store.transaction(async (repos) => {
      const fields = sentFields(input, ['title']);
      const pinned = input.pinned === undefined ? {} : { pinned: input.pinned ? 1 : 0 };
      await repos.threads.update(actor.organizationId, threadId, { ...fields, ...pinned, modified_on: now(), modified_by: actor.userId });
      if (input.tags) await repos.threads.setTags(threadId, distinctTags(input.tags));
      return this.view(actor, threadId, repos);
    });
  }

  async delete(actor: Actor, threadId: number): Promise<void> {
    const { thread } = await requireVisibleThread(this.store.repos, actor, threadId);
    authorize(threadPolicy.mayChange(actor, thread), 'Only the thread’s owner, owners and admins may delete it');
    if (!(await this.store.repos.threads.softDelete(actor.organizationId, threadId, now()))) throw new NotFound('thread', threadId);
  }
}
