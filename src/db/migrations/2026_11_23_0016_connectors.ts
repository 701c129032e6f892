// Document-library connectors: a SharePoint / OneDrive library linked to a corpus through Microsoft
// Graph, its client secret sealed, its delta link and the state of its last sync; one row per library
// item it brought in (the Graph item id and etag matched against the document made of it); and the
// connector a connector.sync job syncs, on the jobs table.
// Frozen: change the schema in a new migration.
import type { Kysely } from 'kysely';
import type { Dialect } from '../dialect.js';

export async function up(db: Kysely<any>, d: Dialect): Promise<void> {
  await db.schema
    .createTable('connectors')
    .addColumn('id', d.idType, d.idColumn)
    .addColumn('organization_id', d.idType, (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('corpus_id', d.idType, (c) => c.notNull().references('corpora.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('tenant_id', 'text', (c) => c.notNull())
    .addColumn('client_id', 'text', (c) => c.notNull())
    .addColumn('client_secret_sealed', 'text', (c) => c.notNull())
    .addColumn('client_secret_key_id', 'text', (c) => c.notNull())
    .addColumn('client_secret_hint', 'text', (c) => c.notNull())
    .addColumn('site_id', 'text')
    .addColumn('drive_id', 'text')
    .addColumn('folder_path', 'text')
    .addColumn('schedule_minutes', 'integer')
    // Where the next incremental sync starts; null: a full sync.
    .addColumn('delta_link', 'text')
    // The page a sync under way reads next (a sync stopped midway goes on from there).
    .addColumn('page_link', 'text')
    // 1 while a full sync is under way: at its end, items it did not see leave the corpus.
    .addColumn('full_sync', 'integer', (c) => c.notNull().defaultTo(0))
    // Bumped at the start of each sync; items carry the sync that last saw them.
    .addColumn('sync_number', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('sync_status', 'text', (c) => c.notNull().defaultTo('never'))
    .addColumn('sync_started_on', d.timestampType)
    .addColumn('sync_finished_on', d.timestampType)
    .addColumn('sync_added', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('sync_updated', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('sync_removed', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('sync_failed', 'integer', (c) => c.notNull().defaultTo(0))
    // JSON: [{ name, reason }] of the items the last sync could not bring in (bounded).
    .addColumn('sync_failures', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('sync_error_code', 'text')
    .addColumn('sync_error', 'text')
    .addColumn('next_sync_on', d.timestampType)
    .addColumn('created_on', d.timestampType, (c) => c.notNull())
    .addColumn('created_by', d.idType, (c) => c.notNull().references('users.id'))
    .addColumn('modified_on', d.timestampType, (c) => c.notNull())
    .addColumn('modified_by', d.idType, (c) => c.notNull().references('users.id'))
    .execute();
  await db.schema.createIndex('connectors_organization').on('connectors').columns(['organization_id', 'id']).execute();
  await db.schema.createIndex('connectors_name_unique').on('connectors').columns(['organization_id', 'name']).unique().execute();

  await db.schema
    .createTable('connector_items')
    .addColumn('connector_id', d.idType, (c) => c.notNull().references('connectors.id').onDelete('cascade'))
    .addColumn('item_id', 'text', (c) => c.notNull())
    // null when the item could not be brought in (too large, unreadable): kept so that it is not fetched again until it changes.
    .addColumn('document_id', d.idType, (c) => c.references('documents.id').onDelete('set null'))
    .addColumn('etag', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('seen_sync', 'integer', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('connector_items_unique').on('connector_items').columns(['connector_id', 'item_id']).unique().execute();
  await db.schema.createIndex('connector_items_document').on('connector_items').columns(['document_id']).execute();

  await db.schema.alterTable('jobs').addColumn('connector_id', d.idType, (c) => c.references('connectors.id').onDelete('cascade')).execute();
  await db.schema.createIndex('jobs_connector').on('jobs').columns(['connector_id']).execute();
}
