// Agents, their append-only history, and each user's recent and starred agents. Frozen.
import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../dialect.js';

export async function up(db: Kysely<any>, d: Dialect): Promise<void> {
  await db.schema
    .createTable('agents')
    .addColumn('id', d.idType, d.idColumn)
    .addColumn('organization_id', d.idType, (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('instructions', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('model_name', 'text')
    .addColumn('temperature', d.floatType, (c) => c.notNull())
    .addColumn('max_tokens', 'integer', (c) => c.notNull())
    .addColumn('conversation_starters', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('alias', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('created_on', d.timestampType, (c) => c.notNull())
    .addColumn('created_by', d.idType, (c) => c.notNull().references('users.id'))
    .addColumn('modified_on', d.timestampType, (c) => c.notNull())
    .addColumn('modified_by', d.idType, (c) => c.notNull().references('users.id'))
    .addColumn('deleted_on', d.timestampType)
    .execute();
  await db.schema.createIndex('agents_organization').on('agents').columns(['organization_id', 'id']).execute();
  // Names are unique among an organization's agents that are not deleted.
  await db.schema
    .createIndex('agents_name_unique')
    .on('agents')
    .columns(['organization_id', 'name'])
    .unique()
    .where(sql.ref('deleted_on'), 'is', null)
    .execute();

  await db.schema
    .createTable('agent_history')
    .addColumn('id', d.idType, d.idColumn)
    .addColumn('organization_id', d.idType, (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('agent_id', d.idType, (c) => c.notNull().references('agents.id').onDelete('cascade'))
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('checkpoint_name', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('snapshot', 'text', (c) => c.notNull())
    .addColumn('restored_from_id', d.idType, (c) => c.references('agent_history.id'))
    .addColumn('created_on', d.timestampType, (c) => c.notNull())
    .addColumn('created_by', d.idType, (c) => c.notNull().references('users.id'))
    .execute();
  await db.schema.createIndex('agent_history_agent').on('agent_history').columns(['agent_id', 'id']).execute();

  await db.schema
    .createTable('agent_recent')
    .addColumn('user_id', d.idType, (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('agent_id', d.idType, (c) => c.notNull().references('agents.id').onDelete('cascade'))
    .addColumn('used_on', d.timestampType, (c) => c.notNull())
    .addPrimaryKeyConstraint('agent_recent_pk', ['user_id', 'agent_id'])
    .execute();
  await db.schema.createIndex('agent_recent_user_used').on('agent_recent').columns(['user_id', 'used_on']).execute();

  await db.schema
    .createTable('agent_stars')
    .addColumn('user_id', d.idType, (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('agent_id', d.idType, (c) => c.notNull().references('agents.id').onDelete('cascade'))
    .addColumn('created_on', d.timestampType, (c) => c.notNull())
    .addPrimaryKeyConstraint('agent_stars_pk', ['user_id', 'agent_id'])
    .execute();
}
