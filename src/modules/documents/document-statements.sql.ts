// The statements every processed document runs in its transaction (its row's step, its events, its
// chunks), compiled once (src/db/precompiled.ts) rather than built by Kysely each time: building
// them cost the server more than running them. Those whose SQL follows what they write are compiled
// once per shape: the columns an update sets, the rows an insert carries.
import { sql, type Insertable, type Kysely, type Updateable } from 'kysely';
import { locksInOrder } from '../../db/dialects/postgres.js';
import { precompiled, precompiledPer } from '../../db/precompiled.js';
import type { Dialect } from '../../db/dialect.js';
import type { DB, DocumentEventsTable, DocumentsTable } from '../../db/schema.js';

/** Fields of a document to change. */
export type DocumentChange = Updateable<DocumentsTable>;

/** A step change of a document, as the corpus's event log keeps it. */
export type DocumentEvent = Omit<DocumentEventsTable, 'id'>;

/** A document's chunks go before it is chunked again: in the transaction of every document processed, so compiled once. */
export const chunksOfDocument = precompiled(2, (db: Kysely<DB>, organizationId: number, documentId: number) =>
  db.deleteFrom('chunks').where('organization_id', '=', organizationId).where('document_id', '=', documentId),
);

/** The document a job processes, with its corpus's language, read at the start of every job. */
export const documentToProcess = precompiled(2, (db: Kysely<DB>, organizationId: number, documentId: number) =>
  db
    .selectFrom('documents')
    .innerJoin('corpora', 'corpora.id', 'documents.corpus_id')
    .selectAll('documents')
    .select('corpora.language as corpus_language')
    .where('documents.organization_id', '=', organizationId)
    .where('documents.id', '=', documentId),
);

function updateOf(db: Kysely<DB>, columns: string[], organizationId: unknown, documentId: unknown, values: unknown[]) {
  return db
    .updateTable('documents')
    .set(Object.fromEntries(columns.map((column, index) => [column, values[index]])) as DocumentChange)
    .where('organization_id', '=', organizationId as number)
    .where('id', '=', documentId as number)
    .where('deleted_on', 'is', null);
}

/** The step update of a document, per set of columns (joined by commas). */
export const updateOfColumns = precompiledPer((columnList: string) => {
  const columns = columnList.split(',');
  return precompiled(columns.length + 2, (db: Kysely<DB>, organizationId: unknown, documentId: unknown, ...values: unknown[]) =>
    updateOf(db, columns, organizationId, documentId, values).returning('id'),
  );
});

/**
 * The same, answering the document's corpus's language, read with the corpus's row kept from changing
 * until the transaction ends (Dialect.sharedLock): per dialect, then per set of columns.
 */
export const updateOfColumnsReadingLanguage = precompiledPer((dialect: Dialect) =>
  precompiledPer((columnList: string) => {
    const columns = columnList.split(',');
    return precompiled(columns.length + 2, (db: Kysely<DB>, organizationId: unknown, documentId: unknown, ...values: unknown[]) =>
      updateOf(db, columns, organizationId, documentId, values).returning((eb) =>
        dialect.sharedLock(eb.selectFrom('corpora').select('corpora.language').whereRef('corpora.id', '=', 'documents.corpus_id')).as('language'),
      ),
    );
  }),
);

/**
 * A multi-row insert of `columns` into `table`, compiled once per number of rows; a row's missing
 * value is bound as null.
 */
function insertOfRows<Row>(table: 'document_events' | 'chunks', columns: readonly (keyof Row & string)[]) {
  const ofRows = precompiledPer((rows: number) =>
    precompiled(rows * columns.length, (db: Kysely<DB>, ...values: unknown[]) =>
      db.insertInto(table).values(Array.from({ length: rows }, (_, row) => Object.fromEntries(columns.map((column, index) => [column, values[row * columns.length + index]]))) as never),
    ),
  );
  return (db: Kysely<DB>, rows: readonly Row[]) => ofRows(rows.length)(db, ...rows.flatMap((row) => columns.map((column) => row[column] ?? null)));
}

/** Past this many events a statement, SQLite inserts them as Kysely builds them (an upload's, once each). */
export const PRECOMPILED_EVENTS = 8;

/** Events of a document (SQLite). */
export const insertEvents = insertOfRows<DocumentEvent>('document_events', ['corpus_id', 'document_id', 'step', 'is_failed', 'error', 'created_on']);

/** The channel on which readers of a corpus's events are told of new ones (its id the payload; src/db/notices.ts). */
export const DOCUMENT_EVENTS_CHANNEL = 'document_events';

/**
 * PostgreSQL: events, however many, with the locks that keep a corpus's events in commit order
 * (locksInOrder) in the same statement: one round trip, and one statement prepared whatever the
 * number, each column bound as an array. The locks are taken by the filter, which runs once before
 * the first row, so before any id is drawn; the ids follow the order of the arrays. The statement
 * notifies each corpus's readers too, which PostgreSQL delivers when the transaction commits.
 */
const eventsInCommitOrder = precompiled(6, (db: Kysely<DB>, corpusIds: unknown, documentIds: unknown, steps: unknown, failed: unknown, errors: unknown, times: unknown) => {
  const statement = sql`
    with ordered as materialized (${locksInOrder('document_events', sql`${corpusIds}::bigint[]`)}),
    inserted as (
      insert into document_events (corpus_id, document_id, step, is_failed, error, created_on)
      select corpus_id, document_id, step, is_failed, error, created_on
      from unnest(${corpusIds}::bigint[], ${documentIds}::bigint[], ${steps}::text[], ${failed}::integer[], ${errors}::text[], ${times}::timestamptz[])
        with ordinality as event(corpus_id, document_id, step, is_failed, error, created_on, position)
      where (select count(*) from ordered) >= 0
      order by position
      returning corpus_id
    )
    select pg_notify(${sql.lit(DOCUMENT_EVENTS_CHANNEL)}, corpus_id::text) from (select distinct corpus_id from inserted) as corpus`;
  return { compile: () => statement.compile(db) };
});

export const insertEventsInCommitOrder = (db: Kysely<DB>, events: readonly DocumentEvent[]) =>
  eventsInCommitOrder(
    db,
    events.map((event) => event.corpus_id),
    events.map((event) => event.document_id),
    events.map((event) => event.step),
    events.map((event) => event.is_failed),
    events.map((event) => event.error ?? null),
    events.map((event) => event.created_on),
  );

/** Chunks a statement carries: so at most this many shapes of the statement are compiled. */
export const CHUNKS_PER_STATEMENT = 100;

const CHUNK_COLUMNS = [
  'organization_id',
  'corpus_id',
  'document_id',
  'position',
  'text',
  'token_count',
  'page',
  'heading',
  'search_title',
  'search_heading',
  'search_body',
] as const;

/** Chunks of a document, at most CHUNKS_PER_STATEMENT. */
export const insertChunkRows = insertOfRows<Insertable<DB['chunks']>>('chunks', CHUNK_COLUMNS);

/** The same with their tsvectors (PostgreSQL). */
export const insertChunkRowsWithVectors = insertOfRows<Insertable<DB['chunks']>>('chunks', [...CHUNK_COLUMNS, 'search']);
