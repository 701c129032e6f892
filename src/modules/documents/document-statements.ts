// The statements every processed document runs in its transaction (its row's step, its events, its
// chunks), compiled once (src/db/precompiled.ts) rather than built by Kysely each time: building
// them cost the server more than running them. Those whose SQL follows what they write are compiled
// once per shape: the columns an update sets, the rows an insert carries.
import type { Insertable, Kysely } from 'kysely';
import { precompiled, precompiledPer, type Precompiled } from '../../db/precompiled.js';
import type { DB } from '../../db/schema.js';
import type { DocumentChange, DocumentEvent } from './documents.repo.js';

/** A document's chunks go before it is chunked again: in the transaction of every document processed, so compiled once. */
export const chunksOfDocument = precompiled(2, (db: Kysely<DB>, organizationId: number, documentId: number) =>
  db.deleteFrom('chunks').where('organization_id', '=', organizationId).where('document_id', '=', documentId),
);

/** The document a job processes, read at the start of every job. */
export const documentToProcess = precompiled(2, (db: Kysely<DB>, organizationId: number, documentId: number) =>
  db.selectFrom('documents').selectAll().where('organization_id', '=', organizationId).where('id', '=', documentId),
);

type ShapedQuery<Row> = Precompiled<DB, unknown[], Row>;

/** The step update of a document, per set of columns (joined by commas). */
export const updateOfColumns = precompiledPer((columnList: string): ShapedQuery<{ id: number }> => {
  const columns = columnList.split(',');
  return precompiled(columns.length + 2, (db: Kysely<DB>, organizationId: unknown, documentId: unknown, ...values: unknown[]) =>
    db
      .updateTable('documents')
      .set(Object.fromEntries(columns.map((column, index) => [column, values[index]])) as DocumentChange)
      .where('organization_id', '=', organizationId as number)
      .where('id', '=', documentId as number)
      .where('deleted_on', 'is', null)
      .returning('id'),
  );
});

/** The columns of a document event, in the order their values are bound. */
export const EVENT_COLUMNS = ['corpus_id', 'document_id', 'step', 'is_failed', 'error', 'created_on'] as const;
/** Past this many events a statement, the events are inserted as Kysely builds them (an upload's, once each). */
export const PRECOMPILED_EVENTS = 8;

/** Events of a document, per number of rows. */
export const insertOfEvents = precompiledPer((rows: number): ShapedQuery<unknown> => {
  return precompiled(rows * EVENT_COLUMNS.length, (db: Kysely<DB>, ...values: unknown[]) =>
    db.insertInto('document_events').values(
      Array.from({ length: rows }, (_, row) => Object.fromEntries(EVENT_COLUMNS.map((column, index) => [column, values[row * EVENT_COLUMNS.length + index]])) as DocumentEvent),
    ),
  );
});

/** The columns of a chunk, in the order their values are bound. */
export const CHUNK_COLUMNS = ['organization_id', 'corpus_id', 'document_id', 'position', 'text', 'token_count', 'page', 'heading', 'search_title', 'search_heading', 'search_body'] as const;
/** Chunks a statement carries: so at most this many shapes of the statement are compiled. */
export const CHUNKS_PER_STATEMENT = 100;

/** Chunks of a document, per number of rows. */
export const insertOfChunks = precompiledPer((rows: number): ShapedQuery<unknown> => {
  return precompiled(rows * CHUNK_COLUMNS.length, (db: Kysely<DB>, ...values: unknown[]) =>
    db.insertInto('chunks').values(
      Array.from({ length: rows }, (_, row) => Object.fromEntries(CHUNK_COLUMNS.map((column, index) => [column, values[row * CHUNK_COLUMNS.length + index]])) as Insertable<DB['chunks']>),
    ),
  );
});
