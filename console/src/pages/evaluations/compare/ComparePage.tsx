// Two runs side by side (?ids=baseline,compared): per metric each run's mean with its interval, the
// change of the mean with its paired 95% interval; then each query, those that got worse or better
// first (the API's order), with both runs' verdicts.
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { Empty, ErrorNote, Loading } from '../../../ui/Feedback';
import { PageHeader } from '../../../ui/PageHeader';
import { Pager } from '../../../ui/Pager';
import { SelectField } from '../../../ui/SelectField';
import { comparisonQuery, PAGE_SIZE, runChoicesQuery, type ComparedQuery, type Comparison } from '../evaluations-api';
import { formatChange, formatDate, formatInterval, formatScore } from '../format';
import { Verdict } from '../runs/Verdict';
import { compareMetrics, type ComparedMetric } from './compare-metrics';

function idsOf(value: string | null): number[] {
  return (value ?? '')
    .split(',')
    .map(Number)
    .filter((id) => Number.isSafeInteger(id) && id > 0)
    .slice(0, 2);
}

export default function ComparePage() {
  const [params, setParams] = useSearchParams();
  const ids = idsOf(params.get('ids'));
  const [baseline, other] = [ids[0] ?? null, ids[1] ?? null];
  const runs = useQuery(runChoicesQuery());
  const comparison = useQuery(comparisonQuery(ids));
  const choose = (next: [number | null, number | null]) => setParams({ ids: next.filter((id) => id !== null).join(',') }, { replace: true });
  const options = (runs.data ?? []).map((run) => ({ id: run.id, label: run.name, detail: `${run.status} · ${formatDate(run.created_on)}` }));
  return (
    <>
      <PageHeader title="Compare runs" description="Two runs of one dataset side by side: what changed for each metric, and which queries got worse or better." />
      <div className="compare-pickers">
        <SelectField label="Baseline run" options={options} value={baseline} onChange={(id) => choose([id, other === id ? null : other])} placeholder="Choose a run" />
        <SelectField label="Compared run" options={options.filter((option) => option.id !== baseline)} value={other} onChange={(id) => choose([baseline, id])} placeholder="Choose a run" isDisabled={baseline === null} />
      </div>
      <ErrorNote error={runs.error ?? comparison.error} title="The comparison could not be loaded." />
      {ids.length === 2 && comparison.isPending && <Loading label="Comparing…" />}
      {comparison.data !== undefined && <ComparisonView comparison={comparison.data} />}
    </>
  );
}

/** Green for a gain, red for a loss: a rise where more is better, a fall where less is (latency, cost, length). */
function toneOf(metric: ComparedMetric): string | undefined {
  if (metric.meanDelta === null || metric.meanDelta === 0) return undefined;
  const lessIsBetter = (metric.baseline ?? metric.other)?.pass_when === 'at_most';
  return metric.meanDelta > 0 !== lessIsBetter ? 'score-ok' : 'score-fail';
}

function ComparisonView({ comparison }: { comparison: Comparison }) {
  const [baseline, other] = comparison.evaluations;
  const metrics = compareMetrics(comparison);
  return (
    <>
      <section className="evaluations-section" aria-labelledby="metric-changes">
        <h2 id="metric-changes">Metrics</h2>
        <div className="table-wrap">
          <table className="plain cards">
            <thead>
              <tr>
                <th scope="col">Metric</th>
                <th scope="col">Baseline: {baseline?.name}</th>
                <th scope="col">Compared: {other?.name}</th>
                <th scope="col">Change of the mean</th>
                <th scope="col">95% interval of the change</th>
              </tr>
            </thead>
            <tbody>
              {metrics.map((metric) => (
                <tr key={metric.metricId}>
                  <th scope="row">{metric.name}</th>
                  <td data-label="Baseline">
                    {formatScore(metric.baseline?.mean)} <span className="muted text-small">({formatInterval(metric.baseline?.ci_low, metric.baseline?.ci_high)})</span>
                  </td>
                  <td data-label="Compared">
                    {formatScore(metric.other?.mean)} <span className="muted text-small">({formatInterval(metric.other?.ci_low, metric.other?.ci_high)})</span>
                  </td>
                  <td data-label="Change of the mean">
                    <strong className={toneOf(metric)}>{formatChange(metric.meanDelta)}</strong>
                  </td>
                  <td data-label="95% interval of the change">
                    {metric.paired === null ? '—' : `${formatInterval(metric.paired.low, metric.paired.high, formatChange)}`}
                    {metric.paired !== null && <span className="muted text-small text-block">over {metric.paired.n} paired {metric.paired.n === 1 ? 'query' : 'queries'}</span>}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        <p className="muted text-small">
          Each run’s mean with its own 95% interval in brackets. The interval of the change is worked out in this page from the queries both runs scored (a paired t
          interval of the differences); an interval that does not hold 0 is a change beyond chance. For a measure where less is better (latency, cost, length) a fall is the gain.
        </p>
      </section>
      <ComparedQueries comparison={comparison} />
    </>
  );
}

const CHANGE_LABELS: Record<ComparedQuery['change'], { label: string; className: string }> = {
  regression: { label: 'Worse', className: 'badge change-worse' },
  improvement: { label: 'Better', className: 'badge change-better' },
  changed: { label: 'Changed', className: 'badge' },
  same: { label: 'Same', className: 'badge' },
};

function ComparedQueries({ comparison }: { comparison: Comparison }) {
  const [page, setPage] = useState(1);
  const queries = comparison.queries.items;
  const shown = queries.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE);
  const worse = queries.filter((query) => query.change === 'regression').length;
  const better = queries.filter((query) => query.change === 'improvement').length;
  const names = new Map(comparison.metrics.map((metric) => [metric.metric_id, metric.name]));
  const [baseline, other] = comparison.evaluations;
  return (
    <section className="evaluations-section" aria-labelledby="query-changes">
      <h2 id="query-changes">Queries</h2>
      <p>
        {worse} got worse, {better} got better (a metric went from pass to fail, or from fail to pass); they are listed first.
      </p>
      {comparison.queries.total > queries.length && (
        <p className="note note-info">
          The first {queries.length} of {comparison.queries.total} queries are shown here and counted in the intervals above.
        </p>
      )}
      {queries.length === 0 ? (
        <Empty>The two runs have no query in common.</Empty>
      ) : (
        <>
          <div className="table-wrap">
            <table className="plain cards">
              <thead>
                <tr>
                  <th scope="col">Change</th>
                  <th scope="col">Question</th>
                  <th scope="col">
                    Baseline: <Link to={`/evaluations/runs/${baseline?.id}`}>{baseline?.name}</Link>
                  </th>
                  <th scope="col">
                    Compared: <Link to={`/evaluations/runs/${other?.id}`}>{other?.name}</Link>
                  </th>
                </tr>
              </thead>
              <tbody>
                {shown.map((query) => (
                  <tr key={`${query.query_id ?? ''}-${query.question}`}>
                    <td data-label="Change">
                      <span className={CHANGE_LABELS[query.change].className}>{CHANGE_LABELS[query.change].label}</span>
                      {query.regressions.length > 0 && <span className="text-small text-block">Failed now: {query.regressions.join(', ')}</span>}
                      {query.improvements.length > 0 && <span className="text-small text-block">Passes now: {query.improvements.join(', ')}</span>}
                    </td>
                    <th scope="row" className="cell-text">
                      {query.question}
                    </th>
                    {query.results.map((result, index) => (
                      <td key={result.evaluation_id} data-label={index === 0 ? 'Baseline' : 'Compared'}>
                        {result.query_result_id === null ? (
                          <span className="muted">Not asked</span>
                        ) : (
                          <ul className="verdicts">
                            {result.scores.map((score) => (
                              <li key={score.metric_id}>
                                {names.get(score.metric_id) ?? `Metric ${score.metric_id}`}: <Verdict score={score} />
                              </li>
                            ))}
                          </ul>
                        )}
                      </td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <Pager page={page} pageSize={PAGE_SIZE} total={queries.length} nouns={['query', 'queries']} onPage={setPage} />
        </>
      )}
    </section>
  );
}
