// What the analytics page shows, kept in the address (?period=30d&interval=day&agent=12) so that a
// reload, a shared link and Back show the same figures: the period (a preset or a custom range of
// days), the length of a point, the one agent, corpus, project, team or user the figures are about
// (none: the whole organization), and what the ranking ranks.
import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';

export const PERIODS = ['24h', '7d', '30d', '90d', '12m', 'custom'] as const;
export type Period = (typeof PERIODS)[number];
export const PERIOD_LABELS: Record<Period, string> = {
  '24h': 'Last 24 hours',
  '7d': 'Last 7 days',
  '30d': 'Last 30 days',
  '90d': 'Last 90 days',
  '12m': 'Last 12 months',
  custom: 'Custom range',
};

export const INTERVALS = ['hour', 'day', 'week', 'month'] as const;
export type Interval = (typeof INTERVALS)[number];
/** The length of a point each period reads best at (at most 2,500 points, the API's bound). */
const DEFAULT_INTERVAL: Record<Period, Interval> = { '24h': 'hour', '7d': 'day', '30d': 'day', '90d': 'week', '12m': 'month', custom: 'day' };

export const SCOPE_KINDS = ['agent', 'corpus', 'project', 'team', 'user'] as const;
export type ScopeKind = (typeof SCOPE_KINDS)[number];
export type Scope = { kind: 'overall' } | { kind: ScopeKind; id: number };

export const RANKINGS = ['agents', 'users', 'corpora', 'projects'] as const;
export type Ranking = (typeof RANKINGS)[number];

export interface AnalyticsView {
  period: Period;
  /** Custom range: the first and the last day shown (YYYY-MM-DD, both included). */
  from: string;
  to: string;
  interval: Interval;
  scope: Scope;
  /** The whole organization asked for by name (?scope=overall), not by default. */
  explicitOverall: boolean;
  ranking: Ranking;
}

/** The query every analytics route takes. */
export interface AnalyticsQuery {
  scope: 'overall' | ScopeKind;
  scope_id?: number;
  from: string;
  to?: string;
  interval: Interval;
  timezone: string;
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const oneOf = <T extends string>(values: readonly T[], value: string | null): T | undefined => values.find((candidate) => candidate === value);

export const browserTimeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

/** Today on the time zone's clock, as YYYY-MM-DD. */
export function todayIn(timeZone: string, at = new Date()): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(at);
}

/** The day `days` after (or before, when negative) a YYYY-MM-DD day. */
export function addDays(day: string, days: number): string {
  const [year, month, date] = day.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(year, month - 1, date + days)).toISOString().slice(0, 10);
}

/** The first day of the month `months` before the day's month. */
function firstOfMonthBefore(day: string, months: number): string {
  const [year, month] = day.split('-').map(Number) as [number, number];
  return new Date(Date.UTC(year, month - 1 - months, 1)).toISOString().slice(0, 10);
}

function scopeOf(params: URLSearchParams): Scope {
  for (const kind of SCOPE_KINDS) {
    const id = Number(params.get(kind));
    if (Number.isInteger(id) && id > 0) return { kind, id };
  }
  return { kind: 'overall' };
}

export function viewOf(params: URLSearchParams, timeZone: string): AnalyticsView {
  const period = oneOf(PERIODS, params.get('period')) ?? '30d';
  const today = todayIn(timeZone);
  const from = params.get('from') ?? '';
  const to = params.get('to') ?? '';
  return {
    period,
    from: DATE.test(from) ? from : addDays(today, -29),
    to: DATE.test(to) ? to : today,
    interval: oneOf(INTERVALS, params.get('interval')) ?? DEFAULT_INTERVAL[period],
    scope: scopeOf(params),
    explicitOverall: params.get('scope') === 'overall',
    ranking: oneOf(RANKINGS, params.get('rank')) ?? 'agents',
  };
}

/** The range and points the view asks for, on the time zone's clock. */
export function queryOf(view: AnalyticsView, timeZone: string, now = new Date()): AnalyticsQuery {
  const scope = view.scope.kind === 'overall' ? { scope: 'overall' as const } : { scope: view.scope.kind, scope_id: view.scope.id };
  const base = { ...scope, interval: view.interval, timezone: timeZone };
  const today = todayIn(timeZone, now);
  switch (view.period) {
    case '24h': {
      // From the start of the hour a day ago: the query stays the same for an hour (and is cached so).
      const hour = new Date(now.getTime() - 86_400_000);
      hour.setUTCMinutes(0, 0, 0);
      return { ...base, from: hour.toISOString() };
    }
    case '7d':
      return { ...base, from: addDays(today, -6) };
    case '30d':
      return { ...base, from: addDays(today, -29) };
    case '90d':
      return { ...base, from: addDays(today, -89) };
    case '12m':
      return { ...base, from: firstOfMonthBefore(today, 11) };
    case 'custom':
      // `to` a date means the end of that day: the last day is shown whole.
      return { ...base, from: view.from <= view.to ? view.from : view.to, to: view.from <= view.to ? view.to : view.from };
  }
}

/** The view in the address, and a way to change part of it (a new entry in the history, so Back undoes it). */
export function useAnalyticsView(timeZone: string) {
  const [params, setParams] = useSearchParams();
  const view = useMemo(() => viewOf(params, timeZone), [params, timeZone]);
  const change = useCallback(
    (next: Partial<AnalyticsView>) => {
      const merged = { ...view, ...next };
      // A new period takes its own length of point unless one is chosen with it.
      if (next.period !== undefined && next.interval === undefined) merged.interval = DEFAULT_INTERVAL[merged.period];
      const out = new URLSearchParams();
      out.set('period', merged.period);
      if (merged.period === 'custom') {
        out.set('from', merged.from);
        out.set('to', merged.to);
      }
      if (merged.interval !== DEFAULT_INTERVAL[merged.period]) out.set('interval', merged.interval);
      if (merged.scope.kind !== 'overall') out.set(merged.scope.kind, String(merged.scope.id));
      else if (next.scope !== undefined || view.explicitOverall) out.set('scope', 'overall');
      if (merged.ranking !== 'agents') out.set('rank', merged.ranking);
      setParams(out);
    },
    [view, setParams],
  );
  return { view, change };
}
