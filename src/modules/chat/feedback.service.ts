// What people say about agent responses. Whoever may see a response (thread.policy.ts) votes,
// rates, writes feedback and comments; one vote and one rating each, changeable. A comment is
// deleted by its author or an admin. Reviews (a verdict and a note, kept as a trail) are given by
// owners, admins and the leads of the agent's team.
import { now } from '../../clock.js';
import { NotFound } from '../../errors.js';
import type { ListSlice, ListWindow } from '../../pagination.js';
import type { UnitOfWork } from '../../repositories.js';
import type { Vote } from '../../db/schema.js';
import type { Actor } from '../auth/actor.js';
import { presentNote, presentReview } from './feedback.presenter.js';
import type { CommentView, ReviewView } from './feedback.schemas.js';
import type { ResponsesService } from './responses.service.js';
import type { AgentResponseView } from './responses.schemas.js';
import { requireVisibleResponse } from './thread-access.js';
import { authorize, threadPolicy } from './thread.policy.js';

export interface ReviewInput {
  verdict: ReviewView['verdict'];
  note?: string | undefined;
}

export class FeedbackService {
  constructor(
    private readonly store: UnitOfWork,
    private readonly responses: ResponsesService,
  ) {}

  private require(actor: Actor, responseId: number) {
    return requireVisibleResponse(this.store.repos, actor, responseId);
  }

  async vote(actor: Actor, responseId: number, vote: Vote | null): Promise<AgentResponseView> {
    await this.require(actor, responseId);
    await this.store.repos.feedback.setVote(responseId, actor.userId, vote, now());
    return this.responses.view(actor, responseId);
  }

  async rate(actor: Actor, responseId: number, rating: number | null): Promise<AgentResponseView> {
    await this.require(actor, responseId);
    await this.store.repos.feedback.setRating(responseId, actor.userId, rating, now());
    return this.responses.view(actor, responseId);
  }

  async addFeedback(actor: Actor, responseId: number, text: string): Promise<CommentView> {
    await this.require(actor, responseId);
    const { feedback } = this.store.repos;
    const id = await feedback.addNote('response_feedback', { response_id: responseId, user_id: actor.userId, text, created_on: now() });
    return presentNote((await feedback.findFeedback(responseId, id))!);
  }

  async listComments(actor: Actor, responseId: number, window: ListWindow): Promise<ListSlice<CommentView>> {
    await this.require(actor, responseId);
    const { items, total } = await this.store.repos.feedback.listComments(responseId, window);
    return { items: items.map(presentNote), total };
  }

  async addComment(actor: Actor, responseId: number, text: string): Promise<CommentView> {
    await this.require(actor, responseId);
    const { feedback } = this.store.repos;
    const id = await feedback.addNote('response_comments', { response_id: responseId, user_id: actor.userId, text, created_on: now() });
    return presentNote((await feedback.findComment(responseId, id))!);
  }

  async deleteComment(actor: Actor, responseId: number, commentId: number): Promise<void> {
    await this.require(actor, responseId);
    const { feedback } = this.store.repos;
    const comment = await feedback.findComment(responseId, commentId);
    if (!comment) throw new NotFound('comment', commentId);
    authorize(threadPolicy.mayDeleteComment(actor, comment), 'Only the comment’s author, owners and admins may delete it');
    if (!(await feedback.deleteComment(responseId, commentId))) throw new NotFound('comment', commentId);
  }

  async review(actor: Actor, responseId: number, input: ReviewInput): Promise<ReviewView> {
    const { leadsAgentTeam } = await this.require(actor, responseId);
    authorize(threadPolicy.mayReview(actor, leadsAgentTeam), 'Only owners, admins and the leads of the agent’s team may review its responses');
    const { feedback } = this.store.repos;
    const id = await feedback.addReview({ response_id: responseId, user_id: actor.userId, verdict: input.verdict, text: input.note ?? '', created_on: now() });
    return presentReview((await feedback.findReview(responseId, id))!);
  }

  /** The response's reviews as a trail, oldest first; whoever sees the response reads them. */
  async listReviews(actor: Actor, responseId: number, window: ListWindow): Promise<ListSlice<ReviewView>> {
    await this.require(actor, responseId);
    const { items, total } = await this.store.repos.feedback.listReviews(responseId, window);
    return { items: items.map(presentReview), total };
  }
}
