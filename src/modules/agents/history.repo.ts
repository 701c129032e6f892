import type { Insertable, Kysely } from 'kysely';
import type { AgentHistoryTable, DB } from '../../db/schema.js';
import { offsetOf, type PageRequest } from '../../pagination.js';

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

  async append(record: Insertable<AgentHistoryTable>): Promise<number> {
    const row = await this.db.insertInto('agent_history').values(record).returning('id').executeTakeFirstOrThrow();
    return row.id;
  }

  async list(organizationId: number, agentId: number, page: PageRequest) {
    const { total } = await this.ofAgent(organizationId, agentId)
      .select((eb) => eb.fn.countAll<number>().as('total'))
      .executeTakeFirstOrThrow();
    const rows = await this.ofAgent(organizationId, agentId)
      .select(RECORD_COLUMNS)
      .orderBy('h.id', 'desc')
      .limit(page.page_size)
      .offset(offsetOf(page))
      .execute();
    return { rows, total: Number(total) };
  }

  find(organizationId: number, agentId: number, historyId: number) {
    return this.ofAgent(organizationId, agentId).select([...RECORD_COLUMNS, 'h.snapshot']).where('h.id', '=', historyId).executeTakeFirst();
  }

  /** Every record's snapshot, newest first: the source of the prompt history. */
  listWithSnapshots(organizationId: number, agentId: number) {
    return this.ofAgent(organizationId, agentId).select([...RECORD_COLUMNS, 'h.snapshot']).orderBy('h.id', 'desc').execute();
  }
}

export type HistoryRecordRow = Awaited<ReturnType<HistoryRepo['list']>>['rows'][number];
