// Each metric of a comparison of two runs, with the paired change of its mean computed from the
// queries both runs scored (paired-interval.ts), beside what the API gives (each run's summary and
// the change of the means).
import type { Comparison, MetricSummary } from '../evaluations-api';
import { pairedChange, type PairedChange } from '../paired-interval';

export interface ComparedMetric {
  metricId: number;
  name: string;
  baseline: MetricSummary | null;
  other: MetricSummary | null;
  /** The API's change of the means (each over all its own scores). */
  meanDelta: number | null;
  /** Over the queries both runs scored. */
  paired: PairedChange | null;
}

export function compareMetrics(comparison: Comparison): ComparedMetric[] {
  return comparison.metrics.map((metric) => {
    const pairs: [number, number][] = [];
    for (const query of comparison.queries.items) {
      const [before, after] = query.results.map((result) => result.scores.find((score) => score.metric_id === metric.metric_id));
      if (before?.status === 'ok' && after?.status === 'ok' && before.score !== null && after.score !== null) pairs.push([before.score, after.score]);
    }
    return {
      metricId: metric.metric_id,
      name: metric.name,
      baseline: metric.summaries[0] ?? null,
      other: metric.summaries[1] ?? null,
      meanDelta: metric.mean_deltas[1] ?? null,
      paired: pairedChange(pairs),
    };
  });
}
