// The sources engine: the sync job of every source of documents (a document library, a mailbox),
// with an adapter per kind (adapters/). It starts the sync on the source's row (counters at zero),
// lets the adapter bring the corpus to match the source, and ends it: the outcome on the row, the next
// scheduled sync queued, and the job done, in one transaction. A sync stopped midway (a restart, a
// lost lease) is found running by its job and goes on where the adapter recorded it was. A provider's
// refusal ends the sync as failed with a code on the source; the job itself then succeeds (trying
// again at once would meet the same refusal): the schedule, if any, tries later. A source changed
// under its sync (a re-authorization) writes no outcome: a sync of its new state is queued instead.
import { setTimeout as delay } from 'node:timers/promises';
import { now } from '../../clock.js';
import type { CompleteJob, JobHandler } from '../../jobs/job-handler.js';
import type { Job } from '../../jobs/job-types.js';
import type { Repositories, UnitOfWork } from '../../repositories.js';
import { queueScheduledSync, queueSyncNow } from './schedule.js';
import { SyncSuperseded, type SourceAdapter, type SourceRefusal, type SourceState, type SourceSyncKind, type SyncStateChange } from './source-adapter.js';

export class SourceSync<K extends SourceSyncKind, Row extends SourceState, Change extends SyncStateChange> implements JobHandler<K> {
  /** Waits out a Retry-After; tests replace it to record the delays instead of sleeping. */
  wait: (ms: number, signal?: AbortSignal) => Promise<void> = (ms, signal) => delay(ms, undefined, signal ? { signal } : {});

  constructor(
    private readonly store: UnitOfWork,
    private readonly adapter: SourceAdapter<K, Row, Change>,
    /** Wakes the worker when a sync is queued. */
    private readonly onEnqueued: () => void,
  ) {}

  // `stopping` is optional so that a worker which passes none still runs syncs (they then cannot be stopped midway).
  async run(job: Job<K>, complete: CompleteJob, stopping: AbortSignal = new AbortController().signal): Promise<void> {
    const { organizationId, sourceId } = this.adapter.sourceOf(job.payload);
    const source = await this.begin(organizationId, sourceId, job.id);
    if (!source) return;
    try {
      const succeeded = await this.adapter.sync(source, { stopping, wait: (ms, signal) => this.wait(ms, signal) });
      await this.finish(source, complete, { succeeded });
    } catch (error) {
      if (error instanceof SyncSuperseded) return this.finish(source, complete, 'superseded');
      const refusal = this.adapter.refusalOf(error);
      if (stopping.aborted || refusal === undefined) throw error;
      await this.finish(source, complete, { refusal });
    }
  }

  /** The job failed for good (the database's faults): the sync ends failed, and the schedule goes on. */
  async onFailed(job: Job<K>, reason: string): Promise<void> {
    const { organizationId, sourceId } = this.adapter.sourceOf(job.payload);
    const at = now();
    await this.store.transaction(async (repos) => {
      const failed: SyncStateChange = { sync_status: 'failed', sync_finished_on: at, sync_error_code: null, sync_error: `The sync stopped: ${reason}`.slice(0, 500) };
      await this.adapter.table(repos).update(organizationId, sourceId, { ...this.adapter.ended({}), ...failed } as Change);
      await this.queueNextScheduled(repos, organizationId, sourceId, at);
    });
  }

  /**
   * The source with this job's sync started; the job's own sync found running (stopped midway) goes
   * on as it was. Another job's sync running (two jobs claimed at once): nothing, this job just ends.
   */
  private async begin(organizationId: number, sourceId: number, jobId: number): Promise<Row | undefined> {
    const table = this.adapter.table(this.store.repos);
    const current = await table.find(organizationId, sourceId);
    if (!current) return undefined;
    if (!this.adapter.resumes(current, jobId)) {
      const started = await this.adapter.start(this.store.repos, current, jobId, {
        sync_number: current.sync_number + 1,
        sync_started_on: now(),
        sync_finished_on: null,
        sync_added: 0,
        sync_removed: 0,
        sync_failed: 0,
        sync_error_code: null,
        sync_error: null,
      });
      if (!started) return undefined;
    }
    return table.find(organizationId, sourceId);
  }

  /** Ends the sync: its outcome on the source, the next scheduled sync queued, and the job done, together. */
  private async finish(source: Row, complete: CompleteJob, outcome: { succeeded: Change } | { refusal: SourceRefusal } | 'superseded'): Promise<void> {
    const at = now();
    const { organization_id: organizationId, id: sourceId } = source;
    let requeued = false;
    await this.store.transaction(async (repos) => {
      const written = outcome !== 'superseded' && (await this.adapter.writeEnd(repos, source, { ...this.endOf(outcome), sync_finished_on: at }));
      if (written) await this.queueNextScheduled(repos, organizationId, sourceId, at);
      else if (await this.adapter.table(repos).find(organizationId, sourceId)) {
        // Superseded: the new state's sync is queued in this one's place.
        await this.adapter.table(repos).update(organizationId, sourceId, { ...this.adapter.ended({}), sync_status: 'queued', next_sync_on: null } as Change);
        await queueSyncNow(repos, this.adapter.subject(sourceId), organizationId, at);
        requeued = true;
      }
      await complete(repos);
    });
    if (requeued) this.onEnqueued();
  }

  /** The row's fields of a sync that succeeded or was refused. */
  private endOf(outcome: { succeeded: Change } | { refusal: SourceRefusal }): Change {
    if ('succeeded' in outcome) return { ...this.adapter.ended({}), ...outcome.succeeded, sync_status: 'succeeded', sync_error_code: null, sync_error: null };
    const { refusal } = outcome;
    return { ...this.adapter.ended({ refusal }), sync_status: 'failed', sync_error_code: refusal.code, sync_error: refusal.message.slice(0, 500) };
  }

  /** After a sync ends: the next one queued by the source's schedule, unless a job already waits. */
  private async queueNextScheduled(repos: Repositories, organizationId: number, sourceId: number, at: string): Promise<void> {
    const table = this.adapter.table(repos);
    const subject = this.adapter.subject(sourceId);
    const current = await table.find(organizationId, sourceId);
    if (!current || current.schedule_minutes === null || (await repos.syncJobs.hasWaiting(subject))) return;
    const due = await queueScheduledSync(repos, subject, organizationId, at, current.schedule_minutes);
    await table.update(organizationId, sourceId, { next_sync_on: due } as Change);
  }
}
