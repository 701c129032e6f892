// /agents/new creates an agent; /agents/:agentId shows and changes one. Opening an agent puts it at
// the top of the person's recent agents.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link, useLocation, useParams } from 'react-router';
import { agentQuery } from '../../api/queries';
import { useUser } from '../../session/session';
import { ErrorNote, Loading } from '../../ui/Feedback';
import { PageHeader } from '../../ui/PageHeader';
import { markUsed } from './agentChanges';
import { AgentEditor } from './AgentEditor';
import { useAgentAbilities } from './agentPermissions';
import { agentKeys } from './agentQueries';
import { NewAgentPage } from './NewAgentForm';
import './agents.css';

export default function AgentEditorPage() {
  const { agentId } = useParams();
  if (agentId === undefined) return <NewAgentPage />;
  if (!/^[1-9]\d{0,9}$/.test(agentId)) return <AgentNotFound error={new Error(`There is no agent "${agentId}".`)} />;
  return <ExistingAgentPage key={agentId} agentId={Number(agentId)} />;
}

function AgentNotFound({ error }: { error: unknown }) {
  return (
    <>
      <PageHeader title="Agent" />
      <ErrorNote error={error} title="The agent could not be opened." />
      <Link to="/agents">Back to the agents</Link>
    </>
  );
}

/** Whether the page was reached right after creating the agent (NewAgentForm says so in the history state). */
function useJustCreated(): boolean {
  const { state } = useLocation();
  return typeof state === 'object' && state !== null && 'created' in state && state.created === true;
}

function useMarkUsed(agentId: number) {
  const queryClient = useQueryClient();
  const { mutate, error } = useMutation({
    mutationFn: () => markUsed(agentId),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: agentKeys.mine('recent') }),
  });
  useEffect(() => mutate(), [mutate]);
  return error;
}

function ExistingAgentPage({ agentId }: { agentId: number }) {
  const user = useUser();
  const queryClient = useQueryClient();
  const justCreated = useJustCreated();
  const agent = useQuery(agentQuery(agentId));
  const abilities = useAgentAbilities(agent.data, user);
  const markUsedError = useMarkUsed(agentId);
  // Each reload starts the form anew from the agent as it is now.
  const [opening, setOpening] = useState(0);

  if (agent.data === undefined) return agent.isError ? <AgentNotFound error={agent.error} /> : <Loading label="Loading the agent…" />;
  if (abilities.isLoading) return <Loading label="Loading the agent…" />;

  const reload = async () => {
    await Promise.all([
      queryClient.refetchQueries({ queryKey: agentKeys.one(agentId), exact: true }),
      queryClient.refetchQueries({ queryKey: agentKeys.teamRole(agentId), exact: true }),
    ]);
    setOpening((count) => count + 1);
  };

  return (
    <>
      <AgentEditor key={opening} agent={agent.data} latest={agent.data} abilities={abilities} onReload={() => void reload()} justCreated={justCreated && opening === 0} />
      <ErrorNote error={agent.error} title="The agent could not be read again." />
      <ErrorNote error={markUsedError} title="The agent could not be added to your recent agents." />
    </>
  );
}
