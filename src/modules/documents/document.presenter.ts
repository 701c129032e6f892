import { parseStringArray } from '../agents/agent-config.js';
import type { DocumentWithUsers, ListingRow } from './documents.repo.js';
import type { DocumentView, LegacyDocument } from './documents.schemas.js';

/** The route that serves a document's stored original. */
export function originalFilePath(corpusId: number, documentId: number): string {
  return `/api/v2/corpora/${corpusId}/documents/${documentId}/file`;
}

/** A URL document is reachable where it was fetched from; every other one through the server. */
function accessUrlOf(document: { access_url: string | null; corpus_id: number; id: number }): string {
  return document.access_url ?? originalFilePath(document.corpus_id, document.id);
}

export function presentDocument(document: DocumentWithUsers): DocumentView {
  return {
    id: document.id,
    corpus_id: document.corpus_id,
    type: document.type,
    source: document.source,
    access_url: accessUrlOf(document),
    upload_from: document.upload_from,
    step: document.step,
    is_failed: document.failed_on !== null,
    error: document.error,
    is_deleted: document.deleted_on !== null,
    tags: parseStringArray(document.tags),
    annotations: document.annotations,
    size_bytes: document.size_bytes,
    content_hash: document.content_hash,
    chunk_count: document.chunk_count,
    step_timings: JSON.parse(document.step_timings) as Record<string, number>,
    indexed_on: document.indexed_on,
    created_on: document.created_on,
    created_by: document.created_by_email,
    modified_on: document.modified_on,
    modified_by: document.modified_by_email,
  };
}

export function presentLegacyDocument(row: ListingRow): LegacyDocument {
  return {
    id: row.id,
    user: { id: row.created_by, email: row.created_by_email, first_name: row.created_by_first_name, last_name: row.created_by_last_name },
    created_by: row.created_by_email,
    created_on: row.created_on,
    modified_by: row.modified_by_email,
    modified_on: row.modified_on,
    type: row.type,
    source: row.source,
    access_url: accessUrlOf(row),
    text: row.text,
    tags: parseStringArray(row.tags),
    is_deleted: row.deleted_on !== null,
    upload_from: row.upload_from,
    step: row.step,
    is_failed: row.failed_on !== null,
    corpus: row.corpus_id,
  };
}
