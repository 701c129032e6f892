// PostgreSQL built with lz4 (most packages are): the long values of chunks and documents are
// compressed with lz4 rather than pglz, several times faster to compress and to read back. pglz was
// the largest single cost of PostgreSQL while it stored a manual's pages (docs/performance.md), and a
// search reads the tsvectors of its candidates back. Values written before keep pglz until rewritten;
// both are read alike. A server without lz4 keeps pglz.
// Frozen: change the schema in a new migration.
import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../dialect.js';

const COMPRESSED = [
  ['chunks', 'text'],
  ['chunks', 'search'],
  ['chunks', 'search_title'],
  ['chunks', 'search_heading'],
  ['chunks', 'search_body'],
  ['documents', 'text'],
] as const;

export async function up(db: Kysely<any>, d: Dialect): Promise<void> {
  if (d.name !== 'postgres') return;
  const { rows } = await sql<{ lz4: boolean }>`
    select 'lz4' = any(enumvals) as lz4 from pg_settings where name = 'default_toast_compression'`.execute(db);
  if (!rows[0]?.lz4) return;
  for (const [table, column] of COMPRESSED) await sql`alter table ${sql.table(table)} alter column ${sql.ref(column)} set compression lz4`.execute(db);
}
