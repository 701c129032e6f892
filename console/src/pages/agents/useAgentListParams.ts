// The agents list's view, search, filters and page live in the address (?view=starred&q=support&page=2),
// so that a filtered list can be shared, reloaded, and come back as it was after opening an agent.
import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import type { AgentStatus, PersonalList } from './agentQueries';

export type AgentListView = 'all' | PersonalList;

export interface AgentListParams {
  view: AgentListView;
  q: string;
  status?: AgentStatus;
  projectId?: number;
  teamId?: number;
  page: number;
}

const VIEWS: readonly AgentListView[] = ['all', 'starred', 'recent'];
const STATUSES: readonly AgentStatus[] = ['draft', 'active', 'inactive'];

function positiveInteger(text: string | null): number | undefined {
  if (text === null || !/^[1-9]\d{0,9}$/.test(text)) return undefined;
  return Number(text);
}

function parse(search: URLSearchParams): AgentListParams {
  const view = VIEWS.find((candidate) => candidate === search.get('view')) ?? 'all';
  const status = STATUSES.find((candidate) => candidate === search.get('status'));
  return {
    view,
    q: search.get('q') ?? '',
    status,
    projectId: positiveInteger(search.get('project')),
    teamId: positiveInteger(search.get('team')),
    page: positiveInteger(search.get('page')) ?? 1,
  };
}

function serialize(params: AgentListParams): URLSearchParams {
  const search = new URLSearchParams();
  if (params.view !== 'all') search.set('view', params.view);
  if (params.q !== '') search.set('q', params.q);
  if (params.status !== undefined) search.set('status', params.status);
  if (params.projectId !== undefined) search.set('project', String(params.projectId));
  if (params.teamId !== undefined) search.set('team', String(params.teamId));
  if (params.page > 1) search.set('page', String(params.page));
  return search;
}

/** The list's parameters, and a way to change some of them (any change but the page goes back to page 1). */
export function useAgentListParams(): [AgentListParams, (change: Partial<AgentListParams>) => void] {
  const [search, setSearch] = useSearchParams();
  const params = useMemo(() => parse(search), [search]);
  const change = useCallback(
    (update: Partial<AgentListParams>) => {
      setSearch(
        (current) => {
          const before = parse(current);
          const page = update.page ?? 1;
          return serialize({ ...before, ...update, page });
        },
        // Typing in the search box changes the address on every pause: one history entry, not one per word.
        { replace: update.q !== undefined },
      );
    },
    [setSearch],
  );
  return [params, change];
}
