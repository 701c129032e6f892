// The reads several pages share, as TanStack Query options: each is then cached once, whichever page
// read it first, and a change made on one page shows on the others. An agent and what the caller may
// do with it (its settings, its chat, its history); the organization's things an agent is given or
// a comparison names (projects, teams, corpora, tools, guardrails, LLM configurations).
import { queryOptions } from '@tanstack/react-query';
import { api } from './client';
import { unwrap } from './errors';

/** The API's largest page (LIMIT_PAGE_SIZE): lists of choices are read whole, a page at a time. */
const WHOLE_LIST_PAGE_SIZE = 100;
/** How far a list of choices is followed: beyond this a select box is the wrong control anyway. */
const MAX_CHOICE_PAGES = 10;
/** The organization's things change rarely: read again after a minute. */
const CHOICES_STALE_MS = 60_000;

interface Page<T> {
  items: T[];
  total: number;
}

/** Every item of a paged list, following its pages (at most MAX_CHOICE_PAGES of them). */
export async function wholeList<T>(fetchPage: (page: number, pageSize: number) => Promise<Page<T>>): Promise<T[]> {
  const items: T[] = [];
  for (let page = 1; page <= MAX_CHOICE_PAGES; page++) {
    const data = await fetchPage(page, WHOLE_LIST_PAGE_SIZE);
    items.push(...data.items);
    if (data.items.length < WHOLE_LIST_PAGE_SIZE || items.length >= data.total) break;
  }
  return items;
}

export async function getAgent(agentId: number) {
  return (await unwrap(api.GET('/api/v2/agents/{agent_id}', { params: { path: { agent_id: agentId } } }))).data;
}

// Under 'agents', beside the agents pages' own keys (agentQueries.ts), which drop them with the agent.
export const agentQuery = (agentId: number) => queryOptions({ queryKey: ['agents', 'one', agentId] as const, queryFn: () => getAgent(agentId) });

/** Whether the caller may change and delete the agent: the server's own answer, team roles included. */
export const agentAbilitiesQuery = (agentId: number) =>
  queryOptions({
    queryKey: ['agents', 'team-role', agentId] as const,
    queryFn: async () => (await unwrap(api.GET('/api/v2/agents/{agent_id}/team-role', { params: { path: { agent_id: agentId } } }))).data,
  });

/** A whole list of the organization's things, cached under 'choices'. */
function choicesQuery<T>(key: readonly [string, ...(string | number)[]], fetchPage: (page: number, pageSize: number) => Promise<Page<T>>) {
  return queryOptions({ queryKey: ['choices', ...key] as const, queryFn: () => wholeList(fetchPage), staleTime: CHOICES_STALE_MS });
}

const paged = (page: number, pageSize: number) => ({ page, page_size: pageSize });

export const projectsQuery = () =>
  choicesQuery(['projects'], async (page, pageSize) => (await unwrap(api.GET('/api/v2/projects', { params: { query: paged(page, pageSize) } }))).data);

export const teamsQuery = () =>
  choicesQuery(['teams'], async (page, pageSize) => (await unwrap(api.GET('/api/v2/teams', { params: { query: paged(page, pageSize) } }))).data);

/** The corpora the caller can see, whole (the corpora page's own list is paged and searched). */
export const corpusChoicesQuery = () =>
  choicesQuery(['corpora'], async (page, pageSize) => (await unwrap(api.GET('/api/v2/corpora', { params: { query: paged(page, pageSize) } }))).data);

export const guardrailsQuery = () =>
  choicesQuery(['guardrails'], async (page, pageSize) => (await unwrap(api.GET('/api/v2/guardrails', { params: { query: paged(page, pageSize) } }))).data);

export const llmConfigurationsQuery = (organizationId: number) =>
  choicesQuery(
    ['llm-configurations', organizationId],
    async (page, pageSize) =>
      (await unwrap(api.GET('/api/v2/organizations/{org_id}/llm-configurations', { params: { path: { org_id: organizationId }, query: paged(page, pageSize) } }))).data,
  );

export const toolsQuery = (organizationId: number) =>
  choicesQuery(
    ['tools', organizationId],
    async (page, pageSize) => (await unwrap(api.GET('/api/v2/organizations/{org_id}/tools', { params: { path: { org_id: organizationId }, query: paged(page, pageSize) } }))).data,
  );
