// Creating a corpus: a name (unique in the organization), a description, the language its text is
// searched in. Then straight to it, to add documents.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { api } from '../../api/client';
import { unwrap } from '../../api/errors';
import { Button, TextField } from '../../ui/Fields';
import { FormDialog } from '../../ui/FormDialog';
import { SelectField, type SelectOption } from '../../ui/SelectField';
import { corpusKeys, type CorpusLanguage } from './corpus-api';

const LANGUAGES: SelectOption<CorpusLanguage>[] = [
  { id: 'english', label: 'English' },
  { id: 'danish', label: 'Danish' },
  { id: 'dutch', label: 'Dutch' },
  { id: 'finnish', label: 'Finnish' },
  { id: 'french', label: 'French' },
  { id: 'german', label: 'German' },
  { id: 'italian', label: 'Italian' },
  { id: 'norwegian', label: 'Norwegian' },
  { id: 'portuguese', label: 'Portuguese' },
  { id: 'russian', label: 'Russian' },
  { id: 'spanish', label: 'Spanish' },
  { id: 'swedish', label: 'Swedish' },
  { id: 'simple', label: 'Other (words as they are)' },
];

export function NewCorpusDialog() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [language, setLanguage] = useState<CorpusLanguage>('english');
  const create = useMutation({
    mutationFn: () => unwrap(api.POST('/api/v2/corpora', { body: { name: name.trim(), description, language } })),
    onSuccess: async ({ data }) => {
      await queryClient.invalidateQueries({ queryKey: corpusKeys.lists });
      await navigate(`/corpora/${data.id}`);
    },
  });
  return (
    <FormDialog
      title="New corpus"
      trigger={<Button variant="primary">New corpus</Button>}
      onOpenChange={(open) => !open && create.reset()}
      submitLabel="Create corpus"
      pendingLabel="Creating…"
      isPending={create.isPending}
      canSubmit={name.trim() !== ''}
      error={create.error}
      onSubmit={() => create.mutate()}
    >
      <TextField label="Name" value={name} onChange={setName} isRequired maxLength={200} autoFocus description="Unique in your organization." />
      <TextField label="Description" value={description} onChange={setDescription} multiline rows={3} maxLength={2000} />
      <SelectField label="Language of the documents" options={LANGUAGES} value={language} onChange={setLanguage} />
    </FormDialog>
  );
}
