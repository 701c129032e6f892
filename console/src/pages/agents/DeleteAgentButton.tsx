// Deleting the agent, after a question that names it; then back to the list, where it is gone.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { Button } from '../../ui/Fields';
import { ErrorNote } from '../../ui/Feedback';
import { deleteAgent } from './agentChanges';
import { agentKeys, refreshAgentLists, type Agent } from './agentQueries';
import { FORM_DONE } from './UnsavedChangesGuard';

export function DeleteAgentButton({ agent }: { agent: Agent }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const remove = useMutation({
    mutationFn: () => deleteAgent(agent.id),
    onSuccess: async () => {
      // Away from the page first: its reads of the agent would now find nothing.
      await navigate('/agents', { state: { ...FORM_DONE, deleted: agent.name } });
      queryClient.removeQueries({ queryKey: agentKeys.one(agent.id) });
      queryClient.removeQueries({ queryKey: agentKeys.teamRole(agent.id) });
      await refreshAgentLists(queryClient);
    },
  });
  return (
    <div className="agent-delete">
      <ConfirmDialog
        trigger={
          <Button variant="danger" isDisabled={remove.isPending}>
            Delete agent
          </Button>
        }
        title={`Delete ${agent.name}?`}
        confirmLabel="Delete agent"
        danger
        onConfirm={() => remove.mutate()}
      >
        <p>
          {agent.name} disappears from every list and stops answering. Its conversations and history stay on record, and its name becomes free for another agent.
        </p>
      </ConfirmDialog>
      <ErrorNote error={remove.error} title="The agent could not be deleted." />
    </div>
  );
}
