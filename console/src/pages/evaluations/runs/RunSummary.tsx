// A run's figures per metric: the mean of the scores with its 95% interval (the server's, Student's
// t), the pass rate where the metric has a threshold, how many were scored, and the results left out
// of the mean (undetermined, errors).
import type { MetricSummary } from '../evaluations-api';
import { formatInterval, formatPercent, formatScore } from '../format';

export function RunSummary({ summary }: { summary: MetricSummary[] }) {
  return (
    <section className="evaluations-section" aria-labelledby="summary-heading">
      <h2 id="summary-heading">Metrics</h2>
      <div className="table-wrap">
        <table className="plain cards">
          <thead>
            <tr>
              <th scope="col">Metric</th>
              <th scope="col">Mean</th>
              <th scope="col">95% interval</th>
              <th scope="col">Pass rate</th>
              <th scope="col">Scored</th>
              <th scope="col">Undetermined</th>
              <th scope="col">Errors</th>
            </tr>
          </thead>
          <tbody>
            {summary.map((metric) => (
              <tr key={metric.metric_id}>
                <th scope="row">{metric.name}</th>
                <td data-label="Mean">{formatScore(metric.mean)}</td>
                <td data-label="95% interval">{formatInterval(metric.ci_low, metric.ci_high)}</td>
                <td data-label="Pass rate">{metric.threshold === null || metric.n === 0 ? '—' : `${formatPercent(metric.pass_rate)} (${metric.passed} of ${metric.n})`}</td>
                <td data-label="Scored">{metric.n}</td>
                <td data-label="Undetermined">{metric.undetermined}</td>
                <td data-label="Errors">{metric.errors}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
