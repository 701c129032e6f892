// Moving a document from step to step: the row is the truth, and each change is also appended to
// the corpus's event log (which the SSE stream tails) in the same transaction.
import type { DocumentStep } from '../../../db/schema.js';
import type { Repositories } from '../../../repositories.js';
import type { DocumentChange, DocumentEvent } from '../documents.repo.js';

export interface StepChange {
  organizationId: number;
  corpusId: number;
  documentId: number;
  step: DocumentStep;
  failed: boolean;
  error: string | null;
  at: string;
}

const eventOf = (change: StepChange): DocumentEvent => ({
  corpus_id: change.corpusId,
  document_id: change.documentId,
  step: change.step,
  is_failed: change.failed ? 1 : 0,
  error: change.error,
  created_on: change.at,
});

/**
 * Moves a document to a step, with any fields the step produced, in one update, and logs the event.
 * A document deleted meanwhile is left alone: false, and nothing is written.
 */
export function recordStep(repos: Repositories, change: StepChange, fields: DocumentChange = {}): Promise<boolean> {
  return recordSteps(repos, [change], fields);
}

/**
 * Moves a document through several steps of one document at once, in the order given (steps that
 * went by faster than anyone could watch them): the row takes the last, with the fields, in one
 * update, and every step is logged with its own time. False, and nothing written, when it was deleted.
 */
export async function recordSteps(repos: Repositories, changes: readonly StepChange[], fields: DocumentChange = {}): Promise<boolean> {
  const last = changes[changes.length - 1]!;
  if (!(await repos.documents.updateIfPresent(last.organizationId, last.documentId, stepColumns(changes, fields)))) return false;
  await logSteps(repos, changes);
  return true;
}

/** The row's columns for the last of the steps, with the fields. */
function stepColumns(changes: readonly StepChange[], fields: DocumentChange): DocumentChange {
  const last = changes[changes.length - 1]!;
  return { ...fields, step: last.step, failed_on: last.failed ? last.at : null, error: last.error, modified_on: last.at };
}

/**
 * recordSteps's first half, for the transaction that stores a document's chunks: the row takes the
 * last step, with the fields, and the corpus's language is answered, read with the corpus's row kept
 * from changing until the transaction ends; undefined when the document was deleted. The steps are
 * logged by logSteps (written at the transaction's end, DocumentsRepo.appendEvents).
 */
export function moveThroughSteps(repos: Repositories, changes: readonly StepChange[], fields: DocumentChange): Promise<string | undefined> {
  const last = changes[changes.length - 1]!;
  return repos.documents.updateReadingLanguage(last.organizationId, last.documentId, stepColumns(changes, fields));
}

/** recordSteps's second half: each step in the corpus's event log, with its own time. */
export function logSteps(repos: Repositories, changes: readonly StepChange[]): Promise<void> {
  return repos.documents.appendEvents(changes.map(eventOf));
}

export async function enqueueProcessing(repos: Repositories, organizationId: number, documentId: number, at: string): Promise<void> {
  await repos.jobs.enqueue('document.process', { organizationId, documentId }, at);
}

/** Documents just written at `queued` (the step their rows were inserted with): logged, each with its job. */
export async function queueNewDocuments(repos: Repositories, organizationId: number, corpusId: number, documentIds: readonly number[], at: string): Promise<void> {
  const queued = documentIds.map((documentId) => eventOf({ organizationId, corpusId, documentId, step: 'queued', failed: false, error: null, at }));
  await repos.documents.appendEvents(queued);
  await repos.jobs.enqueueMany('document.process', documentIds.map((documentId) => ({ organizationId, documentId })), at);
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
  await repos.documents.appendEvent(eventOf({ organizationId: document.organization_id, corpusId: document.corpus_id, documentId: document.id, step: 'embedding', failed: false, error: null, at }));
  await enqueueProcessing(repos, document.organization_id, document.id, at);
  return true;
}
