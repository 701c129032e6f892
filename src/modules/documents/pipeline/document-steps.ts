// Moving a document from step to step: the row is the truth, and each change is also appended to
// the corpus's event log (which the SSE stream tails) in the same transaction.
import type { DocumentStep } from '../../../db/schema.js';
import type { Repositories } from '../../../repositories.js';
import type { DocumentChange } from '../documents.repo.js';

export interface StepChange {
  organizationId: number;
  corpusId: number;
  documentId: number;
  step: DocumentStep;
  failed: boolean;
  error: string | null;
  at: string;
}

/**
 * Moves a document to a step, with any fields the step produced, in one update, and logs the event.
 * A document deleted meanwhile is left alone: false, and nothing is written.
 */
export async function recordStep(repos: Repositories, change: StepChange, fields: DocumentChange = {}): Promise<boolean> {
  const present = await repos.documents.updateIfPresent(change.organizationId, change.documentId, {
    ...fields,
    step: change.step,
    failed_on: change.failed ? change.at : null,
    error: change.error,
    modified_on: change.at,
  });
  if (!present) return false;
  await repos.documents.appendEvent({
    corpus_id: change.corpusId,
    document_id: change.documentId,
    step: change.step,
    is_failed: change.failed ? 1 : 0,
    error: change.error,
    created_on: change.at,
  });
  return true;
}

export async function enqueueProcessing(repos: Repositories, organizationId: number, documentId: number, at: string): Promise<void> {
  await repos.jobs.enqueue('document.process', { organizationId, documentId }, at);
}

/**
 * An indexed document whose chunks have no vectors (indexed before an embedder was configured, or
 * before the vector index was rebuilt) goes back to `embedding`, with a job. False if it had moved on.
 */
export async function reopenForEmbedding(
  repos: Repositories,
  document: { id: number; corpus_id: number; organization_id: number },
  at: string,
): Promise<boolean> {
  if (!(await repos.documents.moveStep(document.organization_id, document.id, 'indexed', 'embedding', at))) return false;
  await repos.documents.appendEvent({ corpus_id: document.corpus_id, document_id: document.id, step: 'embedding', is_failed: 0, error: null, created_on: at });
  await enqueueProcessing(repos, document.organization_id, document.id, at);
  return true;
}
