// The corpus's documents, a page at a time (GET /api/v2/corpora/{id}/documents: newest first, with
// the failure's reason), their status kept live by the progress stream.
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Empty, ErrorNote, Loading } from '../../../ui/Feedback';
import { Pager } from '../../../ui/Pager';
import { documentsQuery, PAGE_SIZE, type DocumentFilter } from '../corpus-api';
import { DocumentFilters } from './DocumentFilters';
import { DocumentTable } from './DocumentTable';
import type { Connection, DocumentProgress } from './useDocumentProgress';

const CONNECTION_TEXT: Record<Connection, string> = {
  connecting: 'Connecting to live updates…',
  live: 'Status updates live',
  reconnecting: 'Live updates interrupted; reconnecting…',
  stopped: 'Live updates stopped',
};

interface DocumentsSectionProps {
  corpusId: number;
  progress: DocumentProgress;
  mayWrite: boolean;
}

export function DocumentsSection({ corpusId, progress, mayWrite }: DocumentsSectionProps) {
  const [filter, setFilter] = useState<DocumentFilter>({ page: 1, includeDeleted: false });
  const documents = useQuery(documentsQuery(corpusId, filter, progress.sequence));
  const filtered = filter.status !== undefined || filter.type !== undefined || filter.tag !== undefined || filter.includeDeleted;

  return (
    <section aria-labelledby="documents-heading" className="documents-section">
      <div className="documents-head">
        <h2 id="documents-heading">Documents</h2>
        <p className={`live-connection connection-${progress.connection}`} role="status">
          {CONNECTION_TEXT[progress.connection]}
        </p>
      </div>
      <DocumentFilters filter={filter} onChange={setFilter} />
      <ErrorNote error={documents.error} title="The documents could not be loaded." />
      {documents.isPending && <Loading label="Loading the documents…" />}
      {documents.data !== undefined &&
        (documents.data.items.length === 0 ? (
          <Empty>{filtered ? 'No document matches these filters.' : 'No documents yet.'}</Empty>
        ) : (
          <>
            <DocumentTable page={documents.data} live={progress.live} mayWrite={mayWrite} />
            <Pager page={filter.page} pageSize={PAGE_SIZE} total={documents.data.total} nouns={['document', 'documents']} onPage={(page) => setFilter({ ...filter, page })} />
          </>
        ))}
    </section>
  );
}
