// Creating a corpus: a name (unique in the organization), a description, the language its text is
// searched in. Then straight to it, to add documents.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Dialog, DialogTrigger, Form, Heading, Modal, ModalOverlay } from 'react-aria-components';
import { useNavigate } from 'react-router';
import { api } from '../../api/client';
import { unwrap } from '../../api/errors';
import { ErrorNote } from '../../ui/Feedback';
import { Button, TextField } from '../../ui/Fields';
import { corpusKeys, type CorpusLanguage } from './corpus-api';
import { SelectField, type Option } from './SelectField';

const LANGUAGES: Option<CorpusLanguage>[] = [
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
  return (
    <DialogTrigger>
      <Button variant="primary">New corpus</Button>
      <ModalOverlay className="modal-overlay" isDismissable>
        <Modal className="modal">
          <Dialog className="dialog">{({ close }) => <NewCorpusForm onCancel={close} />}</Dialog>
        </Modal>
      </ModalOverlay>
    </DialogTrigger>
  );
}

function NewCorpusForm({ onCancel }: { onCancel: () => void }) {
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
    <Form
      className="form"
      onSubmit={(event) => {
        event.preventDefault();
        create.mutate();
      }}
    >
      <Heading slot="title">New corpus</Heading>
      <TextField label="Name" value={name} onChange={setName} isRequired maxLength={200} autoFocus description="Unique in your organization." />
      <TextField label="Description" value={description} onChange={setDescription} multiline rows={3} maxLength={2000} />
      <SelectField
        label="Language of the documents"
        options={LANGUAGES}
        value={language}
        onChange={setLanguage}
      />
      <ErrorNote error={create.error} />
      <div className="dialog-actions">
        <Button onPress={onCancel}>Cancel</Button>
        <Button type="submit" variant="primary" isDisabled={create.isPending || name.trim() === ''}>
          {create.isPending ? 'Creating…' : 'Create corpus'}
        </Button>
      </div>
    </Form>
  );
}
