// Imports of OpenAPI documents as API tools, run as jobs: one row per import (where the document is —
// its URL, or the stored file given —, the choices made, the secret to give every tool sealed until
// the import ends, the counts so far), one row per operation met (imported, with its tool, or skipped,
// with the reason and the JSON pointer), and the import a tool.import job runs, on the jobs table.
// Frozen: change the schema in a new migration.
import type { Kysely } from 'kysely';
import type { Dialect } from '../dialect.js';

export async function up(db: Kysely<any>, d: Dialect): Promise<void> {
  await db.schema
    .createTable('tool_imports')
    .addColumn('id', d.idType, d.idColumn)
    .addColumn('organization_id', d.idType, (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    // 'queued', 'running', 'completed' or 'failed'.
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('source_url', 'text')
    // The stored file of a document given in the request; removed when the import ends.
    .addColumn('document_key', 'text')
    // JSON: operations, server_url, name_prefix, overrides, enabled.
    .addColumn('options', 'text', (c) => c.notNull())
    .addColumn('secret_sealed', 'text')
    .addColumn('secret_key_id', 'text')
    .addColumn('secret_hint', 'text')
    .addColumn('operations_total', 'integer')
    .addColumn('operations_done', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('imported', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('skipped', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('error', 'text')
    .addColumn('started_on', d.timestampType)
    .addColumn('finished_on', d.timestampType)
    .addColumn('created_on', d.timestampType, (c) => c.notNull())
    .addColumn('created_by', d.idType, (c) => c.notNull().references('users.id'))
    .addColumn('modified_on', d.timestampType, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('tool_imports_organization').on('tool_imports').columns(['organization_id', 'id']).execute();

  await db.schema
    .createTable('tool_import_operations')
    .addColumn('id', d.idType, d.idColumn)
    .addColumn('tool_import_id', d.idType, (c) => c.notNull().references('tool_imports.id').onDelete('cascade'))
    // The operation's place among those chosen: a retried import goes on after the last one recorded.
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('operation', 'text', (c) => c.notNull())
    .addColumn('method', 'text', (c) => c.notNull())
    .addColumn('path', 'text', (c) => c.notNull())
    .addColumn('pointer', 'text', (c) => c.notNull())
    // 'imported' or 'skipped'.
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('reason', 'text')
    // JSON array of { pointer, message }: the problems of the settings made, where those were the reason.
    .addColumn('details', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('tool_id', d.idType, (c) => c.references('tools.id').onDelete('set null'))
    .addColumn('tool_name', 'text')
    .execute();
  await db.schema.createIndex('tool_import_operations_position').on('tool_import_operations').columns(['tool_import_id', 'position']).unique().execute();

  await db.schema.alterTable('jobs').addColumn('tool_import_id', d.idType, (c) => c.references('tool_imports.id').onDelete('cascade')).execute();
  await db.schema.createIndex('jobs_tool_import').on('jobs').columns(['tool_import_id']).execute();
}
