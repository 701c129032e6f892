// What each tab of the agents page lists: every agent of the organization (paged by the API), or the
// caller's starred or recent agents (their own lists, searched and filtered like the whole list).
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Empty, ErrorNote, Loading } from '../../ui/Feedback';
import { Pager } from '../../ui/Pager';
import { AgentList } from './AgentList';
import { agentKeys, listAgents, personalListAgents, personalListIds, type AgentListFilters, type PersonalList } from './agentQueries';
import type { AgentListParams } from './useAgentListParams';

const PAGE_SIZE = 20;

interface ViewProps {
  params: AgentListParams;
  onChange: (change: Partial<AgentListParams>) => void;
}

function filtersOf(params: AgentListParams, page: number): AgentListFilters {
  return { q: params.q, status: params.status, projectId: params.projectId, teamId: params.teamId, page, pageSize: PAGE_SIZE };
}

const isFiltered = (params: AgentListParams) => params.q !== '' || params.status !== undefined || params.projectId !== undefined || params.teamId !== undefined;

export function AllAgents({ params, onChange }: ViewProps) {
  const filters = filtersOf(params, params.page);
  const agents = useQuery({ queryKey: agentKeys.list(filters), queryFn: () => listAgents(filters), placeholderData: keepPreviousData });
  if (agents.isPending) return <Loading label="Loading the agents…" />;
  if (agents.isError) return <ErrorNote error={agents.error} title="The agents could not be read." />;
  const { items, total } = agents.data;
  if (total === 0) return <Empty>{isFiltered(params) ? 'No agent matches the search and filters.' : 'There are no agents yet.'}</Empty>;
  return (
    <>
      {items.length === 0 ? <Empty>This page is empty: go back a page.</Empty> : <AgentList agents={items} />}
      <Pager page={params.page} pageSize={PAGE_SIZE} total={total} nouns={['agent', 'agents']} onPage={(page) => onChange({ page })} />
    </>
  );
}

const EMPTY_LIST: Record<PersonalList, string> = {
  starred: 'You have starred no agents yet. Use the star beside an agent to keep it here.',
  recent: 'Agents you open or talk to appear here.',
};

export function PersonalAgents({ list, params }: ViewProps & { list: PersonalList }) {
  const ids = useQuery({ queryKey: agentKeys.mine(list), queryFn: () => personalListIds(list) });
  const filters = filtersOf(params, 1);
  const agents = useQuery({
    queryKey: agentKeys.subset(list, ids.data ?? [], filters),
    queryFn: () => personalListAgents(ids.data ?? [], filters),
    enabled: ids.data !== undefined,
    placeholderData: keepPreviousData,
  });
  if (ids.isError) return <ErrorNote error={ids.error} title={`Your ${list} agents could not be read.`} />;
  if (ids.isPending || agents.isPending) return <Loading label="Loading the agents…" />;
  if (agents.isError) return <ErrorNote error={agents.error} title="The agents could not be read." />;
  if (ids.data.length === 0) return <Empty>{EMPTY_LIST[list]}</Empty>;
  if (agents.data.length === 0) return <Empty>No agent matches the search and filters.</Empty>;
  return <AgentList agents={agents.data} />;
}
