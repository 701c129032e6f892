// Naming the agent's current configuration as a checkpoint (POST …/history): a record that changes
// nothing, easy to find and restore later. The API names the present state only, not older records.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '../../api/client';
import { unwrap } from '../../api/errors';
import { Button, TextField } from '../../ui/Fields';
import { FormDialog } from '../../ui/FormDialog';
import { refreshAfterHistoryChange } from './history-api';

interface SaveCheckpointDialogProps {
  agentId: number;
  /** Undefined: the user may save. Otherwise the id of the text saying why not. */
  disabledReasonId?: string | undefined;
  onSaved: (name: string) => void;
}

export function SaveCheckpointDialog({ agentId, disabledReasonId, onSaved }: SaveCheckpointDialogProps) {
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const save = useMutation({
    mutationFn: async () => {
      const text = description.trim();
      const body = await unwrap(
        api.POST('/api/v2/agents/{agent_id}/history', {
          params: { path: { agent_id: agentId } },
          body: text === '' ? { checkpoint_name: name.trim() } : { checkpoint_name: name.trim(), checkpoint_description: text },
        }),
      );
      return body.data;
    },
    onSuccess: async (record) => {
      await refreshAfterHistoryChange(queryClient);
      setOpen(false);
      setName('');
      setDescription('');
      onSaved(record.checkpoint_name);
    },
  });

  if (disabledReasonId !== undefined) {
    return (
      <Button isDisabled aria-describedby={disabledReasonId}>
        Save checkpoint
      </Button>
    );
  }

  return (
    <FormDialog
      title="Save a checkpoint"
      trigger={<Button variant="primary">Save checkpoint</Button>}
      isOpen={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (!next) save.reset();
      }}
      submitLabel="Save"
      pendingLabel="Saving…"
      isPending={save.isPending}
      canSubmit={name.trim() !== ''}
      error={save.error}
      onSubmit={() => save.mutate()}
    >
      <p className="muted">Saves the agent’s configuration as it is now under a name, without changing the agent.</p>
      <TextField label="Name" value={name} onChange={setName} isRequired maxLength={200} autoFocus />
      <TextField label="Description (optional)" value={description} onChange={setDescription} maxLength={2000} multiline rows={3} />
    </FormDialog>
  );
}
