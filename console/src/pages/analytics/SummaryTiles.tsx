// The period's headline figures (the summary route's totals and means), as a list a person scans.
import { useQuery } from '@tanstack/react-query';
import { ErrorNote } from '../../ui/Feedback';
import type { AnalyticsQuery } from './analyticsParams';
import { summaryQuery } from './analyticsQueries';
import { formatCount, formatUsd } from './figures';

export function SummaryTiles({ query }: { query: AnalyticsQuery }) {
  const { data, error } = useQuery(summaryQuery(query));
  if (error !== null) return <ErrorNote error={error} />;
  const totals = data?.totals;
  const tiles: [string, string][] = [
    ['Queries', totals === undefined ? '…' : formatCount(totals.queries)],
    ['Answered', totals === undefined ? '…' : formatCount(totals.completed)],
    ['Tokens', totals === undefined ? '…' : formatCount(totals.total_tokens)],
    ['Cost', totals === undefined ? '…' : formatUsd(totals.cost)],
    ['Votes up / down', totals === undefined ? '…' : `${formatCount(totals.up_votes)} / ${formatCount(totals.down_votes)}`],
    ['Documents added', totals === undefined ? '…' : formatCount(totals.documents)],
    ['Mean latency', data?.averages.latency_ms == null ? '—' : `${formatCount(Math.round(data.averages.latency_ms))} ms`],
    ['Mean rating', data?.averages.rating == null ? '—' : data.averages.rating.toFixed(1)],
  ];
  return (
    <section aria-label="Totals of the period" aria-busy={data === undefined}>
      <dl className="summary-tiles">
        {tiles.map(([label, value]) => (
          <div key={label} className="summary-tile">
            <dt>{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
