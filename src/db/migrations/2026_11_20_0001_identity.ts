// Organizations, their users, login sessions and API keys. Frozen: change the schema in a new migration.
import type { Kysely } from 'kysely';
import type { Dialect } from '../dialect.js';

export async function up(db: Kysely<any>, d: Dialect): Promise<void> {
  await db.schema
    .createTable('organizations')
    .addColumn('id', d.idType, d.idColumn)
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('created_on', d.timestampType, (c) => c.notNull())
    .addColumn('modified_on', d.timestampType, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('users')
    .addColumn('id', d.idType, d.idColumn)
    .addColumn('organization_id', d.idType, (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('first_name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('last_name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('password_hash', 'text')
    .addColumn('deactivated_on', d.timestampType)
    .addColumn('created_on', d.timestampType, (c) => c.notNull())
    .addColumn('modified_on', d.timestampType, (c) => c.notNull())
    .execute();
  // E-mails are stored lower-cased; one account per address across the server, since login takes only the address.
  await db.schema.createIndex('users_email_unique').on('users').column('email').unique().execute();
  await db.schema.createIndex('users_organization').on('users').columns(['organization_id', 'id']).execute();

  await db.schema
    .createTable('sessions')
    .addColumn('id', d.idType, d.idColumn)
    .addColumn('user_id', d.idType, (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('token_hash', 'text', (c) => c.notNull())
    .addColumn('created_on', d.timestampType, (c) => c.notNull())
    .addColumn('expires_on', d.timestampType, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sessions_token_hash_unique').on('sessions').column('token_hash').unique().execute();
  await db.schema.createIndex('sessions_user').on('sessions').column('user_id').execute();

  await db.schema
    .createTable('api_keys')
    .addColumn('id', d.idType, d.idColumn)
    .addColumn('organization_id', d.idType, (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('user_id', d.idType, (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('prefix', 'text', (c) => c.notNull())
    .addColumn('key_hash', 'text', (c) => c.notNull())
    .addColumn('created_on', d.timestampType, (c) => c.notNull())
    .addColumn('last_used_on', d.timestampType)
    .addColumn('expires_on', d.timestampType)
    .addColumn('revoked_on', d.timestampType)
    .execute();
  await db.schema.createIndex('api_keys_key_hash_unique').on('api_keys').column('key_hash').unique().execute();
  await db.schema.createIndex('api_keys_user').on('api_keys').columns(['user_id', 'id']).execute();
}
