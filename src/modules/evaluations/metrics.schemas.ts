import { Type, type Static } from '@sinclair/typebox';
import { Id, IdParams, PageQuery, Timestamp, named, withExamples } from '../../http/schemas.js';
import { METRIC_KINDS } from '../../evaluation/index.js';

const Kind = Type.Union(
  METRIC_KINDS.map((kind) => Type.Literal(kind)),
  { description: 'What the metric measures; see GET /api/v2/metrics for the built-in metric of each kind and docs/evaluations.md' },
);
const Name = Type.String({ minLength: 1, maxLength: 200, pattern: '\\S', description: 'Unique among the organization’s metrics' });
const Threshold = Type.Union([Type.Number({ minimum: -1e12, maximum: 1e12 }), Type.Null()], {
  description: 'A result passes when its score is at least this (at most, for latency, cost and answer length); null: no pass rate',
});
const Rubric = Type.Union([Type.String({ minLength: 1, maxLength: 10_000, pattern: '\\S' }), Type.Null()], {
  description: 'What the judge grades against: required by custom_rubric, optional for correctness (a default rubric otherwise)',
});
const Parameters = Type.Record(Type.String(), Type.Unknown(), { description: 'The kind’s parameters: k (hit_at_k, recall_at_k, precision_at_k), pattern, flags and must_match (regex), text and case_sensitive (contains), normalize (exact_match), unit (answer_length)' });
const JudgeConfiguration = Type.Union([Id('LLM configuration'), Type.Null()], {
  description: 'The LLM configuration that judges (judge kinds only); null: the evaluation’s judge, else the organization’s judge deployment, else its default',
});

export const MetricSchema = named(
  'Metric',
  Type.Object({
    id: Id('Metric identifier'),
    name: Type.String(),
    description: Type.String(),
    kind: Kind,
    builtin: Type.Boolean({ description: 'Built-in metrics are the same for every organization and cannot be changed' }),
    parameters: Parameters,
    threshold: Type.Union([Type.Number(), Type.Null()]),
    pass_when: Type.Union([Type.Literal('at_least'), Type.Literal('at_most')], { description: 'Which side of the threshold passes' }),
    unit: Type.String({ description: 'score (0 to 1), milliseconds, usd, words_characters_or_tokens or cosine (-1 to 1)' }),
    needs: Type.Union([Type.String(), Type.Null()], { description: 'expected_answer, expected_sources, judge or embedder: a result without it is undetermined (or the metric unavailable)' }),
    rubric: Type.Union([Type.String(), Type.Null()]),
    llm_configuration_id: Type.Union([Id('LLM configuration that judges'), Type.Null()]),
    judge_prompt: Type.Union([Type.String(), Type.Null()], { description: 'The prompt the judge is sent, pinned in the server (judge kinds); null otherwise' }),
    available: Type.Boolean({ description: 'false where the server lacks what the metric needs (semantic similarity without an embedding model)' }),
    created_on: Type.Union([Timestamp('When the metric was defined'), Type.Null()], { description: 'null for built-in metrics' }),
    created_by: Type.Union([Type.String(), Type.Null()]),
    modified_on: Type.Union([Timestamp('When the metric last changed'), Type.Null()]),
    modified_by: Type.Union([Type.String(), Type.Null()]),
  }),
);
export type MetricView = Static<typeof MetricSchema>;

export const CreateMetricBody = Type.Object({
  name: Name,
  kind: Kind,
  description: Type.Optional(Type.String({ maxLength: 2000 })),
  parameters: Type.Optional(Parameters),
  threshold: Type.Optional(Threshold),
  rubric: Type.Optional(Rubric),
  llm_configuration_id: Type.Optional(JudgeConfiguration),
});
export type CreateMetricInput = Static<typeof CreateMetricBody>;

export const UpdateMetricBody = Type.Partial(
  Type.Object({
    name: Name,
    description: Type.String({ maxLength: 2000 }),
    parameters: Parameters,
    threshold: Threshold,
    rubric: Rubric,
    llm_configuration_id: JudgeConfiguration,
  }),
  { description: 'Only the fields sent change; the kind stays (define another metric for another kind)' },
);
export type UpdateMetricInput = Static<typeof UpdateMetricBody>;

export const MetricParams = IdParams('metric_id');

export const ListMetricsQuery = (pageSizeMax: number) =>
  PageQuery(pageSizeMax, {
    builtin: Type.Optional(Type.Boolean({ description: 'true: the built-in metrics only; false: the organization’s own only' })),
    kind: Type.Optional(Kind),
  });

named('Metric', MetricSchema, {
  id: 18,
  name: 'Hit@3',
  description: 'An expected source among the three best documents',
  kind: 'hit_at_k',
  builtin: false,
  parameters: { k: 3 },
  threshold: 1,
  pass_when: 'at_least',
  unit: 'score',
  needs: 'expected_sources',
  rubric: null,
  llm_configuration_id: null,
  judge_prompt: null,
  available: true,
  created_on: '2026-11-23T10:15:30.123Z',
  created_by: 'owner@example.com',
  modified_on: '2026-11-23T10:15:30.123Z',
  modified_by: 'owner@example.com',
});

// Examples of the request bodies, shown in the OpenAPI document.
withExamples(
  CreateMetricBody,
  {
    name: 'Polite and cites a source',
    kind: 'custom_rubric',
    description: 'Judged by the model: politeness and a citation',
    rubric: 'Score 1 when the answer is polite and cites at least one passage, 0.5 when only one of the two holds, 0 otherwise.',
    threshold: 0.8,
  },
  { name: 'Mentions the returns form', kind: 'contains', parameters: { text: 'returns form', case_sensitive: false }, threshold: 1 },
);
withExamples(UpdateMetricBody, { threshold: 0.7 });
