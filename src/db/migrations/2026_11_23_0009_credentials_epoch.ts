// The credentials epoch: one counter that the database itself moves, in the same transaction, with
// every change that can end a credential or change who it stands for — a key revoked, expired or
// deleted, a session ended or shortened, a user deactivated, deleted, or given another role, e-mail
// or organization. Servers keep the callers they resolved in memory and read this one row on every
// request: while it has not moved, no credential has changed, in any process sharing the database.
// Triggers rather than calls in each service, so that no path can forget it (an operator's SQL
// included). Frozen: change the schema in a new migration.
import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../dialect.js';

/** Each trigger: the table, the event, and for an update the columns whose change matters. */
const WATCHED: { table: string; event: 'update' | 'delete'; columns?: string[] }[] = [
  { table: 'api_keys', event: 'update', columns: ['revoked_on', 'expires_on', 'key_hash', 'user_id', 'organization_id'] },
  { table: 'api_keys', event: 'delete' },
  { table: 'sessions', event: 'update', columns: ['token_hash', 'expires_on', 'user_id'] },
  { table: 'sessions', event: 'delete' },
  { table: 'users', event: 'update', columns: ['deactivated_on', 'role', 'email', 'organization_id'] },
  { table: 'users', event: 'delete' },
];

export async function up(db: Kysely<any>, d: Dialect): Promise<void> {
  await db.schema
    .createTable('credentials_epoch')
    .addColumn('id', 'integer', (c) => c.primaryKey().check(sql`id = 1`))
    .addColumn('value', d.idType, (c) => c.notNull())
    .execute();
  await db.insertInto('credentials_epoch').values({ id: 1, value: 0 }).execute();

  if (d.name === 'postgres') {
    await sql`create function bump_credentials_epoch() returns trigger language plpgsql as $$
      begin update credentials_epoch set value = value + 1 where id = 1; return null; end $$`.execute(db);
  }
  for (const { table, event, columns } of WATCHED) {
    const name = sql.raw(`${table}_${event}_bumps_credentials_epoch`);
    const changed = columns && sql.raw(columns.map((column) => `old.${column} is ${d.name === 'postgres' ? 'distinct from' : 'not'} new.${column}`).join(' or '));
    if (d.name === 'postgres') {
      // Row triggers: a statement that changes no row (no expired session to delete) moves nothing.
      await sql`create trigger ${name} after ${sql.raw(event)} on ${sql.table(table)} for each row
        ${changed ? sql`when (${changed})` : sql``} execute function bump_credentials_epoch()`.execute(db);
    } else {
      await sql`create trigger ${name} after ${sql.raw(event)} on ${sql.table(table)}
        ${changed ? sql`when ${changed}` : sql``} begin update credentials_epoch set value = value + 1 where id = 1; end`.execute(db);
    }
  }
}
