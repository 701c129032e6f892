// The organization's agents: all of them (searched, filtered, paged), or the ones the person starred or
// used lately; "New agent" for those who may create one.
import { Tab, TabList, TabPanel, Tabs, type Key } from 'react-aria-components';
import { Link, useLocation } from 'react-router';
import { useUser } from '../../session/session';
import { SuccessNote } from '../../ui/Feedback';
import { PageHeader } from '../../ui/PageHeader';
import { AgentFilters } from './AgentFilters';
import { AllAgents, PersonalAgents } from './AgentListViews';
import { CREATE_REASON, mayCreateAgents } from './agentPermissions';
import { useAgentListParams, type AgentListView } from './useAgentListParams';
import './agents.css';

const VIEWS: { id: AgentListView; label: string }[] = [
  { id: 'all', label: 'All' },
  { id: 'starred', label: 'Starred' },
  { id: 'recent', label: 'Recent' },
];

/** The name of the agent just deleted, when the page was reached from its deletion. */
function useJustDeleted(): string | undefined {
  const { state } = useLocation();
  return typeof state === 'object' && state !== null && 'deleted' in state && typeof state.deleted === 'string' ? state.deleted : undefined;
}

export default function AgentsPage() {
  const user = useUser();
  const [params, changeParams] = useAgentListParams();
  const deleted = useJustDeleted();
  return (
    <>
      <PageHeader title="Agents" description="The assistants of your organization: what they know, how they answer.">
        {mayCreateAgents(user) ? (
          <>
            <Link to="/agents/builder" className="button button-secondary">
              Describe an agent
            </Link>
            <Link to="/agents/new" className="button button-primary">
              New agent
            </Link>
          </>
        ) : (
          <p className="agents-reason muted">{CREATE_REASON}</p>
        )}
      </PageHeader>
      {deleted !== undefined && <SuccessNote>{deleted} was deleted.</SuccessNote>}
      <AgentFilters params={params} onChange={changeParams} />
      <Tabs
        className="tabs"
        selectedKey={params.view}
        onSelectionChange={(key: Key) => changeParams({ view: VIEWS.find((view) => view.id === key)?.id ?? 'all' })}
      >
        <TabList aria-label="Which agents">
          {VIEWS.map((view) => (
            <Tab key={view.id} id={view.id}>
              {view.label}
            </Tab>
          ))}
        </TabList>
        <TabPanel id="all">
          <AllAgents params={params} onChange={changeParams} />
        </TabPanel>
        <TabPanel id="starred">
          <PersonalAgents list="starred" params={params} onChange={changeParams} />
        </TabPanel>
        <TabPanel id="recent">
          <PersonalAgents list="recent" params={params} onChange={changeParams} />
        </TabPanel>
      </Tabs>
    </>
  );
}
