// The schedule of a synced source (a document library's connector, a mailbox), shared by both: its
// sync is one durable job of the jobs table. A scheduled sync is that job queued with its time to run
// (run_after); asking for a sync while it waits brings the same job forward; when a sync ends, the next
// is queued `minutes` later unless a job already waits. So a source has at most one waiting job, a
// due one is claimed by one worker (the claim leases it), and none is queued while one runs. The
// queries on the jobs table are sync-jobs.repo.ts's.
import { Type } from '@sinclair/typebox';
import type { Repositories } from '../../repositories.js';
import type { SyncSubject } from './sync-jobs.repo.js';

export const ScheduleMinutes = Type.Union([Type.Integer({ minimum: 5, maximum: 10_080 }), Type.Null()], {
  description: 'Minutes between automatic syncs (5 to 10080, a week); null: only when asked',
});

/** The time `minutes` after `at`, as the API writes times. */
export const minutesFrom = (at: string, minutes: number) => new Date(Date.parse(at) + minutes * 60_000).toISOString();

/** Queues a sync job of the source, to run at `runAfter`. */
function enqueueSync(repos: Repositories, subject: SyncSubject, organizationId: number, at: string, runAfter: string): Promise<void> {
  if (subject.kind === 'connector.sync') return repos.jobs.enqueue('connector.sync', { organizationId, connectorId: subject.id }, at, runAfter);
  return repos.jobs.enqueue('mailbox.sync', { organizationId, mailboxId: subject.id }, at, runAfter);
}

/** Queues the source's sync to run `minutes` after `at`; answers when it is due. */
export async function queueScheduledSync(repos: Repositories, subject: SyncSubject, organizationId: number, at: string, minutes: number): Promise<string> {
  const due = minutesFrom(at, minutes);
  await enqueueSync(repos, subject, organizationId, at, due);
  return due;
}

/** The source's waiting sync job brought forward to `at`, or a job queued for `at` when none waits. */
export async function queueSyncNow(repos: Repositories, subject: SyncSubject, organizationId: number, at: string): Promise<void> {
  if (!(await repos.syncJobs.bringForward(subject, at))) await enqueueSync(repos, subject, organizationId, at, at);
}
