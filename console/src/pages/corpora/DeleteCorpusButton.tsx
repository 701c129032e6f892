// Deleting a corpus, after a question that names it and what goes with it; then to the list of
// corpora (where it is gone), also when it was deleted from that list.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { api } from '../../api/client';
import { unwrap } from '../../api/errors';
import { DeleteButton } from '../../ui/DeleteButton';
import { corpusKeys, type Corpus } from './corpus-api';

export function DeleteCorpusButton({ corpus, compact = false }: { corpus: Corpus; compact?: boolean }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const remove = useMutation({
    mutationFn: () => unwrap(api.DELETE('/api/v2/corpora/{corpus_id}', { params: { path: { corpus_id: corpus.id } } })),
    onSuccess: async () => {
      await navigate('/corpora');
      queryClient.removeQueries({ queryKey: corpusKeys.all(corpus.id) });
      await queryClient.invalidateQueries({ queryKey: corpusKeys.lists });
    },
  });
  const documents = corpus.document_counts.total;
  return (
    <DeleteButton
      label={compact ? 'Delete' : 'Delete corpus'}
      accessibleName={compact ? `Delete ${corpus.name}` : undefined}
      compact={compact}
      title={`Delete ${corpus.name}?`}
      confirmLabel="Delete corpus"
      isPending={remove.isPending}
      error={remove.error}
      errorTitle="The corpus could not be deleted."
      onDelete={() => remove.mutate()}
    >
      <p>
        {documents === 0 ? 'It holds no documents.' : `Its ${documents} ${documents === 1 ? 'document' : 'documents'}, their passages and stored files are deleted with it.`} Agents
        connected to it stop using it. This cannot be undone.
      </p>
    </DeleteButton>
  );
}
