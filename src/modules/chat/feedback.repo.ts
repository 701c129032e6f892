// What people say about agent responses: one vote and one rating per person (changeable), written
// feedback, comments, and reviews kept as a trail. Callers check that the response is one the person
// may read; the rows themselves name the response only.
import type { Kysely } from 'kysely';
import { selectSlice } from '../../db/list-slice.js';
import type { DB, ReviewVerdict, Vote } from '../../db/schema.js';
import type { ListSlice, ListWindow } from '../../pagination.js';

export interface NoteRecord {
  id: number;
  response_id: number;
  user_id: number;
  text: string;
  created_on: string;
  created_by_email: string;
}

export type ReviewRecord = NoteRecord & { verdict: ReviewVerdict };

/** The figures of one response's feedback, and what the person asking gave it. */
export interface FeedbackFigures {
  up: number;
  down: number;
  my_vote: Vote | null;
  my_rating: number | null;
  average_rating: number | null;
  ratings: number;
  feedback: number;
  comments: number;
  reviews: number;
  latest_review: ReviewRecord | null;
}

const noFigures = (): FeedbackFigures => ({
  up: 0,
  down: 0,
  my_vote: null,
  my_rating: null,
  average_rating: null,
  ratings: 0,
  feedback: 0,
  comments: 0,
  reviews: 0,
  latest_review: null,
});

type NoteTable = 'response_feedback' | 'response_comments' | 'response_reviews';

export class FeedbackRepo {
  constructor(private readonly db: Kysely<DB>) {}

  /** Sets the person's vote on the response; null removes it. */
  async setVote(responseId: number, userId: number, vote: Vote | null, at: string): Promise<void> {
    if (vote === null) {
      await this.db.deleteFrom('response_votes').where('response_id', '=', responseId).where('user_id', '=', userId).execute();
      return;
    }
    await this.db
      .insertInto('response_votes')
      .values({ response_id: responseId, user_id: userId, vote, modified_on: at })
      .onConflict((oc) => oc.columns(['response_id', 'user_id']).doUpdateSet({ vote, modified_on: at }))
      .execute();
  }

  /** Sets the person's rating of the response; null removes it. */
  async setRating(responseId: number, userId: number, rating: number | null, at: string): Promise<void> {
    if (rating === null) {
      await this.db.deleteFrom('response_ratings').where('response_id', '=', responseId).where('user_id', '=', userId).execute();
      return;
    }
    await this.db
      .insertInto('response_ratings')
      .values({ response_id: responseId, user_id: userId, rating, modified_on: at })
      .onConflict((oc) => oc.columns(['response_id', 'user_id']).doUpdateSet({ rating, modified_on: at }))
      .execute();
  }

  async addNote(table: 'response_feedback' | 'response_comments', note: { response_id: number; user_id: number; text: string; created_on: string }): Promise<number> {
    return (await this.db.insertInto(table).values(note).returning('id').executeTakeFirstOrThrow()).id;
  }

  async addReview(review: { response_id: number; user_id: number; text: string; verdict: ReviewVerdict; created_on: string }): Promise<number> {
    return (await this.db.insertInto('response_reviews').values(review).returning('id').executeTakeFirstOrThrow()).id;
  }

  private notes(table: NoteTable) {
    return this.db
      .selectFrom(`${table} as n` as 'response_comments as n')
      .innerJoin('users as u', 'u.id', 'n.user_id')
      .select(['n.id', 'n.response_id', 'n.user_id', 'n.text', 'n.created_on', 'u.email as created_by_email']);
  }

  async findComment(responseId: number, commentId: number): Promise<NoteRecord | undefined> {
    return this.notes('response_comments').where('n.response_id', '=', responseId).where('n.id', '=', commentId).executeTakeFirst();
  }

  async findFeedback(responseId: number, feedbackId: number): Promise<NoteRecord | undefined> {
    return this.notes('response_feedback').where('n.response_id', '=', responseId).where('n.id', '=', feedbackId).executeTakeFirst();
  }

  async deleteComment(responseId: number, commentId: number): Promise<boolean> {
    const result = await this.db.deleteFrom('response_comments').where('response_id', '=', responseId).where('id', '=', commentId).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /** The response's comments, oldest first. */
  listComments(responseId: number, window: ListWindow): Promise<ListSlice<NoteRecord>> {
    return selectSlice(this.notes('response_comments').where('n.response_id', '=', responseId).orderBy('n.id', 'asc'), window);
  }

  private reviews() {
    return this.db
      .selectFrom('response_reviews as n')
      .innerJoin('users as u', 'u.id', 'n.user_id')
      .select(['n.id', 'n.response_id', 'n.user_id', 'n.text', 'n.verdict', 'n.created_on', 'u.email as created_by_email']);
  }

  async findReview(responseId: number, reviewId: number): Promise<ReviewRecord | undefined> {
    return this.reviews().where('n.response_id', '=', responseId).where('n.id', '=', reviewId).executeTakeFirst();
  }

  /** The response's reviews as a trail, oldest first. */
  listReviews(responseId: number, window: ListWindow): Promise<ListSlice<ReviewRecord>> {
    return selectSlice(this.reviews().where('n.response_id', '=', responseId).orderBy('n.id', 'asc'), window);
  }

  /** The feedback figures of each response, read for all of them at once; `userId` is the person asking. */
  async figures(responseIds: number[], userId: number): Promise<Map<number, FeedbackFigures>> {
    const byResponse = new Map(responseIds.map((id) => [id, noFigures()]));
    if (responseIds.length === 0) return byResponse;
    const figure = (id: number) => byResponse.get(id)!;

    const votes = await this.db
      .selectFrom('response_votes')
      .select((eb) => ['response_id', 'vote', eb.fn.countAll().as('n')])
      .where('response_id', 'in', responseIds)
      .groupBy(['response_id', 'vote'])
      .execute();
    for (const row of votes) figure(row.response_id)[row.vote] = Number(row.n);

    const ratings = await this.db
      .selectFrom('response_ratings')
      .select((eb) => ['response_id', eb.fn.avg<number>('rating').as('average'), eb.fn.countAll().as('n')])
      .where('response_id', 'in', responseIds)
      .groupBy('response_id')
      .execute();
    for (const row of ratings) Object.assign(figure(row.response_id), { average_rating: Math.round(Number(row.average) * 100) / 100, ratings: Number(row.n) });

    const mine = await this.db
      .selectFrom('agent_responses as r')
      .leftJoin('response_votes as v', (join) => join.onRef('v.response_id', '=', 'r.id').on('v.user_id', '=', userId))
      .leftJoin('response_ratings as g', (join) => join.onRef('g.response_id', '=', 'r.id').on('g.user_id', '=', userId))
      .select(['r.id', 'v.vote', 'g.rating'])
      .where('r.id', 'in', responseIds)
      .execute();
    for (const row of mine) Object.assign(figure(row.id), { my_vote: row.vote ?? null, my_rating: row.rating ?? null });

    for (const [table, field] of [
      ['response_feedback', 'feedback'],
      ['response_comments', 'comments'],
      ['response_reviews', 'reviews'],
    ] as const) {
      const counts = await this.db
        .selectFrom(table as 'response_comments')
        .select((eb) => ['response_id', eb.fn.countAll().as('n')])
        .where('response_id', 'in', responseIds)
        .groupBy('response_id')
        .execute();
      for (const row of counts) figure(row.response_id)[field] = Number(row.n);
    }

    const latest = await this.reviews()
      .where('n.id', 'in', (eb) => eb.selectFrom('response_reviews').select((inner) => inner.fn.max('id').as('id')).where('response_id', 'in', responseIds).groupBy('response_id'))
      .execute();
    for (const review of latest) figure(review.response_id).latest_review = review;
    return byResponse;
  }
}
