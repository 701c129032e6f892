// The sync columns of a source's row (SourceSyncColumns: the same on connectors and mailboxes), as the
// sources engine and its adapters read and write them, whichever table the source is kept in.
import type { Kysely, Selectable, Updateable } from 'kysely';
import type { DB, SourceSyncColumns } from '../../db/schema.js';

/** The tables that keep sources, each with the sync columns. */
export type SourceTableName = 'connectors' | 'mailboxes';

/** A source's sync, as read from its row, with whose source it is. */
export type SourceSyncState = Selectable<SourceSyncColumns> & { id: number; organization_id: number; corpus_id: number; created_by: number };

/** What is written of a source's sync. */
export type SourceSyncChange = Updateable<SourceSyncColumns>;

/** The counters of the sync under way, each bumped in the transaction of what it counts. */
export type SyncCounter = 'sync_added' | 'sync_updated' | 'sync_removed' | 'sync_failed';

export class SourceSyncRepo {
  constructor(private readonly db: Kysely<DB>) {}

  private updateOf(table: SourceTableName, organizationId: number, sourceId: number, fields: SourceSyncChange) {
    return this.db.updateTable(table).set(fields).where('organization_id', '=', organizationId).where('id', '=', sourceId);
  }

  find(table: SourceTableName, organizationId: number, sourceId: number): Promise<SourceSyncState | undefined> {
    return this.db.selectFrom(table).selectAll().where('organization_id', '=', organizationId).where('id', '=', sourceId).executeTakeFirst();
  }

  async update(table: SourceTableName, organizationId: number, sourceId: number, fields: SourceSyncChange): Promise<void> {
    await this.updateOf(table, organizationId, sourceId, fields).execute();
  }

  /**
   * Starts the job's sync unless a sync runs: false then. One statement, so that of two jobs claimed
   * at once only one starts.
   */
  async start(table: SourceTableName, organizationId: number, sourceId: number, jobId: number, fields: SourceSyncChange): Promise<boolean> {
    const result = await this.updateOf(table, organizationId, sourceId, { ...fields, sync_status: 'running', sync_job_id: jobId })
      .where('sync_status', '!=', 'running')
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async bump(table: SourceTableName, sourceId: number, counter: SyncCounter, by = 1): Promise<void> {
    if (by === 0) return;
    await this.db
      .updateTable(table)
      .set((eb) => ({ [counter]: eb(counter, '+', by) }))
      .where('id', '=', sourceId)
      .execute();
  }
}
