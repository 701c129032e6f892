// The change of a metric's mean between two runs, with its 95% interval, from the queries both runs
// scored: a paired Student's t interval on the per-query differences, with the server's own t
// quantile (src/evaluation/statistics.ts, a module without imports). The comparison API gives each
// run's interval and the change of the means, not an interval of the change; pairing by query
// removes the spread between questions, which two separate intervals would count twice.
import { tQuantile975 } from '../../../../src/evaluation/statistics.js';

export interface PairedChange {
  /** Queries scored by both runs. */
  n: number;
  /** Mean of (other − baseline) over those queries. */
  mean: number;
  /** 95% interval of that mean; null with fewer than two pairs. */
  low: number | null;
  high: number | null;
}

/** The paired change of `pairs` ([baseline, other] scores of one query each); null without a pair. */
export function pairedChange(pairs: readonly (readonly [number, number])[]): PairedChange | null {
  const n = pairs.length;
  if (n === 0) return null;
  const differences = pairs.map(([baseline, other]) => other - baseline);
  const mean = differences.reduce((sum, value) => sum + value, 0) / n;
  if (n < 2) return { n, mean, low: null, high: null };
  const variance = differences.reduce((sum, value) => sum + (value - mean) ** 2, 0) / (n - 1);
  const half = tQuantile975(n - 1) * Math.sqrt(variance / n);
  return { n, mean, low: mean - half, high: mean + half };
}
