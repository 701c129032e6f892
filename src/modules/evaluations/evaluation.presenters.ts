// What a read shows of datasets, queries, metrics, evaluations and their results: the fields of the
// schemas, nothing else (no organization ids, no internal columns).
import { KINDS, type MetricDefinition, type MetricKind, type ScoreSums, shownPrompt, summarize } from '../../evaluation/index.js';
import { fromNanoUsd } from '../analytics/usage-events.js';
import type { Citation } from '../chat/responses.schemas.js';
import type { DatasetRecord, QueryRecord } from './datasets.repo.js';
import type { DatasetQueryView, DatasetView } from './datasets.schemas.js';
import type { ResultWithScores } from './evaluation-results.repo.js';
import type { EvaluationRecord, ResultCounts } from './evaluations.repo.js';
import type { EvaluationView, MetricSummaryView, QueryResultView } from './evaluations.schemas.js';
import type { MetricRecord } from './metrics.repo.js';
import type { MetricView } from './metrics.schemas.js';

export function presentDataset(row: DatasetRecord): DatasetView {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    query_count: row.query_count,
    created_on: row.created_on,
    created_by: row.created_by_email,
    modified_on: row.modified_on,
    modified_by: row.modified_by_email,
  };
}

export function presentQuery(row: QueryRecord): DatasetQueryView {
  return {
    id: row.id,
    dataset_id: row.dataset_id,
    question: row.question,
    expected_answer: row.expected_answer,
    expected_sources: row.expected_sources,
    tags: row.tags,
    created_on: row.created_on,
    created_by: row.created_by_email,
    modified_on: row.modified_on,
    modified_by: row.modified_by_email,
  };
}

/** A stored metric as a definition an evaluation holds; built-in ones take their settings from the catalogue. */
export function definitionOf(row: MetricRecord): MetricDefinition {
  const kind = row.kind as MetricKind;
  const builtin = row.builtin === 1 ? KINDS[kind].builtin : undefined;
  return {
    id: row.id,
    name: row.name,
    kind,
    parameters: builtin ? builtin.parameters : (JSON.parse(row.parameters) as Record<string, unknown>),
    threshold: builtin ? builtin.threshold : row.threshold,
    rubric: row.rubric,
    llm_configuration_id: row.llm_configuration_id,
  };
}

export function presentMetric(row: MetricRecord, hasEmbedder: boolean): MetricView {
  const definition = definitionOf(row);
  const kind = KINDS[definition.kind];
  return {
    id: row.id,
    name: row.name,
    description: row.builtin === 1 ? kind.description : row.description || kind.description,
    kind: definition.kind,
    builtin: row.builtin === 1,
    parameters: definition.parameters,
    threshold: definition.threshold,
    pass_when: kind.passWhen,
    unit: kind.unit,
    needs: kind.needs,
    rubric: row.rubric,
    llm_configuration_id: row.llm_configuration_id,
    judge_prompt: kind.judge ? shownPrompt(kind.judge) : null,
    available: kind.needs !== 'embedder' || hasEmbedder,
    created_on: row.created_on,
    created_by: row.created_by_email,
    modified_on: row.modified_on,
    modified_by: row.modified_by_email,
  };
}

export function progressOf(counts: ResultCounts, total: number) {
  const answered = counts.completed + counts.blocked + counts.failed;
  return { total, answered, ...counts, percent: total === 0 ? 100 : Math.round((answered / total) * 1000) / 10 };
}

export function summaryOf(metric: MetricDefinition, sums: ScoreSums | undefined): MetricSummaryView {
  const empty: ScoreSums = { n: 0, sum: 0, sumOfSquares: 0, passed: 0, judged: 0, undetermined: 0, errors: 0 };
  return {
    metric_id: metric.id,
    name: metric.name,
    kind: metric.kind,
    threshold: metric.threshold,
    pass_when: KINDS[metric.kind].passWhen,
    ...summarize(sums ?? empty),
  };
}

export const metricsOf = (row: Pick<EvaluationRecord, 'metrics'>): MetricDefinition[] => JSON.parse(row.metrics) as MetricDefinition[];

export function presentEvaluation(row: EvaluationRecord, counts: ResultCounts, summary?: MetricSummaryView[]): EvaluationView {
  return {
    id: row.id,
    name: row.name,
    agent_id: row.agent_id,
    history_id: row.history_id,
    dataset_id: row.dataset_id,
    metrics: metricsOf(row).map((metric) => ({
      id: metric.id,
      name: metric.name,
      kind: metric.kind,
      threshold: metric.threshold,
      pass_when: KINDS[metric.kind].passWhen,
      llm_configuration_id: metric.llm_configuration_id,
    })),
    tags: row.tags,
    status: row.status,
    concurrency: row.concurrency,
    cost_budget_usd: row.cost_budget_usd,
    cost_usd: fromNanoUsd(row.spent_nano_usd),
    judge_llm_configuration_id: row.judge_llm_configuration_id,
    progress: progressOf(counts, row.total_queries),
    ...(summary === undefined ? {} : { summary }),
    error: row.error,
    started_on: row.started_on,
    finished_on: row.finished_on,
    created_on: row.created_on,
    created_by: row.created_by_email,
    modified_on: row.modified_on,
    modified_by: row.modified_by_email,
  };
}

const passedOf = (passed: number | null) => (passed === null ? null : passed === 1);

export function presentResult(row: ResultWithScores, names: Map<number, string>): QueryResultView {
  return {
    id: row.id,
    evaluation_id: row.evaluation_id,
    query_id: row.query_id,
    position: row.position,
    question: row.question,
    expected_answer: row.expected_answer,
    expected_sources: JSON.parse(row.expected_sources) as (number | string)[],
    status: row.status,
    answer: row.answer,
    error: row.error,
    citations: JSON.parse(row.citations) as Citation[],
    retrieved: JSON.parse(row.retrieved) as QueryResultView['retrieved'],
    model: row.model,
    tokens: { prompt: row.prompt_tokens, completion: row.completion_tokens, total: row.prompt_tokens + row.completion_tokens },
    cost: row.cost,
    judge_cost: row.judge_cost,
    latency_ms: row.latency_ms,
    answered_on: row.answered_on,
    scores: row.scores.map((score) => ({
      metric_id: score.metric_id,
      name: names.get(score.metric_id) ?? `Metric ${score.metric_id}`,
      status: score.status,
      score: score.score,
      passed: passedOf(score.passed),
      reason: score.reason,
    })),
  };
}

export { passedOf };
