// Setup shared by the corpus suites: a corpus made through the API, and documents written straight
// into the SQLite or PostgreSQL database (with the values the pipeline would have left on an indexed
// document).
import { createHash } from 'node:crypto';
import type SQLite from 'better-sqlite3';
import type { ApiClient } from './api-client.js';
import type { SeedUser } from './seed-database.js';
import { columnsOf } from './seed-postgres.js';

export interface CorpusView {
  id: number;
  document_counts: { total: number; queued: number; extracting: number; chunking: number; embedding: number; indexed: number; failed: number };
}

export function createCorpus(client: ApiClient, name: string): Promise<CorpusView> {
  return client.call<CorpusView>('POST', '/api/v2/corpora', { name, description: 'Benchmark corpus' }, 201);
}

export interface SeedDocument {
  source: string;
  text: string;
  chunkCount: number;
}

/** The columns of an indexed document, in the order indexedDocumentValues gives their values, with their PostgreSQL types. */
export const INDEXED_DOCUMENT_COLUMNS = columnsOf({
  organization_id: 'bigint', corpus_id: 'bigint', type: 'text', source: 'text', access_url: 'text', text: 'text', tags: 'text',
  annotations: 'text', upload_from: 'text', step: 'text', failed_on: 'timestamptz', error: 'text', content_hash: 'text',
  file_key: 'text', size_bytes: 'integer', chunk_count: 'integer', step_timings: 'text', indexed_on: 'timestamptz',
  deleted_on: 'timestamptz', created_on: 'timestamptz', created_by: 'bigint', modified_on: 'timestamptz', modified_by: 'bigint',
});

const YEAR_MS = 365 * 24 * 3_600_000;
const STEP_TIMINGS = JSON.stringify({ extracting: 0.4, chunking: 1.2 });

/**
 * The values the pipeline would have left on an indexed document of the user's organization in the
 * corpus, the `index`-th of `count`, whose created_on is spread over the year before `now`; in the
 * order of INDEXED_DOCUMENT_COLUMNS. Shared by the SQLite and PostgreSQL seeding.
 */
export function indexedDocumentValues(user: SeedUser, corpusId: number, document: SeedDocument, index: number, count: number, now: number): (string | number | null)[] {
  const created = new Date(now - YEAR_MS + Math.floor((index / count) * YEAR_MS)).toISOString();
  const indexed = new Date(Date.parse(created) + 350).toISOString();
  const bytes = Buffer.from(document.text, 'utf8');
  const hash = createHash('sha256').update(bytes).digest('hex');
  return [
    user.organizationId, corpusId, 'txt', document.source, null, document.text, '[]', null, 'upload', 'indexed',
    null, null, hash, null, bytes.length, document.chunkCount, STEP_TIMINGS, indexed,
    null, created, user.id, indexed, user.id,
  ];
}

/**
 * Prepares the insert of indexed documents of the user's organization into the corpus; each call of
 * the returned function inserts one (the `index`-th of `count`, whose created_on it spreads over the
 * past year) and returns its id. Run it inside the caller's transaction.
 */
export function documentInserter(db: SQLite.Database, user: SeedUser, corpusId: number, count: number): (document: SeedDocument, index: number) => number {
  const insert = db.prepare(`
    insert into documents (${INDEXED_DOCUMENT_COLUMNS.map((column) => column.name).join(', ')})
    values (${INDEXED_DOCUMENT_COLUMNS.map(() => '?').join(', ')})`);
  const now = Date.now();
  return (document, index) => Number(insert.run(...indexedDocumentValues(user, corpusId, document, index, count, now)).lastInsertRowid);
}
