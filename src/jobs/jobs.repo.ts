// The jobs table: durable work with leases. A job is claimed by setting a lease; a worker that dies
// leaves a lease that expires, and the job is claimed again.
import type { Kysely } from 'kysely';
import type { Dialect } from '../db/dialect.js';
import type { DB, JobRow } from '../db/schema.js';

export interface NewJob {
  organization_id: number;
  kind: string;
  document_id: number | null;
  max_attempts: number;
  run_after: string;
}

export class JobsRepo {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly dialect: Dialect,
  ) {}

  async enqueue(job: NewJob, at: string): Promise<void> {
    await this.db
      .insertInto('jobs')
      .values({ ...job, status: 'queued', created_on: at, modified_on: at })
      .execute();
  }

  /** Claims up to `limit` jobs that are due, or whose lease has expired, for `owner` until `leaseUntil`. */
  claim(owner: string, at: string, leaseUntil: string, limit: number): Promise<JobRow[]> {
    return this.db
      .updateTable('jobs')
      .set((eb) => ({
        status: 'running',
        lease_owner: owner,
        lease_expires_on: leaseUntil,
        attempts: eb('attempts', '+', 1),
        modified_on: at,
      }))
      .where('id', 'in', (eb) =>
        this.dialect.skipLocked(
          eb
            .selectFrom('jobs')
            .select('id')
            .where((w) =>
              w.or([
                w.and([w('status', '=', 'queued'), w('run_after', '<=', at)]),
                w.and([w('status', '=', 'running'), w('lease_expires_on', '<', at)]),
              ]),
            )
            .orderBy('id')
            .limit(limit),
        ),
      )
      .returningAll()
      .execute();
  }

  async renewLease(jobId: number, owner: string, leaseUntil: string): Promise<void> {
    await this.db.updateTable('jobs').set({ lease_expires_on: leaseUntil }).where('id', '=', jobId).where('lease_owner', '=', owner).execute();
  }

  /** Ends a job this owner still holds; false when the lease was lost to another worker meanwhile. */
  async finish(jobId: number, owner: string, status: 'done' | 'failed', at: string, error: string | null = null): Promise<boolean> {
    const result = await this.db
      .updateTable('jobs')
      .set({ status, lease_owner: null, lease_expires_on: null, last_error: error, modified_on: at })
      .where('id', '=', jobId)
      .where('lease_owner', '=', owner)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async retryLater(jobId: number, owner: string, runAfter: string, error: string, at: string): Promise<void> {
    await this.db
      .updateTable('jobs')
      .set({ status: 'queued', run_after: runAfter, lease_owner: null, lease_expires_on: null, last_error: error, modified_on: at })
      .where('id', '=', jobId)
      .where('lease_owner', '=', owner)
      .execute();
  }

  /** Makes every running job claimable at once: for a start on SQLite, where no other process can hold one. */
  async releaseAllLeases(at: string): Promise<number> {
    const result = await this.db
      .updateTable('jobs')
      .set({ lease_expires_on: at })
      .where('status', '=', 'running')
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  }
}
