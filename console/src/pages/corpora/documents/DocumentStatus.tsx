// Where a document is in its processing (docs/api.md, Processing), in words; a failure with the
// server's reason and a way to try again.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../api/client';
import { unwrap } from '../../../api/errors';
import { ErrorNote } from '../../../ui/Feedback';
import { Button } from '../../../ui/Fields';
import { corpusKeys, type CorpusDocument, type DocumentStep } from '../corpus-api';

const STEP_LABELS: Record<DocumentStep, string> = {
  queued: 'Queued',
  extracting: 'Extracting text',
  chunking: 'Splitting into passages',
  embedding: 'Embedding',
  indexed: 'Indexed',
};

const FAILED_LABELS: Record<DocumentStep, string> = {
  queued: 'Failed before processing',
  extracting: 'Failed while extracting text',
  chunking: 'Failed while splitting into passages',
  embedding: 'Failed while embedding',
  indexed: 'Failed',
};

export interface ShownStatus {
  step: DocumentStep;
  is_failed: boolean;
  error: string | null;
}

interface DocumentStatusProps {
  document: CorpusDocument;
  status: ShownStatus;
  mayRetry: boolean;
}

export function DocumentStatus({ document, status, mayRetry }: DocumentStatusProps) {
  const queryClient = useQueryClient();
  const retry = useMutation({
    mutationFn: () =>
      unwrap(api.POST('/api/v2/corpora/{corpus_id}/documents/{document_id}/retry', { params: { path: { corpus_id: document.corpus_id, document_id: document.id } } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: corpusKeys.documents(document.corpus_id) }),
  });

  if (document.is_deleted) return <span className="badge">Deleted</span>;
  if (!status.is_failed) {
    const busy = status.step !== 'indexed';
    return <span className={`badge ${busy ? 'badge-warning' : 'badge-success'}`}>{STEP_LABELS[status.step]}</span>;
  }
  return (
    <div className="document-failure">
      <span className="badge badge-danger">{FAILED_LABELS[status.step]}</span>
      {status.error !== null && <p className="failure-reason">{status.error}</p>}
      {mayRetry && (
        <Button variant="secondary" className="button-compact" onPress={() => retry.mutate()} isDisabled={retry.isPending} aria-label={`Retry ${document.source}`}>
          Retry
        </Button>
      )}
      <ErrorNote error={retry.error} />
    </div>
  );
}
