// What people say about a response, as the API shows it: votes, ratings, written feedback, comments
// and reviews, and the figures a response view carries about them.
import { Type, type Static } from '@sinclair/typebox';
import { Id, Timestamp, named, withExamples } from '../../http/schemas.js';

const Text = (description: string) => Type.String({ minLength: 1, maxLength: 10_000, description });

export const VoteBody = Type.Object({
  vote: Type.Union([Type.Literal('up'), Type.Literal('down'), Type.Null()], { description: 'up or down; null removes the caller’s vote' }),
});

export const RatingBody = Type.Object({
  rating: Type.Union([Type.Integer({ minimum: 1, maximum: 5 }), Type.Null()], { description: 'From 1 to 5; null removes the caller’s rating' }),
});

export const TextBody = Type.Object({ text: Text('What the caller has to say') });

export const VerdictSchema = Type.Union([Type.Literal('approved'), Type.Literal('rejected'), Type.Literal('needs_changes')]);

export const ReviewBody = Type.Object({
  verdict: VerdictSchema,
  note: Type.Optional(Type.String({ maxLength: 10_000, description: 'Why; empty when left out' })),
});

const noteFields = {
  id: Id('Identifier'),
  response_id: Id('Response it is about'),
  user_id: Id('Who wrote it'),
  created_on: Timestamp('When it was written'),
  created_by: Type.String({ description: 'E-mail of who wrote it' }),
};

export const CommentSchema = named('ResponseComment', Type.Object({ ...noteFields, text: Type.String() }), {
  id: 3,
  response_id: 12,
  user_id: 5,
  text: 'The second citation is the right one.',
  created_on: '2026-11-23T09:30:00.000Z',
  created_by: 'ana@example.com',
});

export const WrittenFeedbackSchema = named('ResponseFeedback', Type.Object({ ...noteFields, text: Type.String() }), {
  id: 8,
  response_id: 12,
  user_id: 5,
  text: 'Too long; the answer is in the first sentence.',
  created_on: '2026-11-23T09:31:00.000Z',
  created_by: 'ana@example.com',
});

export const ReviewSchema = named('ResponseReview', Type.Object({ ...noteFields, verdict: VerdictSchema, note: Type.String() }), {
  id: 2,
  response_id: 12,
  user_id: 1,
  verdict: 'needs_changes',
  note: 'Cites the 2024 policy; the 2026 one replaced it.',
  created_on: '2026-11-23T10:00:00.000Z',
  created_by: 'lead@example.com',
});

export const FeedbackFiguresSchema = named(
  'ResponseFeedbackFigures',
  Type.Object({
    up: Type.Integer({ minimum: 0, description: 'Up votes' }),
    down: Type.Integer({ minimum: 0, description: 'Down votes' }),
    my_vote: Type.Union([Type.Literal('up'), Type.Literal('down'), Type.Null()], { description: 'The caller’s vote' }),
    my_rating: Type.Union([Type.Integer({ minimum: 1, maximum: 5 }), Type.Null()], { description: 'The caller’s rating' }),
    average_rating: Type.Union([Type.Number(), Type.Null()], { description: 'Mean of the ratings, to two decimals; null without any' }),
    ratings: Type.Integer({ minimum: 0 }),
    feedback: Type.Integer({ minimum: 0, description: 'Pieces of written feedback' }),
    comments: Type.Integer({ minimum: 0 }),
    reviews: Type.Integer({ minimum: 0 }),
    latest_review: Type.Union([ReviewSchema, Type.Null()]),
  }),
);

export type CommentView = Static<typeof CommentSchema>;
export type ReviewView = Static<typeof ReviewSchema>;
export type FeedbackFiguresView = Static<typeof FeedbackFiguresSchema>;

// Examples of the request bodies, shown in the OpenAPI document.
withExamples(VoteBody, { vote: 'up' });
withExamples(RatingBody, { rating: 4 });
withExamples(TextBody, { text: 'The answer cites the old returns policy; it changed in October.' });
withExamples(ReviewBody, { verdict: 'needs_changes', note: 'Right answer, but it should link the returns form.' });
