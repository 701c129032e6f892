// The summary of a metric over an evaluation's queries: the mean of the scores that are `ok` with a
// 95% confidence interval (Student's t, so that a few queries give the wide interval they deserve),
// and the pass rate where the metric has a threshold. Undetermined results and errors are counted
// beside, never averaged in.

/** Student's t quantile 0.975 for 1..30 degrees of freedom (beyond: the Cornish-Fisher expansion). */
const T_975 = [
  12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.16, 2.145, 2.131, 2.12, 2.11, 2.101, 2.093, 2.086, 2.08, 2.074,
  2.069, 2.064, 2.06, 2.056, 2.052, 2.048, 2.045, 2.042,
];
const Z_975 = 1.959964;

export function tQuantile975(degreesOfFreedom: number): number {
  if (degreesOfFreedom < 1) return Number.NaN;
  if (degreesOfFreedom <= T_975.length) return T_975[Math.floor(degreesOfFreedom) - 1]!;
  const z = Z_975;
  const n = degreesOfFreedom;
  return (
    z +
    (z ** 3 + z) / (4 * n) +
    (5 * z ** 5 + 16 * z ** 3 + 3 * z) / (96 * n ** 2) +
    (3 * z ** 7 + 19 * z ** 5 + 17 * z ** 3 - 15 * z) / (384 * n ** 3)
  );
}

/** Sums a database can keep per metric (count, sum, sum of squares), so that a summary needs no row of scores. */
export interface ScoreSums {
  /** Results with a score. */
  n: number;
  sum: number;
  sumOfSquares: number;
  /** Of those with a score, how many passed and how many were judged against a threshold. */
  passed: number;
  judged: number;
  undetermined: number;
  errors: number;
}

export interface MetricSummary {
  n: number;
  mean: number | null;
  std_dev: number | null;
  /** 95% confidence interval of the mean; null with fewer than two scores. */
  ci_low: number | null;
  ci_high: number | null;
  /** Passed / judged against the threshold; null without a threshold or scores. */
  pass_rate: number | null;
  passed: number;
  undetermined: number;
  errors: number;
}

const round = (value: number) => Math.round(value * 1e6) / 1e6;

export function summarize(sums: ScoreSums): MetricSummary {
  const { n } = sums;
  const counts = { n, passed: sums.passed, undetermined: sums.undetermined, errors: sums.errors };
  const passRate = sums.judged > 0 ? round(sums.passed / sums.judged) : null;
  if (n === 0) return { ...counts, mean: null, std_dev: null, ci_low: null, ci_high: null, pass_rate: passRate };
  const mean = sums.sum / n;
  if (n === 1) return { ...counts, mean: round(mean), std_dev: null, ci_low: null, ci_high: null, pass_rate: passRate };
  // The sample variance from the sums; rounding may leave it a hair below zero when every score is equal.
  const variance = Math.max(0, (sums.sumOfSquares - n * mean * mean) / (n - 1));
  const stdDev = Math.sqrt(variance);
  const margin = (tQuantile975(n - 1) * stdDev) / Math.sqrt(n);
  return { ...counts, mean: round(mean), std_dev: round(stdDev), ci_low: round(mean - margin), ci_high: round(mean + margin), pass_rate: passRate };
}

/** The sums of a list of outcomes, for tests and for summaries made in memory. */
export function sumScores(results: readonly { status: string; score: number | null; passed: boolean | null }[]): ScoreSums {
  const sums: ScoreSums = { n: 0, sum: 0, sumOfSquares: 0, passed: 0, judged: 0, undetermined: 0, errors: 0 };
  for (const result of results) {
    if (result.status === 'undetermined') sums.undetermined++;
    else if (result.status === 'error') sums.errors++;
    else if (result.score !== null) {
      sums.n++;
      sums.sum += result.score;
      sums.sumOfSquares += result.score * result.score;
      if (result.passed !== null) {
        sums.judged++;
        if (result.passed) sums.passed++;
      }
    }
  }
  return sums;
}
