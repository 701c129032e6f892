// Reading agent responses, and what a thread's owner does to them (pin, tag). Every read checks that
// the caller may see the response's thread (thread.policy.ts); lists across threads hold only those.
// Each view carries the figures of what people said about the response (votes, ratings, reviews).
import { now } from '../../clock.js';
import { NotFound } from '../../errors.js';
import type { ListSlice, ListWindow } from '../../pagination.js';
import type { Repositories, UnitOfWork } from '../../repositories.js';
import type { Actor } from '../auth/actor.js';
import type { RecordedAnswer } from '../runtime/answer.js';
import { presentFigures } from './feedback.presenter.js';
import { presentResponse } from './response.presenter.js';
import type { AgentResponseView } from './responses.schemas.js';
import { requireVisibleResponse, requireVisibleThread } from './thread-access.js';
import { authorize, threadPolicy } from './thread.policy.js';
import { distinctTags } from './threads.service.js';

export interface ResponseListFilter {
  agentId?: number | undefined;
  threadId?: number | undefined;
}

export class ResponsesService {
  constructor(private readonly store: UnitOfWork) {}

  /** Response views with their feedback figures, as the caller sees them (my_vote, my_rating). */
  async present(actor: Actor, rows: RecordedAnswer[], repos: Repositories = this.store.repos): Promise<AgentResponseView[]> {
    const figures = await repos.feedback.figures(
      rows.map((row) => row.id),
      actor.userId,
    );
    return rows.map((row) => ({ ...presentResponse(row), feedback: presentFigures(figures.get(row.id)!) }));
  }

  /** One response, read again (after a change) and presented. */
  async view(actor: Actor, responseId: number, repos: Repositories = this.store.repos): Promise<AgentResponseView> {
    const row = await repos.responses.find(actor.organizationId, responseId);
    if (!row) throw new NotFound('response', responseId);
    return (await this.present(actor, [row], repos))[0]!;
  }

  async get(actor: Actor, responseId: number): Promise<AgentResponseView> {
    const { response } = await requireVisibleResponse(this.store.repos, actor, responseId);
    return (await this.present(actor, [response]))[0]!;
  }

  /** A thread's chat log, oldest first. */
  async ofThread(actor: Actor, threadId: number, window: ListWindow): Promise<ListSlice<AgentResponseView>> {
    await requireVisibleThread(this.store.repos, actor, threadId);
    return this.listed(actor, { reader: { userId: actor.userId, everything: true }, threadId }, 'asc', window);
  }

  /** A project's responses that the caller may see, newest first; 404 for a project of no organization's the caller's. */
  async ofProject(actor: Actor, projectId: number, window: ListWindow): Promise<ListSlice<AgentResponseView>> {
    if (!(await this.store.repos.projects.find(actor.organizationId, projectId))) throw new NotFound('project', projectId);
    return this.listed(actor, { reader: threadPolicy.readerOf(actor), projectId }, 'desc', window);
  }

  /** Every response the caller may see, newest first, optionally of one agent or thread. */
  async list(actor: Actor, filter: ResponseListFilter, window: ListWindow): Promise<ListSlice<AgentResponseView>> {
    return this.listed(actor, { reader: threadPolicy.readerOf(actor), ...filter }, 'desc', window);
  }

  private async listed(actor: Actor, filter: Parameters<Repositories['responses']['list']>[1], order: 'asc' | 'desc', window: ListWindow) {
    const { items, total } = await this.store.repos.responses.list(actor.organizationId, filter, order, window);
    return { items: await this.present(actor, items), total };
  }

  async setPinned(actor: Actor, responseId: number, pinned: boolean): Promise<AgentResponseView> {
    const { thread } = await requireVisibleResponse(this.store.repos, actor, responseId);
    authorize(threadPolicy.mayChange(actor, thread), 'Only the thread’s owner, owners and admins may pin its responses');
    await this.store.repos.responses.setPinned(actor.organizationId, responseId, pinned ? { at: now(), by: actor.userId } : null);
    return this.view(actor, responseId);
  }

  async setTags(actor: Actor, responseId: number, tags: string[]): Promise<AgentResponseView> {
    const { thread } = await requireVisibleResponse(this.store.repos, actor, responseId);
    authorize(threadPolicy.mayChange(actor, thread), 'Only the thread’s owner, owners and admins may tag its responses');
    return this.store.transaction(async (repos) => {
      await repos.responses.setTags(responseId, distinctTags(tags));
      return this.view(actor, responseId, repos);
    });
  }
}
