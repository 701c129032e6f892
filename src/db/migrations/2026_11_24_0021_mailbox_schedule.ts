// Scheduled mail sync and re-authorization during a sync: a mailbox's minutes between automatic syncs
// and when the next is due (as for connectors), and its generation, raised by each re-authorization,
// which a sync checks before it writes its cursor, its rotated refresh token or its outcome: a sync
// begun before the re-authorization then ends without writing over the new state. The job a running
// sync belongs to, and the schedule an authorization under way asked for.
// Frozen: change the schema in a new migration.
import type { Kysely } from 'kysely';
import type { Dialect } from '../dialect.js';

export async function up(db: Kysely<any>, d: Dialect): Promise<void> {
  await db.schema.alterTable('mailboxes').addColumn('schedule_minutes', 'integer').execute();
  await db.schema.alterTable('mailboxes').addColumn('next_sync_on', d.timestampType).execute();
  await db.schema.alterTable('mailboxes').addColumn('generation', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  // The job whose sync runs: another job claimed meanwhile ends at once rather than sync beside it.
  await db.schema.alterTable('mailboxes').addColumn('sync_job_id', 'integer').execute();
  // The schedule asked for when authorizing, carried to the callback; schedule_given 0: keep the mailbox's.
  await db.schema.alterTable('email_authorizations').addColumn('schedule_minutes', 'integer').execute();
  await db.schema.alterTable('email_authorizations').addColumn('schedule_given', 'integer', (c) => c.notNull().defaultTo(0)).execute();
}
