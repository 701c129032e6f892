// PostgreSQL: a chunk's row keeps what a search reads of it (its ids and place, its title, heading path
// and analysed text), and its original text and tsvector go out of line to its TOAST table as soon as
// the row is toasted (past 2 KB; PostgreSQL toasts no smaller row). Counting a term's chunks and
// finding its candidates visit the row of every match (the GIN index cannot tell the corpus, nor
// whether the row is visible), and scoring reads the analysed fields of each candidate. On 100,000
// chunks of a hundred words the table was 150 MB, larger than the default shared_buffers, and a match
// read from the operating system cost three times one in shared buffers; laid out so it is 101 MB,
// and the search suite's p95 fell by about a fifth (docs/performance.md). Only rows written from now
// on are laid out so; a document processed again, or `VACUUM FULL chunks`, lays out older ones.
// SQLite reads no chunk's row to find candidates (FTS5 and the covering index chunks_corpus).
// Frozen: change the schema in a new migration.
import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../dialect.js';

/** Read by search for candidates and scoring: kept in the row (compressed there if need be, out of line only if the row would not fit a page). */
const READ_BY_SEARCH = ['search_title', 'search_heading', 'search_body', 'heading'];

export async function up(db: Kysely<any>, d: Dialect): Promise<void> {
  if (d.name !== 'postgres') return;
  await sql`alter table chunks set (toast_tuple_target = 256)`.execute(db);
  for (const column of READ_BY_SEARCH) await sql`alter table chunks alter column ${sql.ref(column)} set storage main`.execute(db);
}
