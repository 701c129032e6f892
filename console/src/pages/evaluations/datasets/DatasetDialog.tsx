// Creating a dataset or renaming one: a name (unique in the organization) and a description.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { api } from '../../../api/client';
import { unwrap } from '../../../api/errors';
import { Button, TextField } from '../../../ui/Fields';
import { FormDialog } from '../../../ui/FormDialog';
import { evaluationKeys, type Dataset } from '../evaluations-api';

/** Without `dataset`: a new one, then straight to it to add queries. */
export function DatasetDialog({ dataset }: { dataset?: Dataset }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [name, setName] = useState(dataset?.name ?? '');
  const [description, setDescription] = useState(dataset?.description ?? '');
  const [open, setOpen] = useState(false);
  const save = useMutation({
    mutationFn: async () => {
      const body = { name: name.trim(), description };
      if (dataset === undefined) return (await unwrap(api.POST('/api/v2/datasets', { body }))).data;
      return (await unwrap(api.PUT('/api/v2/datasets/{dataset_id}', { params: { path: { dataset_id: dataset.id } }, body }))).data;
    },
    onSuccess: async (saved) => {
      setOpen(false);
      await queryClient.invalidateQueries({ queryKey: evaluationKeys.datasets });
      await queryClient.invalidateQueries({ queryKey: evaluationKeys.dataset(saved.id) });
      if (dataset === undefined) await navigate(`/evaluations/datasets/${saved.id}`);
    },
  });
  const title = dataset === undefined ? 'New dataset' : `Rename ${dataset.name}`;
  return (
    <FormDialog
      title={title}
      trigger={<Button variant={dataset === undefined ? 'primary' : 'secondary'}>{dataset === undefined ? 'New dataset' : 'Rename'}</Button>}
      isOpen={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (!next) save.reset();
        if (next && dataset !== undefined) {
          setName(dataset.name);
          setDescription(dataset.description);
        }
      }}
      submitLabel={dataset === undefined ? 'Create dataset' : 'Save'}
      pendingLabel="Saving…"
      isPending={save.isPending}
      canSubmit={name.trim() !== ''}
      error={save.error}
      onSubmit={() => save.mutate()}
    >
      <TextField label="Name" value={name} onChange={setName} isRequired maxLength={200} autoFocus description="Unique in your organization." />
      <TextField label="Description" value={description} onChange={setDescription} multiline rows={3} maxLength={2000} />
    </FormDialog>
  );
}
