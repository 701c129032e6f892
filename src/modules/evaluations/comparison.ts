// Two or more evaluations side by side: each metric's summary in each, with the change of its mean
// from the first (the baseline), and each query paired across them — by the dataset query it
// answers, or by its question where the evaluations asked different datasets — marked by what
// changed against the baseline. Queries that went from pass to fail come first: they are what a
// change of an agent broke.
import type { MetricDefinition } from '../../evaluation/index.js';
import { pageOf, type PageRequest } from '../../pagination.js';
import type { EvaluationResultsRepo } from './evaluation-results.repo.js';
import { passedOf } from './evaluation.presenters.js';
import type { ComparisonView, MetricSummaryView } from './evaluations.schemas.js';

type ResultOf = Awaited<ReturnType<EvaluationResultsRepo['allOf']>>[number];
type PairedQuery = ComparisonView['queries']['items'][number];

const CHANGE_ORDER = { regression: 0, improvement: 1, changed: 2, same: 3 } as const;

export function compareMetrics(metricsByEvaluation: MetricDefinition[][], summaries: Map<number, MetricSummaryView>[]): ComparisonView['metrics'] {
  const metrics = new Map<number, MetricDefinition>();
  for (const list of metricsByEvaluation) for (const metric of list) if (!metrics.has(metric.id)) metrics.set(metric.id, metric);
  return [...metrics.values()].map((metric) => {
    const row = summaries.map((summary) => summary.get(metric.id) ?? null);
    const baseline = row[0]?.mean ?? null;
    return {
      metric_id: metric.id,
      name: metric.name,
      kind: metric.kind,
      summaries: row,
      mean_deltas: row.map((summary) => (summary?.mean == null || baseline === null ? null : Math.round((summary.mean - baseline) * 1e6) / 1e6)),
    };
  });
}

const keyOf = (result: ResultOf) => (result.query_id !== null ? `q${result.query_id}` : `t${result.question}`);

/** The paired queries, regressions first, then improvements, changes and the rest, each in the baseline's order. */
export function pairQueries(evaluationIds: number[], results: ResultOf[], metricNames: Map<number, string>, page: PageRequest): ComparisonView['queries'] {
  const byKey = new Map<string, Map<number, ResultOf>>();
  const order: string[] = [];
  for (const result of results) {
    const key = keyOf(result);
    if (!byKey.has(key)) {
      byKey.set(key, new Map());
      order.push(key);
    }
    byKey.get(key)!.set(result.evaluation_id, result);
  }
  const paired = order.map((key, index) => ({ index, query: pairedQuery(evaluationIds, byKey.get(key)!, metricNames) }));
  paired.sort((a, b) => CHANGE_ORDER[a.query.change] - CHANGE_ORDER[b.query.change] || a.index - b.index);
  return pageOf(
    paired.map((entry) => entry.query),
    page,
  );
}

function pairedQuery(evaluationIds: number[], results: Map<number, ResultOf>, metricNames: Map<number, string>): PairedQuery {
  const first = [...results.values()][0]!;
  const baseline = results.get(evaluationIds[0]!);
  const regressions = new Set<string>();
  const improvements = new Set<string>();
  let moved = false;
  for (const id of evaluationIds.slice(1)) {
    const other = results.get(id);
    if (!baseline || !other) continue;
    if (baseline.status !== other.status) moved = true;
    for (const before of baseline.scores) {
      const after = other.scores.find((score) => score.metric_id === before.metric_id);
      if (!after) continue;
      const name = metricNames.get(before.metric_id) ?? `Metric ${before.metric_id}`;
      if (before.passed === 1 && after.passed === 0) regressions.add(name);
      if (before.passed === 0 && after.passed === 1) improvements.add(name);
      if (before.status !== after.status || before.score !== after.score) moved = true;
    }
  }
  const change = regressions.size > 0 ? 'regression' : improvements.size > 0 ? 'improvement' : moved ? 'changed' : 'same';
  return {
    query_id: first.query_id,
    question: first.question,
    change,
    regressions: [...regressions],
    improvements: [...improvements],
    results: evaluationIds.map((id) => {
      const result = results.get(id);
      return {
        evaluation_id: id,
        query_result_id: result?.id ?? null,
        status: result?.status ?? null,
        scores: (result?.scores ?? []).map((score) => ({ metric_id: score.metric_id, status: score.status, score: score.score, passed: passedOf(score.passed) })),
      };
    }),
  };
}
