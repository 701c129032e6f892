// The documents of one page of the list, each with its live status, its tags and its actions. A
// plain table (not a grid): its cells hold buttons and tag lists reached with Tab as anywhere else.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../api/client';
import { unwrap } from '../../../api/errors';
import { DeleteButton } from '../../../ui/DeleteButton';
import { corpusKeys, type CorpusDocument, type DocumentPageAt } from '../corpus-api';
import { DocumentStatus, type ShownStatus } from './DocumentStatus';
import { DocumentTags } from './DocumentTags';
import type { LiveStatus } from './useDocumentProgress';
import { DataTable } from '../../../ui/DataTable';

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** The document's status as the list read it, or as a progress event said since, whichever is newer. */
function shownStatus(document: CorpusDocument, live: LiveStatus | undefined, askedAt: number): ShownStatus {
  if (live !== undefined && live.sequence > askedAt) return live;
  return { step: document.step, is_failed: document.is_failed, error: document.error };
}

interface DocumentTableProps {
  page: DocumentPageAt;
  live: ReadonlyMap<number, LiveStatus>;
  mayWrite: boolean;
}

export function DocumentTable({ page, live, mayWrite }: DocumentTableProps) {
  return (
    <DataTable columns={['Name', 'Type', 'Status', 'Tags', 'Added']} actions={mayWrite} className="document-table" caption="Documents, newest first">
      {page.items.map((document) => (
        <tr key={document.id} data-document={document.source}>
          <th scope="row" data-label="Name">
            {document.is_deleted ? (
              <span className="document-name">{document.source}</span>
            ) : (
              // The original as uploaded (served as an attachment), or a URL document's address.
              <a className="document-name" href={document.access_url}>
                {document.source}
              </a>
            )}
          </th>
          <td data-label="Type">{document.type}</td>
          <td data-label="Status">
            <DocumentStatus document={document} status={shownStatus(document, live.get(document.id), page.askedAt)} mayRetry={mayWrite} />
          </td>
          <td data-label="Tags">
            <DocumentTags document={document} mayChange={mayWrite} />
          </td>
          <td data-label="Added">
            <time dateTime={document.created_on}>{dateFormat.format(new Date(document.created_on))}</time>
            <span className="muted text-small text-block">{document.created_by}</span>
          </td>
          {mayWrite && <td data-label="Actions">{!document.is_deleted && <DeleteDocument document={document} />}</td>}
        </tr>
      ))}
    </DataTable>
  );
}

function DeleteDocument({ document }: { document: CorpusDocument }) {
  const queryClient = useQueryClient();
  const remove = useMutation({
    mutationFn: () =>
      unwrap(api.DELETE('/api/v2/corpora/{corpus_id}/documents/{document_id}', { params: { path: { corpus_id: document.corpus_id, document_id: document.id } } })),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: corpusKeys.documents(document.corpus_id) });
      await queryClient.invalidateQueries({ queryKey: corpusKeys.detail(document.corpus_id) });
    },
  });
  return (
    <DeleteButton
      label="Delete"
      accessibleName={`Delete ${document.source}`}
      compact
      title={`Delete ${document.source}?`}
      confirmLabel="Delete document"
      isPending={remove.isPending}
      error={remove.error}
      onDelete={() => remove.mutate()}
    >
      <p>It leaves the corpus and its search at once, and its stored file is removed. Agents stop quoting it.</p>
    </DeleteButton>
  );
}
