// PostgreSQL's GIN index of chunks gathers new entries in a pending list, moved into the index when it
// passes gin_pending_list_limit (4 MB by default) or when (auto)vacuum comes by. Every search reads the
// whole list once per query term: at 4 MB, 0.7 ms a term, paid by every search after an upload until
// the list is moved (autovacuum may not come by for long on a large table that only grows). At 1 MB a
// term's read of the list is a quarter of that; inserting a document's chunks costs about an eighth
// more (the list is moved four times as often). SQLite's FTS5 has no such list: nothing to do there.
// Frozen: change the schema in a new migration.
import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../dialect.js';

export async function up(db: Kysely<any>, d: Dialect): Promise<void> {
  if (d.name !== 'postgres') return;
  await sql`alter index chunks_search set (gin_pending_list_limit = 1024)`.execute(db);
}
