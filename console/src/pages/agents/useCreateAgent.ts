// Creating an agent from a draft (the "New agent" form, the builder's reviewed draft): POST, the new
// agent put in the cache and the lists refreshed, then its page, told it was just created.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { createAgent } from './agentChanges';
import { creationOf, type AgentDraft } from './agentDraft';
import { agentKeys, refreshAgentLists } from './agentQueries';
import { FORM_DONE } from './UnsavedChangesGuard';

export function useCreateAgent(draft: AgentDraft) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => createAgent(creationOf(draft)),
    onSuccess: async (agent) => {
      queryClient.setQueryData(agentKeys.one(agent.id), agent);
      void refreshAgentLists(queryClient);
      await navigate(`/agents/${agent.id}`, { replace: true, state: { ...FORM_DONE, created: true } });
    },
  });
}
