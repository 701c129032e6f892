import type { Insertable, Kysely } from 'kysely';
import { selectSlice } from '../../db/list-slice.js';
import type { AgentHistoryTable, DB } from '../../db/schema.js';
import type { ListWindow } from '../../pagination.js';
import { completeSnapshot, type AgentSnapshot, type StoredSnapshot } from './agent-config.js';

/** A history record to append: the snapshot is the agent's configuration, stored as JSON here. */
export type NewHistoryRecord = Omit<Insertable<AgentHistoryTable>, 'snapshot'> & { snapshot: AgentSnapshot };

const RECORD_COLUMNS = [
  'h.id',
  'h.agent_id',
  'h.version',
  'h.kind',
  'h.checkpoint_name',
  'h.description',
  'h.restored_from_id',
  'h.created_on',
  'u.email as created_by_email',
] as const;

function decodeSnapshot<Row extends { snapshot: string }>(row: Row): Omit<Row, 'snapshot'> & { snapshot: StoredSnapshot } {
  return { ...row, snapshot: completeSnapshot(JSON.parse(row.snapshot) as Partial<AgentSnapshot>) };
}

/** The append-only history of agents. There is no update or delete here, by design. */
export class HistoryRepo {
  constructor(private readonly db: Kysely<DB>) {}

  private ofAgent(organizationId: number, agentId: number) {
    return this.db
      .selectFrom('agent_history as h')
      .innerJoin('users as u', 'u.id', 'h.created_by')
      .where('h.organization_id', '=', organizationId)
      .where('h.agent_id', '=', agentId);
  }

  async append(record: NewHistoryRecord): Promise<number> {
    const row = await this.db
      .insertInto('agent_history')
      .values({ ...record, snapshot: JSON.stringify(record.snapshot) })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  /** Newest first. */
  list(organizationId: number, agentId: number, window: ListWindow) {
    return selectSlice(this.ofAgent(organizationId, agentId).select(RECORD_COLUMNS).orderBy('h.id', 'desc'), window);
  }

  async find(organizationId: number, agentId: number, historyId: number) {
    const row = await this.ofAgent(organizationId, agentId).select([...RECORD_COLUMNS, 'h.snapshot']).where('h.id', '=', historyId).executeTakeFirst();
    return row && decodeSnapshot(row);
  }

  /** Every record's snapshot, newest first: the source of the prompt history. */
  async listWithSnapshots(organizationId: number, agentId: number) {
    const rows = await this.ofAgent(organizationId, agentId).select([...RECORD_COLUMNS, 'h.snapshot']).orderBy('h.id', 'desc').execute();
    return rows.map(decodeSnapshot);
  }
}

export type HistoryRecordRow = Awaited<ReturnType<HistoryRepo['list']>>['items'][number];
