// Restoring an agent to a record: PUT /api/v2/agents/{agent_id}/history with { history_id,
// checkpoint_description? }, exactly as API.md §2.1 fixes it. The answer is the record restored to;
// the server appends a new record for the restore, which the refreshed history shows on top.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../api/client';
import { unwrap } from '../../api/errors';
import { refreshAfterHistoryChange } from './history-api';

export interface RestoreRequest {
  historyId: number;
  /** Stored on the new record; left out when empty. */
  note: string;
}

export function useRestoreCheckpoint(agentId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ historyId, note }: RestoreRequest) => {
      const description = note.trim();
      const body = await unwrap(
        api.PUT('/api/v2/agents/{agent_id}/history', {
          params: { path: { agent_id: agentId } },
          body: description === '' ? { history_id: historyId } : { history_id: historyId, checkpoint_description: description },
        }),
      );
      return { message: body.message, restoredTo: body.data };
    },
    onSuccess: () => refreshAfterHistoryChange(queryClient),
  });
}

/** What the page says after a restore: the server's message (which names anything left out) and where the agent is now. */
export function restoredNotice({ message, restoredTo }: { message: string; restoredTo: { history_id: number; checkpoint_name: string } }): string {
  return `${message}. The agent now has the configuration of #${restoredTo.history_id} “${restoredTo.checkpoint_name}”; the restore is the newest record of the history.`;
}
