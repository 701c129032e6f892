// Analytics answers (API.md §8): `data: { interval, points: [{ start, … }], totals }`, every figure of
// a point a count or a sum, so that each total is the sum of its points.
import { Type, type Static, type TProperties } from '@sinclair/typebox';
import { Id, Timestamp, named } from '../../http/schemas.js';
import { SCOPES } from './analytics-scope.js';
import { ACTIVE_ENTITIES } from './analytics.repo.js';
import { INTERVALS, MAX_POINTS } from './time-buckets.js';

/** One of the strings, as a plain enum (client generators make an enumeration type of it). */
const literals = <T extends string>(values: readonly T[], options: { description: string; default?: NoInfer<T> }) =>
  Type.Unsafe<T>({ type: 'string', enum: [...values], ...options });

export const AnalyticsQuery = Type.Object({
  scope: literals(SCOPES, { default: 'overall', description: 'What the figures are about: the whole organization, or one agent, corpus, project, team or user (scope_id)' }),
  scope_id: Type.Optional(Id('The agent, corpus, project, team or user; required unless scope is overall')),
  from: Type.Optional(
    Type.String({
      maxLength: 40,
      description:
        'Start of the range: a date (its start on the time zone’s clock) or an ISO 8601 date-time (with Z or an offset: that instant; without: read on the time zone’s clock). Default: a span before `to` (a day by hour, 30 days by day, 12 weeks by week, a year by month)',
    }),
  ),
  to: Type.Optional(
    Type.String({ maxLength: 40, description: 'End of the range, excluded; a date means the end of that day. Default: now' }),
  ),
  interval: literals(INTERVALS, { default: 'day', description: `Length of a point: hour, day, week (from Monday) or month of the time zone’s clock; at most ${MAX_POINTS} points` }),
  timezone: Type.String({ default: 'UTC', maxLength: 64, description: 'IANA time zone whose clock cuts the points, e.g. Europe/Paris' }),
});
export type AnalyticsQueryInput = Static<typeof AnalyticsQuery>;

export const MostActiveQuery = Type.Composite([
  AnalyticsQuery,
  Type.Object({
    entity: literals(ACTIVE_ENTITIES, { default: 'agents', description: 'What to rank: agents, users, corpora or projects' }),
    limit: Type.Integer({ minimum: 1, maximum: 100, default: 10, description: 'How many to list' }),
  }),
]);
export type MostActiveQueryInput = Static<typeof MostActiveQuery>;

const Count = (description: string) => Type.Integer({ minimum: 0, description });
const Usd = (description: string) => Type.Number({ minimum: 0, description: `${description} (USD, exact to the nano-dollar)` });

/** The answer of an analytics route whose points carry these figures. */
function Series<P extends TProperties>(title: string, figures: P, extra: TProperties = {}) {
  return named(
    title,
    Type.Object({
      scope: literals(SCOPES, { description: 'The scope asked for' }),
      scope_id: Type.Union([Type.Integer(), Type.Null()]),
      from: Timestamp('Start of the range'),
      to: Timestamp('End of the range (excluded)'),
      interval: literals(INTERVALS, { description: 'Length of a point' }),
      timezone: Type.String(),
      points: Type.Array(
        Type.Object({ start: Timestamp('When the point’s hour, day, week or month starts on the time zone’s clock (the first may start before `from`)'), ...figures }),
      ),
      totals: Type.Object(figures, { description: 'Each figure summed over the points' }),
      ...extra,
    }),
  );
}

const QueryFigures = {
  queries: Count('Questions asked'),
  completed: Count('Answered'),
  blocked: Count('Stopped by a guardrail'),
  failed: Count('Failed (the model or a tool failed, or the answer never finished)'),
};

const TokenFigures = {
  prompt_tokens: Count('Tokens sent to models'),
  completion_tokens: Count('Tokens models gave'),
  total_tokens: Count('Both'),
};

const CostFigures = {
  cost: Usd('What the calls cost, where priced'),
  answer_cost: Usd('Of answers'),
  judge_cost: Usd('Of judges in evaluations'),
  embedding_cost: Usd('Of embeddings'),
  unpriced_calls: Count('Model calls whose price is unknown (not in cost)'),
};

const VoteFigures = {
  up: Count('Up votes cast or changed'),
  down: Count('Down votes cast or changed'),
  ratings: Count('Ratings given or changed'),
  rating_sum: Count('Their stars, summed (rating_sum / ratings is the mean)'),
};

const DocumentFigures = {
  documents: Count('Documents added (and not deleted)'),
  queued: Count('Of them, waiting'),
  extracting: Count('Being extracted'),
  chunking: Count('Being chunked'),
  embedding: Count('Being embedded'),
  indexed: Count('Indexed'),
  failed: Count('Failed, at whichever step'),
};

const IndexingFigures = {
  documents_full_text: Count('Documents indexed, found by their words only'),
  documents_vector: Count('Found by their vectors only'),
  documents_hybrid: Count('Found both ways'),
  chunks_full_text: Count('Their chunks with words and no vector'),
  chunks_vector: Count('With a vector and no words'),
  chunks_hybrid: Count('With both'),
};

const Mean = (description: string) => Type.Union([Type.Number(), Type.Null()], { description: `${description}; null when there is nothing to average` });

export const AnalyticsSummary = Series(
  'AnalyticsSummary',
  {
    ...QueryFigures,
    ...TokenFigures,
    cost: CostFigures.cost,
    up_votes: VoteFigures.up,
    down_votes: VoteFigures.down,
    documents: DocumentFigures.documents,
  },
  {
    averages: Type.Object(
      { latency_ms: Mean('Mean time to a whole answer over the range'), rating: Mean('Mean rating over the range') },
      { description: 'Means over the whole range (not sums, so not in the points)' },
    ),
  },
);
export const AnalyticsCost = Series('AnalyticsCost', CostFigures);
export const AnalyticsTokens = Series('AnalyticsTokens', TokenFigures);
export const AnalyticsQueryCount = Series('AnalyticsQueryCount', QueryFigures);
export const AnalyticsVotes = Series('AnalyticsVotes', VoteFigures, {
  averages: Type.Object({ rating: Mean('Mean rating over the range') }, { description: 'Means over the whole range (not sums, so not in the points)' }),
});
export const AnalyticsDocumentCount = Series('AnalyticsDocumentCount', DocumentFigures);
export const AnalyticsIndexingMode = Series('AnalyticsIndexingMode', IndexingFigures);

const ActiveItem = Type.Object({
  id: Id('The agent, user, corpus or project'),
  name: Type.String({ description: 'Its name (a user’s first and last names); empty when it is gone' }),
  email: Type.Optional(Type.String({ description: 'A user’s e-mail' })),
  queries: Count('Questions asked'),
  ...TokenFigures,
  cost: Usd('What its calls cost, where priced'),
});

export const AnalyticsMostActive = Series(
  'AnalyticsMostActive',
  { queries: QueryFigures.queries },
  {
    entity: literals(ACTIVE_ENTITIES, { description: 'What is ranked' }),
    items: Type.Array(ActiveItem, { description: 'Most questions first, then most cost; an answer of an agent counts for each corpus connected to it' }),
  },
);

export type Point<F> = { start: string } & F;
export type SeriesView<F, Extra = object> = {
  scope: (typeof SCOPES)[number];
  scope_id: number | null;
  from: string;
  to: string;
  interval: (typeof INTERVALS)[number];
  timezone: string;
  points: Point<F>[];
  totals: F;
} & Extra;
export type ActiveItemView = Static<typeof ActiveItem>;
