import { storedSearchLanguage } from '../../search/languages.js';
import type { CorpusPermission, DocumentStep } from '../../db/schema.js';
import { parseStringArray } from '../agents/agent-config.js';
import type { CorpusWithGrant } from './corpora.repo.js';
import type { CorpusView } from './corpora.schemas.js';

export type RetrievalMode = CorpusView['retrieval_mode'];

export function presentDocumentCounts(rows: { step: DocumentStep; count: number; failed: number }[]): CorpusView['document_counts'] {
  const counts = { total: 0, queued: 0, extracting: 0, chunking: 0, embedding: 0, indexed: 0, failed: 0 };
  for (const row of rows) {
    counts[row.step] += row.count;
    counts.total += row.count;
    counts.failed += row.failed;
  }
  return counts;
}

export function presentCorpus(
  corpus: CorpusWithGrant,
  permission: CorpusPermission,
  retrievalMode: RetrievalMode,
  counts: CorpusView['document_counts'],
): CorpusView {
  return {
    id: corpus.id,
    organization_id: corpus.organization_id,
    name: corpus.name,
    description: corpus.description,
    default_agent_id: corpus.default_agent_id,
    conversation_starters: parseStringArray(corpus.conversation_starters),
    language: storedSearchLanguage(corpus.language),
    permission,
    retrieval_mode: retrievalMode,
    document_counts: counts,
    created_on: corpus.created_on,
    created_by: corpus.created_by_email,
    modified_on: corpus.modified_on,
    modified_by: corpus.modified_by_email,
  };
}
