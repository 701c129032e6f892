// Tools of an organization: API operations, web search, retrieval over corpora, attachments of a
// thread. Each kind keeps its settings as JSON in `config` (checked by the kind's schema when
// written) and at most one secret (API key, token, password), sealed like LLM configuration keys.
// Frozen: change the schema in a new migration.
import type { Kysely } from 'kysely';
import type { Dialect } from '../dialect.js';

export async function up(db: Kysely<any>, d: Dialect): Promise<void> {
  await db.schema
    .createTable('tools')
    .addColumn('id', d.idType, d.idColumn)
    .addColumn('organization_id', d.idType, (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull())
    // The name the model sees: [a-zA-Z0-9_-]{1,64}, unique in the organization.
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('config', 'text', (c) => c.notNull().defaultTo('{}'))
    // The secret sealed with the server's secret key; key_id names which key, so that keys can rotate.
    .addColumn('secret_sealed', 'text')
    .addColumn('secret_key_id', 'text')
    .addColumn('secret_hint', 'text')
    // 1: the organization's agents that name the tool may call it; 0: none may (better-sqlite3 binds no booleans).
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_on', d.timestampType, (c) => c.notNull())
    .addColumn('created_by', d.idType, (c) => c.notNull().references('users.id'))
    .addColumn('modified_on', d.timestampType, (c) => c.notNull())
    .addColumn('modified_by', d.idType, (c) => c.notNull().references('users.id'))
    .execute();
  await db.schema.createIndex('tools_name_unique').on('tools').columns(['organization_id', 'name']).unique().execute();
}
