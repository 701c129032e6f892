// Creating or renaming a team or a project: a name (required, unique in the organization) and a
// description, in a dialog; the server's refusal (a name taken) said in it.
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { Button, TextField } from '../../ui/Fields';
import { FormDialog } from '../../ui/FormDialog';

interface NameDialogProps {
  title: string;
  /** The button that opens it. */
  triggerLabel: string;
  triggerVariant?: 'primary' | 'secondary';
  submitLabel: string;
  pendingLabel: string;
  initial?: { name: string; description: string };
  /** Sends it; the dialog closes when it resolves. */
  save: (fields: { name: string; description: string }) => Promise<unknown>;
  /** What is named: "team", "project", for the name's description. */
  noun: string;
}

export function NameDialog({ title, triggerLabel, triggerVariant = 'secondary', submitLabel, pendingLabel, initial, save, noun }: NameDialogProps) {
  const [isOpen, setOpen] = useState(false);
  const [name, setName] = useState(initial?.name ?? '');
  const [description, setDescription] = useState(initial?.description ?? '');
  const mutation = useMutation({ mutationFn: save, onSuccess: () => setOpen(false) });
  return (
    <FormDialog
      title={title}
      trigger={<Button variant={triggerVariant}>{triggerLabel}</Button>}
      isOpen={isOpen}
      onOpenChange={(open) => {
        setOpen(open);
        mutation.reset();
        // Opened again: what the thing is called now, or empty for a new one.
        if (open) {
          setName(initial?.name ?? '');
          setDescription(initial?.description ?? '');
        }
      }}
      submitLabel={submitLabel}
      pendingLabel={pendingLabel}
      isPending={mutation.isPending}
      canSubmit={name.trim() !== ''}
      error={mutation.error}
      onSubmit={() => mutation.mutate({ name: name.trim(), description })}
    >
      <TextField label="Name" value={name} onChange={setName} isRequired maxLength={200} autoFocus description={`Unique among your organization's ${noun}s.`} />
      <TextField label="Description" value={description} onChange={setDescription} multiline rows={3} maxLength={2000} />
    </FormDialog>
  );
}
