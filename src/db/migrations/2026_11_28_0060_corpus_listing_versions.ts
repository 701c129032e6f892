// A corpus's listing version: one counter per corpus that the database itself moves, in the same
// transaction, with every write that can change what a listing of its documents shows — a document
// inserted, changed (its step or status by the processing worker, its tags, its name…) or deleted, a
// tag of document_tags added or removed, the e-mail or name of a user the listings show. The listings
// name their answers by it (ETag), so a client that holds the current tag is answered 304 without the
// document rows being read. Triggers rather than calls in each service, so that no path can forget it
// (jobs and an operator's SQL included).
// A row of its own rather than a column of corpora (which documents being stored read with a shared
// lock, see 0029); no foreign key, so that a corpus's row outlives it: documents deleted with their
// corpus still move it, and a corpus given the id of a deleted one (SQLite may reuse ids) starts
// above every tag given for the old one. A corpus without a row is at 0.
// Frozen: change the schema in a new migration.
import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../dialect.js';

/** Moves the version of each corpus id the select returns (it must end in a WHERE, for SQLite's upsert). */
const bump = (corpusIds: string) =>
  `insert into corpus_listing_versions (corpus_id, value) ${corpusIds} ` +
  'on conflict (corpus_id) do update set value = corpus_listing_versions.value + 1';

/** Each trigger: the table, the event, the corpora it moves, and for an update the columns whose change matters (all when none). */
const WATCHED: { table: string; event: 'insert' | 'update' | 'delete'; corpora: string; columns?: string[] }[] = [
  { table: 'corpora', event: 'insert', corpora: 'select new.id, 1 where true' },
  { table: 'corpora', event: 'delete', corpora: 'select old.id, 1 where true' },
  { table: 'documents', event: 'insert', corpora: 'select new.corpus_id, 1 where true' },
  // Every column: what is not shown today may be tomorrow, and a write no listing shows costs a 200.
  { table: 'documents', event: 'update', corpora: 'select new.corpus_id, 1 where true union select old.corpus_id, 1 where old.corpus_id <> new.corpus_id' },
  { table: 'documents', event: 'delete', corpora: 'select old.corpus_id, 1 where true' },
  { table: 'document_tags', event: 'insert', corpora: 'select corpus_id, 1 from documents where id = new.document_id' },
  { table: 'document_tags', event: 'update', corpora: 'select corpus_id, 1 from documents where id in (old.document_id, new.document_id)' },
  // A tag deleted with its document: the document is already gone, and its own delete moved the version.
  { table: 'document_tags', event: 'delete', corpora: 'select corpus_id, 1 from documents where id = old.document_id' },
  // The listings show who created and last changed each document, by e-mail and name.
  {
    table: 'users',
    event: 'update',
    corpora: 'select id, 1 from corpora where organization_id in (old.organization_id, new.organization_id)',
    columns: ['email', 'first_name', 'last_name', 'organization_id'],
  },
];

export async function up(db: Kysely<any>, d: Dialect): Promise<void> {
  await db.schema
    .createTable('corpus_listing_versions')
    .addColumn('corpus_id', d.idType, (c) => c.primaryKey())
    .addColumn('value', d.idType, (c) => c.notNull())
    .execute();

  for (const { table, event, corpora, columns } of WATCHED) {
    const name = `${table}_${event}_moves_corpus_listing_version`;
    const changed = columns
      ?.map((column) => `old.${column} is ${d.name === 'postgres' ? 'distinct from' : 'not'} new.${column}`)
      .join(' or ');
    const statement = bump(corpora);
    if (d.name === 'postgres') {
      // One function per trigger: PostgreSQL has no trigger bodies, and each names other rows.
      await sql`create function ${sql.raw(name)}() returns trigger language plpgsql as $$
        begin ${sql.raw(statement)}; return null; end $$`.execute(db);
      await sql`create trigger ${sql.raw(name)} after ${sql.raw(event)} on ${sql.table(table)} for each row
        ${changed ? sql`when (${sql.raw(changed)})` : sql``} execute function ${sql.raw(name)}()`.execute(db);
    } else {
      await sql`create trigger ${sql.raw(name)} after ${sql.raw(event)} on ${sql.table(table)}
        ${changed ? sql`when ${sql.raw(changed)}` : sql``} begin ${sql.raw(statement)}; end`.execute(db);
    }
  }
}
