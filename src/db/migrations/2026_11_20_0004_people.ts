// The people side: teams and teammates, projects, notifications, feature flags, organization
// settings (configurations, model deployment, logo), set-password tokens, and the team and project an
// agent belongs to. Frozen: change the schema in a new migration.
import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../dialect.js';

export async function up(db: Kysely<any>, d: Dialect): Promise<void> {
  // Audit columns without foreign keys: they outlive nothing and must never block deleting an organization.
  await db.schema.alterTable('organizations').addColumn('description', 'text', (c) => c.notNull().defaultTo('')).execute();
  await db.schema.alterTable('organizations').addColumn('logo_key', 'text').execute();
  await db.schema.alterTable('organizations').addColumn('logo_content_type', 'text').execute();
  await db.schema.alterTable('organizations').addColumn('modified_by', d.idType).execute();
  await db.schema.alterTable('users').addColumn('created_by', d.idType).execute();
  await db.schema.alterTable('users').addColumn('modified_by', d.idType).execute();

  await db.schema
    .createTable('password_tokens')
    .addColumn('id', d.idType, d.idColumn)
    .addColumn('user_id', d.idType, (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('token_hash', 'text', (c) => c.notNull())
    .addColumn('created_on', d.timestampType, (c) => c.notNull())
    .addColumn('expires_on', d.timestampType, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('password_tokens_hash_unique').on('password_tokens').column('token_hash').unique().execute();
  await db.schema.createIndex('password_tokens_user').on('password_tokens').column('user_id').execute();

  await createNamedTable(db, d, 'teams');

  await db.schema
    .createTable('team_members')
    .addColumn('team_id', d.idType, (c) => c.notNull().references('teams.id').onDelete('cascade'))
    .addColumn('user_id', d.idType, (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('organization_id', d.idType, (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('created_on', d.timestampType, (c) => c.notNull())
    .addColumn('created_by', d.idType, (c) => c.notNull().references('users.id'))
    .addColumn('modified_on', d.timestampType, (c) => c.notNull())
    .addPrimaryKeyConstraint('team_members_pk', ['team_id', 'user_id'])
    .execute();
  await db.schema.createIndex('team_members_user').on('team_members').columns(['user_id', 'team_id']).execute();

  await createNamedTable(db, d, 'projects');

  await db.schema
    .createTable('project_teams')
    .addColumn('project_id', d.idType, (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('team_id', d.idType, (c) => c.notNull().references('teams.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('project_teams_pk', ['project_id', 'team_id'])
    .execute();
  await db.schema.createIndex('project_teams_team').on('project_teams').column('team_id').execute();

  await db.schema
    .createTable('project_members')
    .addColumn('project_id', d.idType, (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('user_id', d.idType, (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_on', d.timestampType, (c) => c.notNull())
    .addColumn('created_by', d.idType, (c) => c.notNull().references('users.id'))
    .addPrimaryKeyConstraint('project_members_pk', ['project_id', 'user_id'])
    .execute();
  await db.schema.createIndex('project_members_user').on('project_members').column('user_id').execute();

  await db.schema
    .createTable('project_recent')
    .addColumn('user_id', d.idType, (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('project_id', d.idType, (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('used_on', d.timestampType, (c) => c.notNull())
    .addPrimaryKeyConstraint('project_recent_pk', ['user_id', 'project_id'])
    .execute();
  await db.schema.createIndex('project_recent_user_used').on('project_recent').columns(['user_id', 'used_on']).execute();

  // Ownership of an agent, not configuration: outside history snapshots, untouched by restores.
  await db.schema
    .alterTable('agents')
    .addColumn('team_id', d.idType, (c) => c.references('teams.id').onDelete('set null'))
    .execute();
  await db.schema
    .alterTable('agents')
    .addColumn('project_id', d.idType, (c) => c.references('projects.id').onDelete('set null'))
    .execute();
  await db.schema.createIndex('agents_team').on('agents').columns(['organization_id', 'team_id']).execute();
  await db.schema.createIndex('agents_project').on('agents').columns(['organization_id', 'project_id']).execute();

  await db.schema
    .createTable('notifications')
    .addColumn('id', d.idType, d.idColumn)
    .addColumn('organization_id', d.idType, (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('user_id', d.idType, (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('link', 'text')
    .addColumn('created_on', d.timestampType, (c) => c.notNull())
    .addColumn('read_on', d.timestampType)
    .execute();
  await db.schema.createIndex('notifications_user').on('notifications').columns(['user_id', 'read_on', 'id']).execute();

  // Only flags an organization has changed have a row; the others take the catalogue's default.
  await db.schema
    .createTable('feature_flags')
    .addColumn('organization_id', d.idType, (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('flag', 'text', (c) => c.notNull())
    .addColumn('enabled', 'integer', (c) => c.notNull())
    .addColumn('modified_on', d.timestampType, (c) => c.notNull())
    .addColumn('modified_by', d.idType, (c) => c.notNull().references('users.id'))
    .addPrimaryKeyConstraint('feature_flags_pk', ['organization_id', 'flag'])
    .execute();

  await db.schema
    .createTable('organization_configurations')
    .addColumn('id', d.idType, d.idColumn)
    .addColumn('organization_id', d.idType, (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('settings', 'text', (c) => c.notNull())
    .addColumn('activated_on', d.timestampType)
    .addColumn('created_on', d.timestampType, (c) => c.notNull())
    .addColumn('created_by', d.idType, (c) => c.notNull().references('users.id'))
    .addColumn('modified_on', d.timestampType, (c) => c.notNull())
    .addColumn('modified_by', d.idType, (c) => c.notNull().references('users.id'))
    .execute();
  await db.schema
    .createIndex('organization_configurations_name_unique')
    .on('organization_configurations')
    .columns(['organization_id', 'name'])
    .unique()
    .execute();
  // At most one active configuration an organization, held by the database itself.
  await db.schema
    .createIndex('organization_configurations_one_active')
    .on('organization_configurations')
    .column('organization_id')
    .unique()
    .where(sql.ref('activated_on'), 'is not', null)
    .execute();

  // References to LLM configurations, which arrive later: plain integers until then.
  await db.schema
    .createTable('model_deployments')
    .addColumn('organization_id', d.idType, (c) => c.primaryKey().references('organizations.id').onDelete('cascade'))
    .addColumn('chat_llm_configuration_id', d.idType)
    .addColumn('embedding_llm_configuration_id', d.idType)
    .addColumn('image_llm_configuration_id', d.idType)
    .addColumn('judge_llm_configuration_id', d.idType)
    .addColumn('modified_on', d.timestampType, (c) => c.notNull())
    .addColumn('modified_by', d.idType, (c) => c.notNull().references('users.id'))
    .execute();
}

/** Named things of an organization (teams, projects): a name unique in it, a description, and who made and changed each. */
async function createNamedTable(db: Kysely<any>, d: Dialect, table: string): Promise<void> {
  await db.schema
    .createTable(table)
    .addColumn('id', d.idType, d.idColumn)
    .addColumn('organization_id', d.idType, (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_on', d.timestampType, (c) => c.notNull())
    .addColumn('created_by', d.idType, (c) => c.notNull().references('users.id'))
    .addColumn('modified_on', d.timestampType, (c) => c.notNull())
    .addColumn('modified_by', d.idType, (c) => c.notNull().references('users.id'))
    .execute();
  await db.schema.createIndex(`${table}_name_unique`).on(table).columns(['organization_id', 'name']).unique().execute();
}
