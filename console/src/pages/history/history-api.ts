// The reads and writes of the history pages, on the agent's history routes (docs/api.md "History,
// checkpoints and restore"). Their query keys start with 'history' so they never meet another page's
// cache entries of a different shape; the agent and what the caller may do with it are the reads the
// agent's other pages share (api/queries.ts).
import { keepPreviousData, useQuery, type QueryClient } from '@tanstack/react-query';
import { api, type Schemas } from '../../api/client';
import { unwrap } from '../../api/errors';
import { agentAbilitiesQuery, agentQuery } from '../../api/queries';

export type HistoryRecord = Schemas['AgentHistoryRecord'];
export type HistoryRecordDetail = Schemas['AgentHistoryRecordDetail'];
export type Snapshot = HistoryRecordDetail['snapshot'];

export const HISTORY_PAGE_SIZE = 20;

export const historyKeys = {
  pages: (agentId: number) => ['history', 'records', agentId] as const,
  page: (agentId: number, page: number, pageSize: number) => ['history', 'records', agentId, page, pageSize] as const,
  /** A record's snapshot never changes: kept apart from the lists, which a restore refreshes. */
  record: (agentId: number, historyId: number) => ['history', 'record', agentId, historyId] as const,
};

export const useAgent = (agentId: number) => useQuery(agentQuery(agentId));

/** Whether the signed-in user may change (so checkpoint and restore) this agent. */
export const useMayChangeAgent = (agentId: number) => useQuery(agentAbilitiesQuery(agentId));

export async function fetchHistoryPage(agentId: number, page: number, pageSize: number) {
  const body = await unwrap(
    api.GET('/api/v2/agents/{agent_id}/history', { params: { path: { agent_id: agentId }, query: { page, page_size: pageSize } } }),
  );
  return body.data;
}

export function useHistoryPage(agentId: number, page: number, pageSize = HISTORY_PAGE_SIZE) {
  return useQuery({
    queryKey: historyKeys.page(agentId, page, pageSize),
    queryFn: () => fetchHistoryPage(agentId, page, pageSize),
    // Turning a page keeps the rows in place until the next ones arrive.
    placeholderData: keepPreviousData,
  });
}

export function recordQuery(agentId: number, historyId: number) {
  return {
    queryKey: historyKeys.record(agentId, historyId),
    queryFn: async () =>
      (await unwrap(api.GET('/api/v2/agents/{agent_id}/history/{history_id}', { params: { path: { agent_id: agentId, history_id: historyId } } })))
        .data,
    staleTime: Infinity,
  };
}

export function useHistoryRecord(agentId: number, historyId: number | undefined) {
  return useQuery({ ...recordQuery(agentId, historyId ?? 0), enabled: historyId !== undefined });
}

/**
 * After a restore or a checkpoint: the agent, its history and whatever other pages hold of it are
 * stale; the records' snapshots are not (records are never rewritten).
 */
export function refreshAfterHistoryChange(queryClient: QueryClient): Promise<void> {
  return queryClient.invalidateQueries({ predicate: (query) => !(query.queryKey[0] === 'history' && query.queryKey[1] === 'record') });
}

export function formatWhen(isoDate: string): string {
  return new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(isoDate));
}
