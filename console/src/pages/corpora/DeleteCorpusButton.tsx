// Deleting a corpus, after a question that names it and what goes with it.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { api } from '../../api/client';
import { unwrap } from '../../api/errors';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { ErrorNote } from '../../ui/Feedback';
import { Button } from '../../ui/Fields';
import { corpusKeys, type Corpus } from './corpus-api';

interface DeleteCorpusButtonProps {
  corpus: Corpus;
  /** Where to go once it is gone; nowhere when the page shows a list that simply loses it. */
  navigateTo?: string;
  compact?: boolean;
}

export function DeleteCorpusButton({ corpus, navigateTo = '/corpora', compact = false }: DeleteCorpusButtonProps) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const remove = useMutation({
    mutationFn: () => unwrap(api.DELETE('/api/v2/corpora/{corpus_id}', { params: { path: { corpus_id: corpus.id } } })),
    onSuccess: async () => {
      await navigate(navigateTo);
      queryClient.removeQueries({ queryKey: corpusKeys.all(corpus.id) });
      await queryClient.invalidateQueries({ queryKey: corpusKeys.lists });
    },
  });
  const documents = corpus.document_counts.total;
  return (
    <>
      <ConfirmDialog
        trigger={
          <Button variant={compact ? 'quiet' : 'danger'} className={compact ? 'button-compact' : undefined} aria-label={compact ? `Delete ${corpus.name}` : undefined} isDisabled={remove.isPending}>
            {compact ? 'Delete' : 'Delete corpus'}
          </Button>
        }
        title={`Delete ${corpus.name}?`}
        confirmLabel="Delete corpus"
        danger
        onConfirm={() => remove.mutate()}
      >
        <p>
          {documents === 0 ? 'It holds no documents.' : `Its ${documents} ${documents === 1 ? 'document' : 'documents'}, their passages and stored files are deleted with it.`} Agents
          connected to it stop using it. This cannot be undone.
        </p>
      </ConfirmDialog>
      <ErrorNote error={remove.error} />
    </>
  );
}
