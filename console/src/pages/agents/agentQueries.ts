// What the agents pages read from the API, and the keys they are cached under, all under 'agents': the
// lists (read again, or dropped, together after a change), the agent and what the caller may do with
// it (shared with the chat and history pages: api/queries.ts), its image.
import type { QueryClient } from '@tanstack/react-query';
import { api, type Schemas } from '../../api/client';
import { unwrap } from '../../api/errors';
import { agentAbilitiesQuery, agentQuery, wholeList } from '../../api/queries';

export type Agent = Schemas['Agent'];
export type AgentStatus = Agent['status'];

export const agentKeys = {
  all: ['agents'] as const,
  list: (filters: AgentListFilters) => ['agents', 'list', filters] as const,
  mine: (list: PersonalList) => ['agents', 'mine', list] as const,
  subset: (list: PersonalList, ids: number[], filters: AgentListFilters) => ['agents', 'subset', list, ids, filters] as const,
  one: (agentId: number) => agentQuery(agentId).queryKey,
  teamRole: (agentId: number) => agentAbilitiesQuery(agentId).queryKey,
  image: (agentId: number, imageKey: string) => ['agents', 'image', agentId, imageKey] as const,
};

const LIST_KINDS = new Set<unknown>(['list', 'mine', 'subset']);
const isAgentList = (query: { queryKey: readonly unknown[] }) => LIST_KINDS.has(query.queryKey[1]);

/** After an agent changed or was created: every list that may show it is read again. */
export function refreshAgentLists(queryClient: QueryClient): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: agentKeys.all, predicate: isAgentList });
}

/** After an agent was deleted: the lists are dropped, so that none is shown from the cache with the agent still in it. */
export function forgetAgentLists(queryClient: QueryClient): void {
  queryClient.removeQueries({ queryKey: agentKeys.all, predicate: isAgentList });
}

export interface AgentListFilters {
  q: string;
  status?: AgentStatus;
  projectId?: number;
  teamId?: number;
  page: number;
  pageSize: number;
}

/** The caller's own lists of agents: the ones they starred and the ones they used lately. */
export type PersonalList = 'starred' | 'recent';

export async function listAgents(filters: AgentListFilters) {
  const query = {
    page: filters.page,
    page_size: filters.pageSize,
    ...(filters.q === '' ? {} : { q: filters.q }),
    ...(filters.status === undefined ? {} : { status: filters.status }),
    ...(filters.projectId === undefined ? {} : { project_id: filters.projectId }),
    ...(filters.teamId === undefined ? {} : { team_id: filters.teamId }),
  };
  return (await unwrap(api.GET('/api/v2/agents', { params: { query } }))).data;
}

/** The ids on the caller's starred or recent list, newest first. */
export async function personalListIds(list: PersonalList): Promise<number[]> {
  const path = list === 'starred' ? '/api/v2/agents/starred' : '/api/v2/agents/recent';
  const agents = await wholeList(async (page, pageSize) => (await unwrap(api.GET(path, { params: { query: { page, page_size: pageSize } } }))).data);
  return agents.map((agent) => agent.id);
}

/**
 * The agents of a personal list that match the filters, in the list's order (newest first). The
 * personal lists take no search; the structured filter route does, given their ids (1,000 at most,
 * as many as personalListIds follows).
 */
export async function personalListAgents(ids: number[], filters: AgentListFilters): Promise<Agent[]> {
  if (ids.length === 0) return [];
  const criteria = {
    ids,
    ...(filters.q === '' ? {} : { q: filters.q }),
    ...(filters.status === undefined ? {} : { status: [filters.status] }),
    ...(filters.projectId === undefined ? {} : { project_ids: [filters.projectId] }),
    ...(filters.teamId === undefined ? {} : { team_ids: [filters.teamId] }),
  };
  const agents = await wholeList(
    async (page, pageSize) => (await unwrap(api.POST('/api/v2/agents/filter', { body: { ...criteria, page, page_size: pageSize } }))).data,
  );
  const position = new Map(ids.map((id, index) => [id, index]));
  return agents.sort((a, b) => (position.get(a.id) ?? 0) - (position.get(b.id) ?? 0));
}

/** The agent's image as a Blob: it is read with the session, so an <img src> of the route would not do. */
export async function getAgentImage(agentId: number): Promise<Blob> {
  return unwrap(api.GET('/api/v2/agents/{agent_id}/image', { params: { path: { agent_id: agentId } }, parseAs: 'blob' }));
}
