// The sync jobs of a synced source (a connector, a mailbox) on the jobs table, for the schedule both
// share (schedule.ts): the source's waiting job brought forward, looked for, or dropped.
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';

/** A source's sync jobs: their kind, and the jobs column naming the source. */
export type SyncSubject = { kind: 'connector.sync'; column: 'connector_id'; id: number } | { kind: 'mailbox.sync'; column: 'mailbox_id'; id: number };

export const connectorSubject = (id: number): SyncSubject => ({ kind: 'connector.sync', column: 'connector_id', id });
export const mailboxSubject = (id: number): SyncSubject => ({ kind: 'mailbox.sync', column: 'mailbox_id', id });

export class SyncJobsRepo {
  constructor(private readonly db: Kysely<DB>) {}

  /** Brings a scheduled sync job forward to `at`; false when the source has no waiting job. */
  async bringForward(subject: SyncSubject, at: string): Promise<boolean> {
    const result = await this.db
      .updateTable('jobs')
      .set({ run_after: at, modified_on: at })
      .where(subject.column, '=', subject.id)
      .where('kind', '=', subject.kind)
      .where('status', '=', 'queued')
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** Whether the source has a sync job waiting to be claimed. */
  async hasWaiting(subject: SyncSubject): Promise<boolean> {
    const row = await this.db.selectFrom('jobs').select('id').where(subject.column, '=', subject.id).where('kind', '=', subject.kind).where('status', '=', 'queued').limit(1).executeTakeFirst();
    return row !== undefined;
  }

  /** Drops the source's sync jobs that wait (a schedule changed): the running one, if any, goes on. */
  async dropWaiting(subject: SyncSubject): Promise<void> {
    await this.db.deleteFrom('jobs').where(subject.column, '=', subject.id).where('kind', '=', subject.kind).where('status', '=', 'queued').execute();
  }
}
