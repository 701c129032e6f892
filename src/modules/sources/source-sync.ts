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
import { SyncSuperseded, type SourceAdapter, type SourceRefusal, type SourceSyncKind } from './source-adapter.js';
import type { SourceSyncChange, SourceSyncState } from './source-sync.repo.js';

/** The job's own sync, found running: stopped midway, it goes on. A sync running with no job recorded began before jobs were recorded: it is this one. */
const resumes = (source: SourceSyncState, jobId: number) => source.sync_status === 'running' && (source.sync_job_id === jobId || source.sync_job_id === null);

export class SourceSync<K extends SourceSyncKind, Row extends SourceSyncState> implements JobHandler<K> {
  /** Waits out a Retry-After; tests replace it to record the delays instead of sleeping. */
  wait: (ms: number, signal?: AbortSignal) => Promise<void> = (ms, signal) => delay(ms, undefined, signal ? { signal } : {});

  constructor(
    private readonly store: UnitOfWork,
    private readonly adapter: SourceAdapter<K, Row>,
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
      const failed: SourceSyncChange = { sync_status: 'failed', sync_finished_on: at, sync_error_code: null, sync_error: `The sync stopped: ${reason}`.slice(0, 500) };
      await repos.sourceSync.update(this.adapter.table, organizationId, sourceId, { ...this.ended(), ...failed });
      await this.queueNextScheduled(repos, organizationId, sourceId, at);
    });
  }

  /**
   * The source with this job's sync started; the job's own sync found running (stopped midway) goes
   * on as it was. Another job's sync running (two jobs claimed at once): nothing, this job just ends.
   */
  private async begin(organizationId: number, sourceId: number, jobId: number): Promise<Row | undefined> {
    const { repos } = this.store;
    const current = await this.adapter.find(repos, organizationId, sourceId);
    if (!current) return undefined;
    if (!resumes(current, jobId)) {
      const started = await repos.sourceSync.start(this.adapter.table, organizationId, sourceId, jobId, {
        ...this.adapter.started(current),
        sync_number: current.sync_number + 1,
        sync_started_on: now(),
        sync_finished_on: null,
        sync_added: 0,
        sync_updated: 0,
        sync_removed: 0,
        sync_failed: 0,
        sync_failures: '[]',
        sync_error_code: null,
        sync_error: null,
      });
      if (!started) return undefined;
    }
    return this.adapter.find(repos, organizationId, sourceId);
  }

  /** Ends the sync: its outcome on the source, the next scheduled sync queued, and the job done, together. */
  private async finish(source: Row, complete: CompleteJob, outcome: { succeeded: SourceSyncChange } | { refusal: SourceRefusal } | 'superseded'): Promise<void> {
    const at = now();
    const { organization_id: organizationId, id: sourceId } = source;
    const { table } = this.adapter;
    let requeued = false;
    await this.store.transaction(async (repos) => {
      const written =
        outcome !== 'superseded' && (await this.adapter.writeEnd(repos, source, { ...this.endOf(outcome), sync_finished_on: at }, 'refusal' in outcome ? outcome.refusal : undefined));
      if (written) await this.queueNextScheduled(repos, organizationId, sourceId, at);
      else if (await repos.sourceSync.find(table, organizationId, sourceId)) {
        // Superseded: the new state's sync is queued in this one's place.
        await repos.sourceSync.update(table, organizationId, sourceId, { ...this.ended(), sync_status: 'queued', next_sync_on: null });
        await queueSyncNow(repos, this.adapter.subject(sourceId), organizationId, at);
        requeued = true;
      }
      await complete(repos);
    });
    if (requeued) this.onEnqueued();
  }

  /** The sync columns of every sync that ended: no job's sync runs any more, and the source's own part. */
  private ended(): SourceSyncChange {
    return { sync_job_id: null, ...this.adapter.ended() };
  }

  /** The row's fields of a sync that succeeded or was refused. */
  private endOf(outcome: { succeeded: SourceSyncChange } | { refusal: SourceRefusal }): SourceSyncChange {
    if ('succeeded' in outcome) return { ...this.ended(), ...outcome.succeeded, sync_status: 'succeeded', sync_error_code: null, sync_error: null };
    const { refusal } = outcome;
    return { ...this.ended(), sync_status: 'failed', sync_error_code: refusal.code, sync_error: refusal.message.slice(0, 500) };
  }

  /** After a sync ends: the next one queued by the source's schedule, unless a job already waits. */
  private async queueNextScheduled(repos: Repositories, organizationId: number, sourceId: number, at: string): Promise<void> {
    const { table } = this.adapter;
    const subject = this.adapter.subject(sourceId);
    const current = await repos.sourceSync.find(table, organizationId, sourceId);
    if (!current || current.schedule_minutes === null || (await repos.syncJobs.hasWaiting(subject))) return;
    const due = await queueScheduledSync(repos, subject, organizationId, at, current.schedule_minutes);
    await repos.sourceSync.update(table, organizationId, sourceId, { next_sync_on: due });
  }
}
