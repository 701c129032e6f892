// The chat logs' filters, kept in the address (?agent=3&user=7&vote=down&from=…&to=…&page=2) so that
// a reload, a shared link and Back show the same rows; and the API's query for them.
import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { addDays, todayIn } from '../analytics/analyticsParams';

export type VoteFilter = 'up' | 'down';

export interface LogView {
  agentId?: number;
  userId?: number;
  vote?: VoteFilter;
  /** First and last day asked at (YYYY-MM-DD on the browser's clock, both included); empty: no bound. */
  from: string;
  to: string;
  page: number;
}

/** Without a range the log opens on its last 30 days: the whole log of a busy organization is long. */
export const DEFAULT_DAYS = 30;

const positive = (text: string | null) => {
  const value = Number(text);
  return Number.isInteger(value) && value > 0 ? value : undefined;
};

export function logViewOf(params: URLSearchParams): LogView {
  const vote = params.get('vote');
  return {
    agentId: positive(params.get('agent')),
    userId: positive(params.get('user')),
    vote: vote === 'up' || vote === 'down' ? vote : undefined,
    from: params.get('from') ?? addDays(todayIn(Intl.DateTimeFormat().resolvedOptions().timeZone), 1 - DEFAULT_DAYS),
    to: params.get('to') ?? '',
    page: positive(params.get('page')) ?? 1,
  };
}

/** The start of a day on the browser's clock, as an instant. */
const startOfDay = (day: string) => new Date(`${day}T00:00:00`).toISOString();

/** The filters of GET /api/v2/chat-logs (the last day included whole: `to` is the next day's start). */
export function logQueryOf(view: LogView) {
  return {
    ...(view.agentId === undefined ? {} : { agent_id: view.agentId }),
    ...(view.userId === undefined ? {} : { user_id: view.userId }),
    ...(view.vote === undefined ? {} : { vote: view.vote }),
    ...(view.from === '' ? {} : { from: startOfDay(view.from) }),
    ...(view.to === '' ? {} : { to: startOfDay(addDays(view.to, 1)) }),
  };
}

export type LogQuery = ReturnType<typeof logQueryOf>;

/** The address of the log's CSV, with the filters shown: a plain download, the session cookie sent. */
export function csvAddress(query: LogQuery): string {
  const params = new URLSearchParams(Object.entries(query).map(([name, value]) => [name, String(value)]));
  params.set('format', 'csv');
  return `/api/v2/chat-logs?${params.toString()}`;
}

export function useLogView() {
  const [params, setParams] = useSearchParams();
  const view = useMemo(() => logViewOf(params), [params]);
  const change = useCallback(
    (next: Partial<LogView>) => {
      // Any new filter starts again at the first page.
      const merged: LogView = { ...view, page: 1, ...next };
      const out = new URLSearchParams();
      if (merged.agentId !== undefined) out.set('agent', String(merged.agentId));
      if (merged.userId !== undefined) out.set('user', String(merged.userId));
      if (merged.vote !== undefined) out.set('vote', merged.vote);
      out.set('from', merged.from);
      if (merged.to !== '') out.set('to', merged.to);
      if (merged.page > 1) out.set('page', String(merged.page));
      setParams(out);
    },
    [view, setParams],
  );
  return { view, change };
}
