// A corpus in figures: its documents by state, how it is searched, and the caller's permission.
import type { Corpus } from './corpus-api';

const PERMISSION_TEXT: Record<Corpus['permission'], string> = {
  read: 'You can read it',
  write: 'You can add and change documents',
  manage: 'You manage it',
};

const MODE_TEXT: Record<Corpus['retrieval_mode'], string> = {
  full_text: 'full-text search',
  hybrid: 'full-text and vector search',
};

export function CorpusSummary({ corpus }: { corpus: Corpus }) {
  const counts = corpus.document_counts;
  const inProgress = counts.total - counts.indexed - counts.failed;
  return (
    <dl className="corpus-summary">
      <div>
        <dt>Documents</dt>
        <dd>{counts.total}</dd>
      </div>
      <div>
        <dt>Indexed</dt>
        <dd>{counts.indexed}</dd>
      </div>
      <div>
        <dt>In progress</dt>
        <dd>{inProgress}</dd>
      </div>
      <div>
        <dt>Failed</dt>
        <dd className={counts.failed > 0 ? 'count-failed' : undefined}>{counts.failed}</dd>
      </div>
      <div>
        <dt>Search</dt>
        <dd>
          {MODE_TEXT[corpus.retrieval_mode]}, {corpus.language}
        </dd>
      </div>
      <div>
        <dt>Access</dt>
        <dd>{PERMISSION_TEXT[corpus.permission]}</dd>
      </div>
    </dl>
  );
}
