import type { Kysely } from 'kysely';
import { nameTaken } from '../../db/conflicts.js';
import type { Dialect } from '../../db/dialect.js';
import { selectSlice } from '../../db/list-slice.js';
import { precompiled } from '../../db/precompiled.js';
import type { AgentRow, AgentRowUpdate, AgentStatus, DB, NewAgentRow } from '../../db/schema.js';
import type { ListSlice, ListWindow } from '../../pagination.js';
import { parseStringArray } from './agent-config.js';

/** An agent's row as services see it: the conversation starters are a list, not the JSON text stored. */
type Decoded<Row> = Omit<Row, 'conversation_starters'> & { conversation_starters: string[] };
export type Agent = Decoded<AgentRow>;
export type NewAgent = Decoded<NewAgentRow>;
export type AgentChange = Omit<AgentRowUpdate, 'conversation_starters'> & { conversation_starters?: string[] };

function decodeAgent<Row extends { conversation_starters: string }>(row: Row): Decoded<Row> {
  return { ...row, conversation_starters: parseStringArray(row.conversation_starters) };
}

function encodeChange({ conversation_starters: starters, ...fields }: AgentChange): AgentRowUpdate {
  return starters === undefined ? fields : { ...fields, conversation_starters: JSON.stringify(starters) };
}

export type AgentSortField = 'name' | 'created_on' | 'modified_on' | 'id';

export interface AgentFilter {
  q?: string | undefined;
  statuses?: AgentStatus[] | undefined;
  ids?: number[] | undefined;
  createdBy?: number[] | undefined;
  createdAfter?: string | undefined;
  createdBefore?: string | undefined;
  modifiedAfter?: string | undefined;
  modifiedBefore?: string | undefined;
  teamIds?: number[] | undefined;
  projectIds?: number[] | undefined;
  /** Agents this user may use: those of the user's teams and those of no team. */
  accessibleTo?: number | undefined;
  sort?: { field: AgentSortField; direction: 'asc' | 'desc' } | undefined;
}

const AGENT_COLUMNS = [
  'a.id',
  'a.organization_id',
  'a.name',
  'a.description',
  'a.instructions',
  'a.model_name',
  'a.temperature',
  'a.max_tokens',
  'a.conversation_starters',
  'a.alias',
  'a.status',
  'a.version',
  'a.created_on',
  'a.created_by',
  'a.modified_on',
  'a.modified_by',
  'a.deleted_on',
  'a.team_id',
  'a.project_id',
  'a.llm_configuration_id',
  'a.retrieval',
] as const;

/** Agents of the organization that are not deleted, with their creators' and modifiers' e-mails. */
function visibleAgents(db: Kysely<DB>, organizationId: number) {
  return db
    .selectFrom('agents as a')
    .innerJoin('users as creator', 'creator.id', 'a.created_by')
    .innerJoin('users as modifier', 'modifier.id', 'a.modified_by')
    .where('a.organization_id', '=', organizationId)
    .where('a.deleted_on', 'is', null);
}

// Run on every read of an agent: compiled once (src/db/precompiled.ts).
const visibleAgent = precompiled(2, (db: Kysely<DB>, organizationId: number, agentId: number) =>
  visibleAgents(db, organizationId)
    .select(AGENT_COLUMNS)
    .select(['creator.email as created_by_email', 'modifier.email as modified_by_email'])
    .where('a.id', '=', agentId),
);

export class AgentsRepo {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly dialect: Dialect,
  ) {}

  private visible(organizationId: number) {
    return visibleAgents(this.db, organizationId);
  }

  async findVisible(organizationId: number, agentId: number) {
    const row = (await visibleAgent(this.db, organizationId, agentId))[0];
    return row && decodeAgent(row);
  }

  async exists(organizationId: number, agentId: number): Promise<boolean> {
    const row = await this.db
      .selectFrom('agents')
      .select('id')
      .where('organization_id', '=', organizationId)
      .where('id', '=', agentId)
      .where('deleted_on', 'is', null)
      .executeTakeFirst();
    return row !== undefined;
  }

  async list(organizationId: number, filter: AgentFilter, window: ListWindow): Promise<ListSlice<AgentWithUsers>> {
    const sort = filter.sort ?? { field: 'modified_on', direction: 'desc' };
    const query = this.filtered(organizationId, filter)
      .select(AGENT_COLUMNS)
      .select(['creator.email as created_by_email', 'modifier.email as modified_by_email'])
      .orderBy(`a.${sort.field}`, sort.direction)
      .orderBy('a.id', sort.direction);
    const { items, total } = await selectSlice(query, window);
    return { items: items.map(decodeAgent), total };
  }

  private filtered(organizationId: number, filter: AgentFilter) {
    let query = this.visible(organizationId);
    if (filter.q) {
      const pattern = filter.q;
      query = query.where((eb) =>
        eb.or([
          this.dialect.containsIgnoringCase(eb.ref('a.name'), pattern),
          this.dialect.containsIgnoringCase(eb.ref('a.description'), pattern),
        ]),
      );
    }
    if (filter.statuses?.length) query = query.where('a.status', 'in', filter.statuses);
    if (filter.ids?.length) query = query.where('a.id', 'in', filter.ids);
    if (filter.createdBy?.length) query = query.where('a.created_by', 'in', filter.createdBy);
    if (filter.createdAfter) query = query.where('a.created_on', '>=', filter.createdAfter);
    if (filter.createdBefore) query = query.where('a.created_on', '<', filter.createdBefore);
    if (filter.modifiedAfter) query = query.where('a.modified_on', '>=', filter.modifiedAfter);
    if (filter.modifiedBefore) query = query.where('a.modified_on', '<', filter.modifiedBefore);
    if (filter.teamIds?.length) query = query.where('a.team_id', 'in', filter.teamIds);
    if (filter.projectIds?.length) query = query.where('a.project_id', 'in', filter.projectIds);
    if (filter.accessibleTo !== undefined) {
      const userId = filter.accessibleTo;
      query = query.where((eb) =>
        eb.or([
          eb('a.team_id', 'is', null),
          eb('a.team_id', 'in', eb.selectFrom('team_members as tm').select('tm.team_id').where('tm.organization_id', '=', organizationId).where('tm.user_id', '=', userId)),
        ]),
      );
    }
    return query;
  }

  async insert(agent: NewAgent): Promise<Agent> {
    try {
      const row = await this.db
        .insertInto('agents')
        .values({ ...agent, conversation_starters: JSON.stringify(agent.conversation_starters) })
        .returningAll()
        .executeTakeFirstOrThrow();
      return decodeAgent(row);
    } catch (error) {
      throw nameTaken(this.dialect, error, 'an agent', agent.name);
    }
  }

  /**
   * Changes an agent and increments its version in one statement. The statement takes the row's
   * write lock (PostgreSQL) or runs inside the single writer (SQLite), so concurrent changes of one
   * agent are serialised and each gets its own version. With expectedVersion, nothing changes
   * unless the agent is still at that version. Undefined when no row matched.
   */
  async changeAndBumpVersion(
    organizationId: number,
    agentId: number,
    fields: AgentChange,
    change: { userId: number; at: string; expectedVersion?: number | undefined },
  ): Promise<Agent | undefined> {
    let query = this.db
      .updateTable('agents')
      .set((eb) => ({ ...encodeChange(fields), version: eb('version', '+', 1), modified_on: change.at, modified_by: change.userId }))
      .where('organization_id', '=', organizationId)
      .where('id', '=', agentId)
      .where('deleted_on', 'is', null);
    if (change.expectedVersion !== undefined) query = query.where('version', '=', change.expectedVersion);
    try {
      const row = await query.returningAll().executeTakeFirst();
      return row && decodeAgent(row);
    } catch (error) {
      throw nameTaken(this.dialect, error, 'an agent', fields.name);
    }
  }

  async markDeleted(organizationId: number, agentId: number, at: string, userId: number): Promise<boolean> {
    const result = await this.db
      .updateTable('agents')
      .set({ deleted_on: at, modified_on: at, modified_by: userId })
      .where('organization_id', '=', organizationId)
      .where('id', '=', agentId)
      .where('deleted_on', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }
}

export type AgentWithUsers = Decoded<Awaited<ReturnType<typeof visibleAgent>>[number]>;
