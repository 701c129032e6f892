// Naming the agent's current configuration as a checkpoint (POST …/history): a record that changes
// nothing, easy to find and restore later. The API names the present state only, not older records.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Dialog, DialogTrigger, Form, Heading, Modal, ModalOverlay } from 'react-aria-components';
import { api } from '../../api/client';
import { unwrap } from '../../api/errors';
import { Button, TextField } from '../../ui/Fields';
import { ErrorNote } from '../../ui/Feedback';
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

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    save.mutate();
  };

  return (
    <DialogTrigger
      isOpen={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (!next) save.reset();
      }}
    >
      <Button variant="primary">Save checkpoint</Button>
      <ModalOverlay className="modal-overlay" isDismissable>
        <Modal className="modal">
          <Dialog className="dialog">
            {({ close }) => (
              <Form className="form" onSubmit={submit}>
                <Heading slot="title">Save a checkpoint</Heading>
                <p className="muted">Saves the agent’s configuration as it is now under a name, without changing the agent.</p>
                <TextField label="Name" value={name} onChange={setName} isRequired maxLength={200} autoFocus />
                <TextField label="Description (optional)" value={description} onChange={setDescription} maxLength={2000} multiline rows={3} />
                <ErrorNote error={save.error} />
                <div className="dialog-actions">
                  <Button onPress={close}>Cancel</Button>
                  <Button type="submit" variant="primary" isDisabled={name.trim() === '' || save.isPending}>
                    {save.isPending ? 'Saving…' : 'Save'}
                  </Button>
                </div>
              </Form>
            )}
          </Dialog>
        </Modal>
      </ModalOverlay>
    </DialogTrigger>
  );
}
