// What the agents pages read from the API, and the keys they are cached under. Every key starts with
// 'agents' so that one invalidation after a change refreshes every list and choice these pages show.
import type { QueryClient } from '@tanstack/react-query';
import { api, type Schemas } from '../../api/client';
import { unwrap } from '../../api/errors';

export type Agent = Schemas['Agent'];
export type AgentStatus = Agent['status'];

/** The API's largest page (LIMIT_PAGE_SIZE): lists of choices are read whole, a page at a time. */
const WHOLE_LIST_PAGE_SIZE = 100;
/** How far a list of choices is followed: beyond this a select box is the wrong control anyway. */
const MAX_CHOICE_PAGES = 10;

export const agentKeys = {
  all: ['agents'] as const,
  list: (filters: AgentListFilters) => ['agents', 'list', filters] as const,
  mine: (list: PersonalList) => ['agents', 'mine', list] as const,
  subset: (list: PersonalList, ids: number[], filters: AgentListFilters) => ['agents', 'subset', list, ids, filters] as const,
  one: (agentId: number) => ['agents', 'one', agentId] as const,
  teamRole: (agentId: number) => ['agents', 'team-role', agentId] as const,
  image: (agentId: number, imageKey: string) => ['agents', 'image', agentId, imageKey] as const,
  choices: (what: string) => ['agents', 'choices', what] as const,
};

const LIST_KINDS = new Set<unknown>(['list', 'mine', 'subset']);

/** After an agent changed (or was created or deleted): every list that may show it is read again. */
export function refreshAgentLists(queryClient: QueryClient): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: agentKeys.all, predicate: (query) => LIST_KINDS.has(query.queryKey[1]) });
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

interface Page<T> {
  items: T[];
  total: number;
}

/** Every item of a paged list of choices (projects, teams, tools…), following its pages. */
async function wholeList<T>(fetchPage: (page: number, pageSize: number) => Promise<Page<T>>): Promise<T[]> {
  const items: T[] = [];
  for (let page = 1; page <= MAX_CHOICE_PAGES; page++) {
    const data = await fetchPage(page, WHOLE_LIST_PAGE_SIZE);
    items.push(...data.items);
    if (data.items.length < WHOLE_LIST_PAGE_SIZE || items.length >= data.total) break;
  }
  return items;
}

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

export async function getAgent(agentId: number): Promise<Agent> {
  return (await unwrap(api.GET('/api/v2/agents/{agent_id}', { params: { path: { agent_id: agentId } } }))).data;
}

export async function getTeamRole(agentId: number) {
  return (await unwrap(api.GET('/api/v2/agents/{agent_id}/team-role', { params: { path: { agent_id: agentId } } }))).data;
}

/** The agent's image as a Blob: it is read with the session, so an <img src> of the route would not do. */
export async function getAgentImage(agentId: number): Promise<Blob> {
  return unwrap(api.GET('/api/v2/agents/{agent_id}/image', { params: { path: { agent_id: agentId } }, parseAs: 'blob' }));
}

export const listProjects = () =>
  wholeList(async (page, pageSize) => (await unwrap(api.GET('/api/v2/projects', { params: { query: { page, page_size: pageSize } } }))).data);

export const listTeams = () =>
  wholeList(async (page, pageSize) => (await unwrap(api.GET('/api/v2/teams', { params: { query: { page, page_size: pageSize } } }))).data);

export const listCorpora = () =>
  wholeList(async (page, pageSize) => (await unwrap(api.GET('/api/v2/corpora', { params: { query: { page, page_size: pageSize } } }))).data);

export const listGuardrails = () =>
  wholeList(async (page, pageSize) => (await unwrap(api.GET('/api/v2/guardrails', { params: { query: { page, page_size: pageSize } } }))).data);

export const listLlmConfigurations = (organizationId: number) =>
  wholeList(
    async (page, pageSize) =>
      (
        await unwrap(
          api.GET('/api/v2/organizations/{org_id}/llm-configurations', { params: { path: { org_id: organizationId }, query: { page, page_size: pageSize } } }),
        )
      ).data,
  );

export const listTools = (organizationId: number) =>
  wholeList(
    async (page, pageSize) =>
      (await unwrap(api.GET('/api/v2/organizations/{org_id}/tools', { params: { path: { org_id: organizationId }, query: { page, page_size: pageSize } } })))
        .data,
  );
