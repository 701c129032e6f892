// The sources of documents share one set of sync columns (SourceSyncColumns in schema.ts), so that
// the sources engine reads and writes a connector's sync and a mailbox's through one shape:
// - where the next sync reads from is `sync_cursor`, JSON in the adapter's terms: a mailbox's
//   `cursor` renamed; a connector's delta link, page link and full-sync flag gathered into
//   {"deltaLink", "pageLink", "full"} (each only when set), the three columns then dropped;
// - the job whose sync runs (`sync_job_id`), which mailboxes had, now on connectors too (null: none
//   recorded, as for every row until its next sync);
// - the counter of updated items and the list of failures, which connectors had, now on mailboxes
//   too (0 and '[]').
// Rows keep their data. SQLite renames and drops a column in place (ALTER TABLE … RENAME / DROP
// COLUMN, one per statement); none of these columns is indexed.
// Frozen: change the schema in a new migration.
import type { Kysely } from 'kysely';
import type { Dialect } from '../dialect.js';

interface ConnectorCursorColumns {
  id: number;
  delta_link: string | null;
  page_link: string | null;
  full_sync: number;
}

/** A connector's position as the JSON of sync_cursor: only what is set. */
function connectorCursor(row: ConnectorCursorColumns): string {
  return JSON.stringify({
    ...(row.delta_link !== null ? { deltaLink: row.delta_link } : {}),
    ...(row.page_link !== null ? { pageLink: row.page_link } : {}),
    ...(Number(row.full_sync) === 1 ? { full: true } : {}),
  });
}

export async function up(db: Kysely<any>, _d: Dialect): Promise<void> {
  await db.schema.alterTable('mailboxes').renameColumn('cursor', 'sync_cursor').execute();
  await db.schema.alterTable('mailboxes').addColumn('sync_updated', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.alterTable('mailboxes').addColumn('sync_failures', 'text', (c) => c.notNull().defaultTo('[]')).execute();

  await db.schema.alterTable('connectors').addColumn('sync_job_id', 'integer').execute();
  await db.schema.alterTable('connectors').addColumn('sync_cursor', 'text', (c) => c.notNull().defaultTo('{}')).execute();
  // Connectors are few (one per linked library): one update per row that has a position.
  const positioned: ConnectorCursorColumns[] = await db
    .selectFrom('connectors')
    .select(['id', 'delta_link', 'page_link', 'full_sync'])
    .where((eb) => eb.or([eb('delta_link', 'is not', null), eb('page_link', 'is not', null), eb('full_sync', '<>', 0)]))
    .execute();
  for (const row of positioned) await db.updateTable('connectors').set({ sync_cursor: connectorCursor(row) }).where('id', '=', row.id).execute();
  for (const column of ['delta_link', 'page_link', 'full_sync']) await db.schema.alterTable('connectors').dropColumn(column).execute();
}
