import { Type, type Static } from '@sinclair/typebox';
import { AuditFields, Id, IdParams, NullableTimestamp, Page, PageQuery, named, withExamples } from '../../http/schemas.js';
import { METRIC_KINDS } from '../../evaluation/index.js';
import { CitationSchema } from '../chat/responses.schemas.js';
import { ExpectedSourceSchema } from './datasets.schemas.js';

export const EVALUATION_STATUSES = ['queued', 'running', 'completed', 'cancelled', 'budget_exhausted', 'failed'] as const;
export const RESULT_STATUSES = ['pending', 'completed', 'blocked', 'failed'] as const;
export const SCORE_STATUSES = ['ok', 'undetermined', 'error'] as const;
export const MAX_CONCURRENCY = 16;
export const MAX_EVALUATION_METRICS = 20;
/** Evaluations one comparison puts side by side at most. */
export const MAX_COMPARED = 10;

const literals = <T extends string>(values: readonly T[], description: string) => Type.Union(values.map((value) => Type.Literal(value)), { description });

export const EvaluationStatusSchema = literals(
  EVALUATION_STATUSES,
  'queued, running, completed; cancelled (by a person); budget_exhausted (it stopped starting queries once its cost budget was spent); failed (it could not run: the reason is in error)',
);
const ResultStatus = literals(RESULT_STATUSES, 'pending (not answered yet); completed, blocked (a guardrail stopped it) or failed (the agent failed)');
const ScoreStatus = literals(SCORE_STATUSES, 'ok (with a score); undetermined (e.g. no expected answer, a judge that answered nonsense); error (the agent or the judge failed)');
const PassWhen = Type.Union([Type.Literal('at_least'), Type.Literal('at_most')]);
const Kind = literals(METRIC_KINDS, 'The metric’s kind');
const Tag = Type.String({ minLength: 1, maxLength: 100, pattern: '\\S' });
const Name = Type.String({ minLength: 1, maxLength: 200, pattern: '\\S' });
const Figure = (description: string) => Type.Union([Type.Number(), Type.Null()], { description });

export const ProgressSchema = Type.Object({
  total: Type.Integer({ minimum: 0, description: 'Queries of the evaluation' }),
  answered: Type.Integer({ minimum: 0, description: 'Queries answered (completed, blocked or failed)' }),
  completed: Type.Integer({ minimum: 0 }),
  blocked: Type.Integer({ minimum: 0 }),
  failed: Type.Integer({ minimum: 0 }),
  pending: Type.Integer({ minimum: 0 }),
  percent: Type.Number({ minimum: 0, maximum: 100 }),
});

export const MetricSummarySchema = named(
  'MetricSummary',
  Type.Object({
    metric_id: Id('Metric'),
    name: Type.String(),
    kind: Kind,
    threshold: Figure('The threshold of the metric when the evaluation was made'),
    pass_when: PassWhen,
    n: Type.Integer({ minimum: 0, description: 'Results with a score' }),
    mean: Figure('Mean of the scores; null without one'),
    std_dev: Figure('Sample standard deviation; null with fewer than two scores'),
    ci_low: Figure('95% confidence interval of the mean (Student’s t), low end'),
    ci_high: Figure('High end'),
    pass_rate: Figure('Passed / scored, where the metric has a threshold'),
    passed: Type.Integer({ minimum: 0 }),
    undetermined: Type.Integer({ minimum: 0, description: 'Results without a score for want of what the metric needs; never averaged in' }),
    errors: Type.Integer({ minimum: 0, description: 'Results where the agent or the judge failed; never averaged in' }),
  }),
);
export type MetricSummaryView = Static<typeof MetricSummarySchema>;

const EvaluationMetricSchema = Type.Object({
  id: Id('Metric'),
  name: Type.String(),
  kind: Kind,
  threshold: Figure('Threshold'),
  pass_when: PassWhen,
  llm_configuration_id: Type.Union([Id('LLM configuration that judges'), Type.Null()], { description: 'The judge of a judge metric' }),
});

export const EvaluationSchema = named(
  'Evaluation',
  Type.Object({
    id: Id('Evaluation identifier'),
    name: Type.String(),
    agent_id: Id('Agent evaluated'),
    history_id: Id('The agent’s checkpoint evaluated: the history record whose configuration answers'),
    dataset_id: Type.Union([Id('Dataset asked'), Type.Null()], { description: 'null once the dataset is deleted (the results keep a copy of each query)' }),
    metrics: Type.Array(EvaluationMetricSchema, { description: 'The metrics as they were when the evaluation was made' }),
    tags: Type.Array(Type.String()),
    status: EvaluationStatusSchema,
    concurrency: Type.Integer({ minimum: 1, maximum: MAX_CONCURRENCY }),
    cost_budget_usd: Figure('Most the evaluation may spend on answers and judges; null: no budget'),
    cost_usd: Type.Number({ minimum: 0, description: 'Spent so far on answers and judges (calls whose price is unknown count 0)' }),
    judge_llm_configuration_id: Type.Union([Id('LLM configuration'), Type.Null()], { description: 'The judge of the built-in judge metrics; null: the organization’s judge deployment, else its default' }),
    progress: ProgressSchema,
    summary: Type.Optional(Type.Array(MetricSummarySchema, { description: 'Per metric (one evaluation’s read only): mean, n, interval, pass rate' })),
    error: Type.Union([Type.String(), Type.Null()]),
    started_on: NullableTimestamp('When it started running'),
    finished_on: NullableTimestamp('When it ended'),
    ...AuditFields('evaluation'),
  }),
);
export type EvaluationView = Static<typeof EvaluationSchema>;

export const CreateEvaluationBody = Type.Object({
  name: Type.Optional(Name),
  agent_id: Id('The agent to evaluate'),
  history_id: Type.Optional(Id('A history record of the agent: its checkpoint answers, without being restored. Default: the agent as it is now (its newest record)')),
  dataset_id: Id('The dataset whose queries are asked'),
  metric_ids: Type.Array(Id('Metric'), { minItems: 1, maxItems: MAX_EVALUATION_METRICS, uniqueItems: true }),
  tags: Type.Optional(Type.Array(Tag, { maxItems: 20 })),
  concurrency: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_CONCURRENCY, description: 'Queries answered at once (default 4)' })),
  cost_budget_usd: Type.Optional(Type.Union([Type.Number({ exclusiveMinimum: 0, maximum: 1_000_000 }), Type.Null()], { description: 'No query starts once this much is spent' })),
  judge_llm_configuration_id: Type.Optional(Type.Union([Id('LLM configuration'), Type.Null()], { description: 'Judges the judge metrics that name no configuration of their own' })),
});
export type CreateEvaluationInput = Static<typeof CreateEvaluationBody>;

export const UpdateEvaluationBody = Type.Object({ name: Type.Optional(Name), tags: Type.Optional(Type.Array(Tag, { maxItems: 20 })) }, { description: 'Only the fields sent change' });
export type UpdateEvaluationInput = Static<typeof UpdateEvaluationBody>;

export const EvaluationParams = IdParams('evaluation_id');
export const QueryResultParams = IdParams('evaluation_id', 'query_result_id');

export const ListEvaluationsQuery = (pageSizeMax: number) =>
  PageQuery(pageSizeMax, {
    tag: Type.Optional(Tag),
    agent_id: Type.Optional(Id('Only evaluations of this agent')),
    dataset_id: Type.Optional(Id('Only evaluations of this dataset')),
    status: Type.Optional(EvaluationStatusSchema),
  });

export const ScoreSchema = Type.Object({
  metric_id: Id('Metric'),
  name: Type.String(),
  status: ScoreStatus,
  score: Figure('The score; null unless ok'),
  passed: Type.Union([Type.Boolean(), Type.Null()], { description: 'Against the metric’s threshold; null without one or without a score' }),
  reason: Type.Union([Type.String(), Type.Null()], { description: 'Why it is undetermined or an error, or what the judge said' }),
});

export const QueryResultSchema = named(
  'EvaluationQueryResult',
  Type.Object({
    id: Id('Query result identifier'),
    evaluation_id: Id('Evaluation'),
    query_id: Type.Union([Id('Dataset query answered'), Type.Null()]),
    position: Type.Integer({ minimum: 1, description: 'Order of the query in the evaluation' }),
    question: Type.String(),
    expected_answer: Type.Union([Type.String(), Type.Null()]),
    expected_sources: Type.Array(ExpectedSourceSchema),
    status: ResultStatus,
    answer: Type.Union([Type.String(), Type.Null()]),
    error: Type.Union([Type.String(), Type.Null()]),
    citations: Type.Array(CitationSchema, { description: 'The passages the answer cites' }),
    retrieved: Type.Array(Type.Object({ document_id: Id('Document'), source: Type.String(), score: Type.Number() }), { description: 'The passages retrieval put before the model, best first' }),
    model: Type.Union([Type.String(), Type.Null()]),
    tokens: Type.Object({ prompt: Type.Integer({ minimum: 0 }), completion: Type.Integer({ minimum: 0 }), total: Type.Integer({ minimum: 0 }) }),
    cost: Figure('USD of the answer; null where a price is unknown'),
    judge_cost: Figure('USD of the judges of this query; null where a price is unknown'),
    latency_ms: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()]),
    answered_on: NullableTimestamp('When the answer ended'),
    scores: Type.Array(ScoreSchema),
  }),
);
export type QueryResultView = Static<typeof QueryResultSchema>;

export const ListQueryResultsQuery = (pageSizeMax: number) => PageQuery(pageSizeMax, { status: Type.Optional(ResultStatus) });

export const MetricResultSchema = named(
  'EvaluationMetricResult',
  Type.Object({
    query_result_id: Id('Query result'),
    query_id: Type.Union([Id('Dataset query'), Type.Null()]),
    position: Type.Integer({ minimum: 1 }),
    question: Type.String(),
    ...ScoreSchema.properties,
  }),
);
export type MetricResultView = Static<typeof MetricResultSchema>;

export const ListMetricResultsQuery = (pageSizeMax: number) =>
  PageQuery(pageSizeMax, { metric_id: Type.Optional(Id('Only this metric’s results')), status: Type.Optional(ScoreStatus) });

export const MetricResultsSchema = Type.Composite([Page(MetricResultSchema), Type.Object({ summary: Type.Array(MetricSummarySchema) })], {
  title: 'EvaluationMetricResultPage',
});

export const TagsInUseSchema = Type.Object({ items: Type.Array(Type.Object({ tag: Type.String(), evaluations: Type.Integer({ minimum: 1 }) })) }, { title: 'EvaluationTagList' });

export const CompareQuery = (pageSizeMax: number) =>
  PageQuery(pageSizeMax, {
    ids: Type.String({
      pattern: `^[1-9][0-9]{0,15}(,[1-9][0-9]{0,15}){1,${MAX_COMPARED - 1}}$`,
      description: `Two to ${MAX_COMPARED} evaluation ids, comma-separated; the first is the baseline the others are compared with`,
    }),
  });

export const QUERY_CHANGES = ['regression', 'improvement', 'changed', 'same'] as const;

const PairedResult = Type.Object({
  evaluation_id: Id('Evaluation'),
  query_result_id: Type.Union([Id('Query result'), Type.Null()], { description: 'null where this evaluation did not ask the query' }),
  status: Type.Union([ResultStatus, Type.Null()]),
  scores: Type.Array(Type.Object({ metric_id: Id('Metric'), status: ScoreStatus, score: Figure('Score'), passed: Type.Union([Type.Boolean(), Type.Null()]) })),
});

export const ComparisonSchema = named(
  'EvaluationComparison',
  Type.Object({
    evaluations: Type.Array(
      Type.Object({ id: Id('Evaluation'), name: Type.String(), agent_id: Id('Agent'), history_id: Id('Checkpoint'), dataset_id: Type.Union([Id('Dataset'), Type.Null()]), status: EvaluationStatusSchema }),
      { description: 'In the order asked; the first is the baseline' },
    ),
    metrics: Type.Array(
      Type.Object({
        metric_id: Id('Metric'),
        name: Type.String(),
        kind: Kind,
        summaries: Type.Array(Type.Union([MetricSummarySchema, Type.Null()]), { description: 'One per evaluation, in order; null where the evaluation did not score this metric' }),
        mean_deltas: Type.Array(Figure('Mean of this evaluation minus the baseline’s'), { description: 'One per evaluation, in order (the baseline’s is 0)' }),
      }),
    ),
    queries: Page(
      Type.Object({
        query_id: Type.Union([Id('Dataset query'), Type.Null()]),
        question: Type.String(),
        change: literals(QUERY_CHANGES, 'Against the baseline: regression (a metric went from pass to fail), improvement (fail to pass, none the other way), changed (scores moved, no pass changed), same'),
        regressions: Type.Array(Type.String(), { description: 'Metrics that went from pass to fail' }),
        improvements: Type.Array(Type.String(), { description: 'Metrics that went from fail to pass' }),
        results: Type.Array(PairedResult, { description: 'One per evaluation, in order' }),
      }),
    ),
  }),
);
export type ComparisonView = Static<typeof ComparisonSchema>;

// Examples of the request bodies, shown in the OpenAPI document.
withExamples(CreateEvaluationBody, {
  name: 'Support assistant, shorter instructions',
  agent_id: 7,
  history_id: 12,
  dataset_id: 3,
  metric_ids: [1, 5, 17],
  tags: ['before-release'],
  concurrency: 4,
  cost_budget_usd: 5,
});
withExamples(UpdateEvaluationBody, { name: 'Support assistant, shorter instructions (v2)', tags: ['before-release', 'kept'] });
