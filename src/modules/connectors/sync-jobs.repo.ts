// The sync jobs of a synced source (a connector, a mailbox) on the jobs table, for the schedule both
// share (sync-schedule.ts): the source's waiting job brought forward, looked for, or dropped.
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';

/** A source's sync jobs: their kind, and the jobs column naming the source. */
export type SyncSubject = { kind: 'connector.sync'; column: 'connector_id'; id: number } | { kind: 'mailbox.sync'; column: 'mailbox_id'; id: number };

export const connectorSubject = (id: number): SyncSubject => ({ kind: 'connector.sync', column: 'connector_id', id });
export const mailboxSubject = (id: number): SyncSubject => ({ kind: 'mailbox.sync', column: 'mailbox_id', id });

/** Brings a scheduled sync job forward to `at`; false when the source has no waiting job. */
export async function bringSyncJobForward(db: Kysely<DB>, subject: SyncSubject, at: string): Promise<boolean> {
  const result = await db
    .updateTable('jobs')
    .set({ run_after: at, modified_on: at })
    .where(subject.column, '=', subject.id)
    .where('kind', '=', subject.kind)
    .where('status', '=', 'queued')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Whether the source has a sync job in that state (waiting: queued; claimed: running). */
export async function hasSyncJob(db: Kysely<DB>, subject: SyncSubject, status: 'queued' | 'running'): Promise<boolean> {
  const row = await db.selectFrom('jobs').select('id').where(subject.column, '=', subject.id).where('kind', '=', subject.kind).where('status', '=', status).limit(1).executeTakeFirst();
  return row !== undefined;
}

/** Drops the source's sync jobs that wait (a schedule changed): the running one, if any, goes on. */
export async function dropWaitingSyncJobs(db: Kysely<DB>, subject: SyncSubject): Promise<void> {
  await db.deleteFrom('jobs').where(subject.column, '=', subject.id).where('kind', '=', subject.kind).where('status', '=', 'queued').execute();
}

