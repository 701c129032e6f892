// PostgreSQL: a chunk's tsvector is written by the server (src/db/tsvector.ts) instead of being
// generated from its fields by to_tsvector, whose parser was four fifths of what inserting a chunk
// cost PostgreSQL (docs/performance.md). The column keeps its values: the server writes the same ones.
// SQLite's FTS5 index is kept by triggers, as before.
// Frozen: change the schema in a new migration.
import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../dialect.js';

export async function up(db: Kysely<any>, d: Dialect): Promise<void> {
  if (d.name !== 'postgres') return;
  await sql`alter table chunks alter column search drop expression`.execute(db);
}
