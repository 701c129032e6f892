import { sql, type Kysely } from 'kysely';
import { nameTaken } from '../../db/conflicts.js';
import type { Dialect } from '../../db/dialect.js';
import { selectSlice } from '../../db/list-slice.js';
import { postgresJsonText, sqliteJsonText, type JsonText } from '../../db/json-text.js';
import { precompiled } from '../../db/precompiled.js';
import type { AgentRow, AgentRowUpdate, AgentStatus, DB, NewAgentRow } from '../../db/schema.js';
import type { ListSlice, ListWindow } from '../../pagination.js';
import { DEFAULT_RETRIEVAL, parseStringArray, type RetrievalSettings } from './agent-config.js';

/**
 * An agent's row as services see it: the conversation starters are a list and the retrieval
 * settings an object, not the JSON text stored; the connected corpora (rows of corpus_agents) come with it.
 */
type JsonFields = 'conversation_starters' | 'retrieval' | 'tool_ids' | 'guardrail_ids';
type Decoded<Row> = Omit<Row, JsonFields> & { conversation_starters: string[]; retrieval: RetrievalSettings; tool_ids: number[]; guardrail_ids: number[]; corpus_ids: number[] };
export type Agent = Decoded<AgentRow>;
export type NewAgent = Omit<Decoded<NewAgentRow>, 'corpus_ids'> & { corpus_ids: number[] };
export type AgentChange = Omit<AgentRowUpdate, JsonFields> & {
  conversation_starters?: string[];
  retrieval?: RetrievalSettings;
  tool_ids?: number[];
  guardrail_ids?: number[];
  /** The connected corpora, replacing those connected now. */
  corpus_ids?: number[];
};
/** A change of one connection, applied under the agent's lock so that concurrent ones all count. */
export type CorpusConnection = { connect: number } | { disconnect: number };

type StoredRow = { id: number; conversation_starters: string; retrieval: string; tool_ids: string; guardrail_ids: string };

function decodeRetrieval(text: string): RetrievalSettings {
  return { ...DEFAULT_RETRIEVAL, ...(JSON.parse(text) as Partial<RetrievalSettings>) };
}

function encodeChange({ conversation_starters: starters, retrieval, tool_ids: toolIds, guardrail_ids: guardrailIds, corpus_ids: _synced, ...fields }: AgentChange): AgentRowUpdate {
  return {
    ...fields,
    ...(starters === undefined ? {} : { conversation_starters: JSON.stringify(starters) }),
    ...(retrieval === undefined ? {} : { retrieval: JSON.stringify(retrieval) }),
    ...(toolIds === undefined ? {} : { tool_ids: JSON.stringify(toolIds) }),
    ...(guardrailIds === undefined ? {} : { guardrail_ids: JSON.stringify(guardrailIds) }),
  };
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
  'a.tool_ids',
  'a.guardrail_ids',
  'a.image_key',
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

/**
 * Run on every read of an agent, compiled once (src/db/precompiled.ts): the agent with its creator's
 * and modifier's e-mails and, in the same statement, the corpora it is connected to ("1,4,7" in
 * ascending order, null for none): one read of the database instead of two. One query per dialect,
 * for the aggregate that joins the ids.
 */
function visibleAgentSelect(json: JsonText, db: Kysely<DB>, organizationId: number, agentId: number) {
  return visibleAgents(db, organizationId)
    .select(AGENT_COLUMNS)
    .select(['creator.email as created_by_email', 'modifier.email as modified_by_email'])
    .select((eb) =>
      eb
        .selectFrom('corpus_agents as link')
        .select(json.joined(sql<string>`cast(link.corpus_id as text)`, sql`link.corpus_id`).as('ids'))
        .where('link.agent_id', '=', eb.ref('a.id'))
        .as('corpus_ids_joined'),
    )
    .where('a.id', '=', agentId);
}
const visibleAgentQuery = (json: JsonText) => precompiled(2, (db: Kysely<DB>, organizationId: number, agentId: number) => visibleAgentSelect(json, db, organizationId, agentId));
const visibleAgent = { sqlite: visibleAgentQuery(sqliteJsonText), postgres: visibleAgentQuery(postgresJsonText) };

/** The same read with the agent's newest history record (the configuration it has now), for an answer: one statement, not two. */
const answeringAgentQuery = (json: JsonText) =>
  precompiled(2, (db: Kysely<DB>, organizationId: number, agentId: number) =>
    visibleAgentSelect(json, db, organizationId, agentId).select((eb) =>
      eb
        .selectFrom('agent_history as h')
        .select('h.id')
        .where('h.agent_id', '=', eb.ref('a.id'))
        .where('h.organization_id', '=', eb.ref('a.organization_id'))
        .orderBy('h.id', 'desc')
        .limit(1)
        .as('latest_history_id'),
    ),
  );
const answeringAgent = { sqlite: answeringAgentQuery(sqliteJsonText), postgres: answeringAgentQuery(postgresJsonText) };

const parseJoinedIds = (joined: string | null): number[] => (joined === null ? [] : joined.split(',').map(Number));

const parseIds = (text: string): number[] => (JSON.parse(text) as unknown[]).filter((id): id is number => Number.isSafeInteger(id));

function decodeRow<Row extends StoredRow>(row: Row, corpusIds: number[]): Omit<Row, JsonFields> & Decoded<StoredRow> {
  return {
    ...row,
    conversation_starters: parseStringArray(row.conversation_starters),
    retrieval: decodeRetrieval(row.retrieval),
    tool_ids: parseIds(row.tool_ids),
    guardrail_ids: parseIds(row.guardrail_ids),
    corpus_ids: corpusIds,
  };
}

export class AgentsRepo {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly dialect: Dialect,
  ) {}

  private visible(organizationId: number) {
    return visibleAgents(this.db, organizationId);
  }

  async findVisible(organizationId: number, agentId: number) {
    const row = (await visibleAgent[this.dialect.name](this.db, organizationId, agentId))[0];
    if (!row) return undefined;
    const { corpus_ids_joined: joined, ...agent } = row;
    return decodeRow(agent, parseJoinedIds(joined));
  }

  /** The agent as findVisible reads it, and the id of its newest history record (null for none). */
  async findVisibleForAnswer(organizationId: number, agentId: number) {
    const row = (await answeringAgent[this.dialect.name](this.db, organizationId, agentId))[0];
    if (!row) return undefined;
    const { corpus_ids_joined: joined, latest_history_id: latestHistoryId, ...agent } = row;
    return { agent: decodeRow(agent, parseJoinedIds(joined)), latestHistoryId };
  }

  /** Decodes rows, with the corpora each agent is connected to, read for all of them at once. */
  private async decode<Row extends StoredRow>(rows: Row[]): Promise<(Omit<Row, JsonFields> & Decoded<StoredRow>)[]> {
    if (rows.length === 0) return [];
    const links = await this.db
      .selectFrom('corpus_agents')
      .select(['agent_id', 'corpus_id'])
      .where(
        'agent_id',
        'in',
        rows.map((row) => row.id),
      )
      .orderBy('corpus_id')
      .execute();
    const corporaOf = new Map<number, number[]>();
    for (const link of links) corporaOf.set(link.agent_id, [...(corporaOf.get(link.agent_id) ?? []), link.corpus_id]);
    return rows.map((row) => decodeRow(row, corporaOf.get(row.id) ?? []));
  }

  /** Agents of the organization that carry this alias (aliases are not unique). */
  async idsWithAlias(organizationId: number, alias: string): Promise<number[]> {
    const rows = await this.visible(organizationId).select('a.id').where('a.alias', '=', alias).orderBy('a.id').execute();
    return rows.map((row) => row.id);
  }

  /** Of these corpus ids, those of corpora of the organization (ascending). */
  async existingCorpora(organizationId: number, corpusIds: number[]): Promise<number[]> {
    if (corpusIds.length === 0) return [];
    const rows = await this.db.selectFrom('corpora').select('id').where('organization_id', '=', organizationId).where('id', 'in', corpusIds).orderBy('id').execute();
    return rows.map((row) => row.id);
  }

  /** Which of these ids name a tool or a guardrail of the organization, ascending. */
  async existingIn(table: 'tools' | 'guardrails', organizationId: number, ids: number[]): Promise<number[]> {
    if (ids.length === 0) return [];
    const rows = await this.db.selectFrom(table).select('id').where('organization_id', '=', organizationId).where('id', 'in', ids).orderBy('id').execute();
    return rows.map((row) => row.id);
  }

  async llmConfigurationExists(organizationId: number, configurationId: number): Promise<boolean> {
    const row = await this.db.selectFrom('llm_configurations').select('id').where('organization_id', '=', organizationId).where('id', '=', configurationId).executeTakeFirst();
    return row !== undefined;
  }

  /** Makes the agent's connections exactly these corpora; connections kept keep their date and author. */
  private async replaceCorpora(agentId: number, corpusIds: number[], by: number, at: string): Promise<void> {
    let removal = this.db.deleteFrom('corpus_agents').where('agent_id', '=', agentId);
    if (corpusIds.length > 0) removal = removal.where('corpus_id', 'not in', corpusIds);
    await removal.execute();
    await this.connect(agentId, corpusIds, by, at);
  }

  /** Connects the corpora not connected yet; those connected keep their date and author. */
  private async connect(agentId: number, corpusIds: number[], by: number, at: string): Promise<void> {
    if (corpusIds.length === 0) return;
    await this.db
      .insertInto('corpus_agents')
      .values(corpusIds.map((corpusId) => ({ corpus_id: corpusId, agent_id: agentId, created_on: at, created_by: by })))
      .onConflict((oc) => oc.columns(['corpus_id', 'agent_id']).doNothing())
      .execute();
  }

  private async applyConnection(agentId: number, connection: CorpusConnection, by: number, at: string): Promise<void> {
    if ('connect' in connection) {
      await this.connect(agentId, [connection.connect], by, at);
    } else {
      await this.db.deleteFrom('corpus_agents').where('agent_id', '=', agentId).where('corpus_id', '=', connection.disconnect).execute();
    }
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
    return { items: await this.decode(items), total };
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

  async insert({ corpus_ids: corpusIds, ...agent }: NewAgent): Promise<Agent> {
    let row;
    try {
      row = await this.db
        .insertInto('agents')
        .values({
          ...agent,
          conversation_starters: JSON.stringify(agent.conversation_starters),
          retrieval: JSON.stringify(agent.retrieval),
          tool_ids: JSON.stringify(agent.tool_ids),
          guardrail_ids: JSON.stringify(agent.guardrail_ids),
        })
        .returningAll()
        .executeTakeFirstOrThrow();
    } catch (error) {
      throw nameTaken(this.dialect, error, 'an agent', agent.name);
    }
    await this.replaceCorpora(row.id, corpusIds, agent.created_by, agent.created_on);
    return (await this.decode([row]))[0]!;
  }

  /**
   * Changes an agent and increments its version in one statement. The statement takes the row's
   * write lock (PostgreSQL) or runs inside the single writer (SQLite), so concurrent changes of one
   * agent are serialised and each gets its own version. With expectedVersion, nothing changes
   * unless the agent is still at that version. Connections to corpora change after the row, under
   * its lock. Undefined when no row matched.
   */
  async changeAndBumpVersion(
    organizationId: number,
    agentId: number,
    fields: AgentChange,
    change: { userId: number; at: string; expectedVersion?: number | undefined; connection?: CorpusConnection | undefined },
  ): Promise<Agent | undefined> {
    let query = this.db
      .updateTable('agents')
      .set((eb) => ({ ...encodeChange(fields), version: eb('version', '+', 1), modified_on: change.at, modified_by: change.userId }))
      .where('organization_id', '=', organizationId)
      .where('id', '=', agentId)
      .where('deleted_on', 'is', null);
    if (change.expectedVersion !== undefined) query = query.where('version', '=', change.expectedVersion);
    let row;
    try {
      row = await query.returningAll().executeTakeFirst();
    } catch (error) {
      throw nameTaken(this.dialect, error, 'an agent', fields.name);
    }
    if (!row) return undefined;
    if (fields.corpus_ids !== undefined) await this.replaceCorpora(agentId, fields.corpus_ids, change.userId, change.at);
    if (change.connection) await this.applyConnection(agentId, change.connection, change.userId, change.at);
    return (await this.decode([row]))[0];
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

export type AgentWithUsers = Omit<Awaited<ReturnType<typeof visibleAgent.sqlite>>[number], JsonFields | 'corpus_ids_joined'> & Decoded<StoredRow>;
