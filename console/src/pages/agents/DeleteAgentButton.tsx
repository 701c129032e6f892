// Deleting the agent, after a question that names it; then back to the list, where it is gone.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { DeleteButton } from '../../ui/DeleteButton';
import { deleteAgent } from './agentChanges';
import { agentKeys, forgetAgentLists, type Agent } from './agentQueries';
import { FORM_DONE } from './UnsavedChangesGuard';

export function DeleteAgentButton({ agent }: { agent: Agent }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const remove = useMutation({
    mutationFn: () => deleteAgent(agent.id),
    onSuccess: async () => {
      // The lists are read anew rather than shown from the cache, where the agent still is.
      forgetAgentLists(queryClient);
      // Away from the page before its reads are dropped: they would now find nothing.
      await navigate('/agents', { state: { ...FORM_DONE, deleted: agent.name } });
      queryClient.removeQueries({ queryKey: agentKeys.one(agent.id) });
      queryClient.removeQueries({ queryKey: agentKeys.teamRole(agent.id) });
    },
  });
  return (
    <DeleteButton
      className="agent-delete"
      label="Delete agent"
      title={`Delete ${agent.name}?`}
      confirmLabel="Delete agent"
      isPending={remove.isPending}
      error={remove.error}
      errorTitle="The agent could not be deleted."
      onDelete={() => remove.mutate()}
    >
      <p>{agent.name} disappears from every list and stops answering. Its conversations and history stay on record, and its name becomes free for another agent.</p>
    </DeleteButton>
  );
}
