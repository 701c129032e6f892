// One analytics route over the period: its chart, its table of figures and their CSV.
import { useQuery } from '@tanstack/react-query';
import type { AnalyticsQuery } from './analyticsParams';
import { seriesQuery, type SeriesData } from './analyticsQueries';
import { ChartCard, type FigureTable } from './ChartCard';
import { axisLabel, headlineTotal, pointLabel, type ChartSpec } from './figures';
import { csvFileName, csvText, downloadCsv } from './figuresCsv';
import { SeriesChart } from './SeriesChart';

const INTERVAL_WORDS = { hour: 'hour', day: 'day', week: 'week', month: 'month' } as const;

/** The sentence a screen reader hears for the drawing. */
function describe(spec: ChartSpec, data: SeriesData): string {
  const total = headlineTotal(spec, data.totals);
  const busiest = data.points.reduce<SeriesData['points'][number] | undefined>(
    (best, point) => (best === undefined || headlineTotal(spec, point) > headlineTotal(spec, best) ? point : best),
    undefined,
  );
  const parts = [`${spec.title} per ${INTERVAL_WORDS[data.interval]}, ${data.points.length} points: ${`${spec.format(total)} ${spec.unit}`.trim()} in total`];
  if (busiest !== undefined && total > 0) parts.push(`the most in the ${INTERVAL_WORDS[data.interval]} of ${pointLabel(busiest.start, data.interval, data.timezone)} (${spec.format(headlineTotal(spec, busiest))})`);
  return `${parts.join(', ')}. The table of figures gives each point.`;
}

function tableOf(spec: ChartSpec, data: SeriesData): FigureTable {
  return {
    columns: ['Period', ...spec.figures.map((figure) => figure.label)],
    rows: data.points.map((point) => [pointLabel(point.start, data.interval, data.timezone), ...spec.figures.map((figure) => spec.format(point[figure.key] ?? 0))]),
    footer: ['Total', ...spec.figures.map((figure) => spec.format(data.totals[figure.key] ?? 0))],
  };
}

/** Every figure of the route's points, by the API's own names, as in its answer. */
function csvOf(spec: ChartSpec, data: SeriesData): string {
  const keys = Object.keys(data.totals);
  return csvText(['start', ...keys], data.points.map((point) => [point.start, ...keys.map((key) => point[key] ?? 0)]));
}

export function SeriesCard({ spec, query }: { spec: ChartSpec; query: AnalyticsQuery }) {
  const { data, isPending, error } = useQuery(seriesQuery(spec.route, query));
  const rows = data?.points.map((point) => ({ ...point, label: axisLabel(point.start, data.interval, data.timezone) })) ?? [];
  return (
    <ChartCard
      title={spec.title}
      headline={data === undefined ? undefined : `${spec.format(headlineTotal(spec, data.totals))} ${spec.unit}`.trim()}
      description={data === undefined ? undefined : describe(spec, data)}
      isPending={isPending}
      error={error}
      chart={data === undefined ? undefined : <SeriesChart kind={spec.kind} rows={rows} figures={spec.figures} format={spec.format} />}
      table={data === undefined ? undefined : tableOf(spec, data)}
      onDownload={data === undefined ? undefined : () => downloadCsv(csvFileName(spec.route, data), csvOf(spec, data))}
    />
  );
}
