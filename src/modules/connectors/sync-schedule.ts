// The schedule of a synced source (a document library's connector, a mailbox), shared by both: its
// sync is one durable job of the jobs table. A scheduled sync is that job queued with its time to run
// (run_after); asking for a sync while it waits brings the same job forward; when a sync ends, the next
// is queued `minutes` later unless a job already waits. So a source has at most one waiting job, a
// due one is claimed by one worker (the claim leases it), and none is queued while one runs.
import { Type } from '@sinclair/typebox';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import type { Repositories } from '../../repositories.js';

export const ScheduleMinutes = Type.Union([Type.Integer({ minimum: 5, maximum: 10_080 }), Type.Null()], {
  description: 'Minutes between automatic syncs (5 to 10080, a week); null: only when asked',
});

/** The time `minutes` after `at`, as the API writes times. */
export const minutesFrom = (at: string, minutes: number) => new Date(Date.parse(at) + minutes * 60_000).toISOString();

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
export async function hasSyncJob(db: Kysely<DB>, subject: SyncSubject, status: 'queued' | 'running', exceptJobId?: number): Promise<boolean> {
  let query = db.selectFrom('jobs').select('id').where(subject.column, '=', subject.id).where('kind', '=', subject.kind).where('status', '=', status);
  if (exceptJobId !== undefined) query = query.where('id', '!=', exceptJobId);
  return (await query.limit(1).executeTakeFirst()) !== undefined;
}

/** Drops the source's sync jobs that wait (a schedule changed): the running one, if any, goes on. */
export async function dropWaitingSyncJobs(db: Kysely<DB>, subject: SyncSubject): Promise<void> {
  await db.deleteFrom('jobs').where(subject.column, '=', subject.id).where('kind', '=', subject.kind).where('status', '=', 'queued').execute();
}

/** Queues the source's sync to run `minutes` after `at`; answers when it is due. */
export async function queueScheduledSync(repos: Repositories, subject: SyncSubject, organizationId: number, at: string, minutes: number): Promise<string> {
  const due = minutesFrom(at, minutes);
  if (subject.kind === 'connector.sync') await repos.jobs.enqueue('connector.sync', { organizationId, connectorId: subject.id }, at, due);
  else await repos.jobs.enqueue('mailbox.sync', { organizationId, mailboxId: subject.id }, at, due);
  return due;
}
