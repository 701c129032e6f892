// The analytics routes as TanStack Query options: one read per chart, cached by its query (so Back
// to a period seen shows it at once). Every series answer is `{ interval, points: [{ start, … }], totals }`.
import { queryOptions } from '@tanstack/react-query';
import { api, type Schemas } from '../../api/client';
import { unwrap } from '../../api/errors';
import type { AnalyticsQuery, Ranking } from './analyticsParams';

export const SERIES_ROUTES = ['query-count', 'tokens', 'cost', 'votes', 'document-count', 'indexing-mode'] as const;
export type SeriesRoute = (typeof SERIES_ROUTES)[number];

/** A series answer read loosely: its figures by name, whatever the route. */
export interface SeriesData {
  scope: string;
  scope_id: number | null;
  from: string;
  to: string;
  interval: AnalyticsQuery['interval'];
  timezone: string;
  points: ({ start: string } & Record<string, number>)[];
  totals: Record<string, number>;
}

export type SummaryData = Schemas['AnalyticsSummary'];
export type MostActiveData = Schemas['AnalyticsMostActive'];

/** Every field of a point but `start` is a count or a sum (the schemas say so): read them by name. */
const loosely = (data: { points: { start: string }[] }) => data as unknown as SeriesData;

async function readSeries(route: SeriesRoute, query: AnalyticsQuery): Promise<SeriesData> {
  const params = { params: { query } };
  switch (route) {
    case 'query-count':
      return loosely((await unwrap(api.GET('/api/v2/analytics/query-count', params))).data);
    case 'tokens':
      return loosely((await unwrap(api.GET('/api/v2/analytics/tokens', params))).data);
    case 'cost':
      return loosely((await unwrap(api.GET('/api/v2/analytics/cost', params))).data);
    case 'votes':
      return loosely((await unwrap(api.GET('/api/v2/analytics/votes', params))).data);
    case 'document-count':
      return loosely((await unwrap(api.GET('/api/v2/analytics/document-count', params))).data);
    case 'indexing-mode':
      return loosely((await unwrap(api.GET('/api/v2/analytics/indexing-mode', params))).data);
  }
}

// Figures of the past change little while one looks at them: kept fresh for a minute.
const STALE_MS = 60_000;

export const seriesQuery = (route: SeriesRoute, query: AnalyticsQuery) =>
  queryOptions({ queryKey: ['analytics', route, query] as const, queryFn: () => readSeries(route, query), staleTime: STALE_MS, retry: false });

export const summaryQuery = (query: AnalyticsQuery) =>
  queryOptions({
    queryKey: ['analytics', 'summary', query] as const,
    queryFn: async (): Promise<SummaryData> => (await unwrap(api.GET('/api/v2/analytics/summary', { params: { query } }))).data,
    staleTime: STALE_MS,
    retry: false,
  });

/** The ten most active agents, users, corpora or projects. */
export const mostActiveQuery = (query: AnalyticsQuery, entity: Ranking) =>
  queryOptions({
    queryKey: ['analytics', 'most-active', entity, query] as const,
    queryFn: async (): Promise<MostActiveData> => (await unwrap(api.GET('/api/v2/analytics/most-active', { params: { query: { ...query, entity, limit: 10 } } }))).data,
    staleTime: STALE_MS,
    retry: false,
  });
