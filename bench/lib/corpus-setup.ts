// Setup shared by the corpus suites: a corpus made through the API, and documents written straight
// into the SQLite file (with the values the pipeline would have left on an indexed document).
import { createHash } from 'node:crypto';
import type SQLite from 'better-sqlite3';
import type { ApiClient } from './api-client.js';
import type { SeedUser } from './seed-database.js';

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

/**
 * Prepares the insert of indexed documents of the user's organization into the corpus; each call of
 * the returned function inserts one (the `index`-th of `count`, whose created_on it spreads over the
 * past year) and returns its id. Run it inside the caller's transaction.
 */
export function documentInserter(db: SQLite.Database, user: SeedUser, corpusId: number, count: number): (document: SeedDocument, index: number) => number {
  const insert = db.prepare(`
    insert into documents (organization_id, corpus_id, type, source, access_url, text, tags, annotations, upload_from, step,
                           failed_on, error, content_hash, file_key, size_bytes, chunk_count, step_timings, indexed_on,
                           deleted_on, created_on, created_by, modified_on, modified_by)
    values (?, ?, 'txt', ?, null, ?, '[]', null, 'upload', 'indexed', null, null, ?, null, ?, ?, ?, ?, null, ?, ?, ?, ?)`);
  const yearMs = 365 * 24 * 3_600_000;
  const start = Date.now() - yearMs;
  const timings = JSON.stringify({ extracting: 0.4, chunking: 1.2 });
  return (document, index) => {
    const created = new Date(start + Math.floor((index / count) * yearMs)).toISOString();
    const indexed = new Date(Date.parse(created) + 350).toISOString();
    const bytes = Buffer.from(document.text, 'utf8');
    const hash = createHash('sha256').update(bytes).digest('hex');
    const result = insert.run(user.organizationId, corpusId, document.source, document.text, hash, bytes.length, document.chunkCount, timings, indexed, created, user.id, indexed, user.id);
    return Number(result.lastInsertRowid);
  };
}
