import { now } from '../../clock.js';
import type { Database } from '../../db/database.js';
import type { AgentRowUpdate, AgentStatus } from '../../db/schema.js';
import { BadRequest, NotFound } from '../../errors.js';
import type { PageRequest, PageResult } from '../../pagination.js';
import type { Actor } from '../auth/actor.js';
import { CONFIGURATION_FIELDS, DEFAULT_CONFIGURATION, snapshotOf } from './agent-config.js';
import { commitAgentChange } from './agent-changes.js';
import { presentAgent } from './agent.presenter.js';
import { agentPolicy, authorize } from './agent.policy.js';
import { AgentsRepo, type AgentFilter, type AgentSortField } from './agents.repo.js';
import type { AgentView, CreateAgentInput, FilterAgentsInput, UpdateAgentInput } from './agents.schemas.js';
import { HistoryRepo } from './history.repo.js';

/** "-modified_on" → modified_on descending. */
export function parseSort(sort: string | undefined): AgentFilter['sort'] {
  if (!sort) return undefined;
  const descending = sort.startsWith('-');
  return { field: (descending ? sort.slice(1) : sort) as AgentSortField, direction: descending ? 'desc' : 'asc' };
}

/** If-Match: "3", W/"3" or 3 name version 3; "*" matches any version. */
export function parseIfMatch(header: string | undefined): number | undefined {
  if (header === undefined || header.trim() === '*') return undefined;
  const match = /^\s*(?:W\/)?"?(\d{1,15})"?\s*$/.exec(header);
  if (!match) throw new BadRequest('If-Match must hold the agent version as its ETag gives it, e.g. "3"', [{ pointer: '/headers/if-match', message: 'is not a version' }]);
  return Number(match[1]);
}

/**
 * The row fields a create or update sets: only configuration fields the client sent. Anything else
 * in the body (id, version, organization_id, created_by…) is not copied, whatever the schema let through.
 */
function configurationUpdate(input: UpdateAgentInput): AgentRowUpdate {
  const fields: Record<string, unknown> = {};
  for (const field of CONFIGURATION_FIELDS) {
    const value = input[field];
    if (value !== undefined) fields[field] = field === 'conversation_starters' ? JSON.stringify(value) : value;
  }
  return fields as AgentRowUpdate;
}

/** The corpora an agent draws on, with their state (the corpora module answers). */
export type CorporaOfAgent = (actor: Actor, agentId: number) => Promise<{ corpus_id: number; name: string; status: string }[]>;

export class AgentsService {
  constructor(
    private readonly database: Database,
    private readonly corporaOf: CorporaOfAgent = async () => [],
  ) {}

  private repo(db = this.database.db) {
    return new AgentsRepo(db, this.database.dialect);
  }

  async create(actor: Actor, input: CreateAgentInput): Promise<AgentView> {
    authorize(agentPolicy.mayCreate(actor), 'Viewers may not create agents');
    const at = now();
    return this.database.db.transaction().execute(async (trx) => {
      const repo = this.repo(trx);
      const agent = await repo.insert({
        organization_id: actor.organizationId,
        ...DEFAULT_CONFIGURATION,
        conversation_starters: JSON.stringify(DEFAULT_CONFIGURATION.conversation_starters),
        ...configurationUpdate(input),
        name: input.name,
        status: input.status ?? 'draft',
        version: 1,
        created_on: at,
        created_by: actor.userId,
        modified_on: at,
        modified_by: actor.userId,
      });
      await new HistoryRepo(trx).append({
        organization_id: actor.organizationId,
        agent_id: agent.id,
        version: 1,
        kind: 'create',
        checkpoint_name: 'Created',
        description: null,
        snapshot: JSON.stringify(snapshotOf(agent)),
        restored_from_id: null,
        created_on: at,
        created_by: actor.userId,
      });
      return presentAgent((await repo.findVisible(actor.organizationId, agent.id))!);
    });
  }

  async get(actor: Actor, agentId: number): Promise<AgentView> {
    const agent = await this.repo().findVisible(actor.organizationId, agentId);
    if (!agent) throw new NotFound('agent', agentId);
    return presentAgent(agent);
  }

  async list(actor: Actor, filter: AgentFilter, page: PageRequest): Promise<PageResult<AgentView>> {
    const { rows, total } = await this.repo().list(actor.organizationId, filter, page);
    return { items: rows.map(presentAgent), page: page.page, page_size: page.page_size, total };
  }

  filter(actor: Actor, body: FilterAgentsInput): Promise<PageResult<AgentView>> {
    const filter: AgentFilter = {
      q: body.q,
      statuses: body.status,
      ids: body.ids,
      createdBy: body.created_by,
      createdAfter: body.created_after,
      createdBefore: body.created_before,
      modifiedAfter: body.modified_after,
      modifiedBefore: body.modified_before,
      sort: parseSort(body.sort),
    };
    return this.list(actor, filter, { page: body.page ?? 1, page_size: body.page_size ?? 20 });
  }

  async update(actor: Actor, agentId: number, input: UpdateAgentInput, expectedVersion?: number): Promise<AgentView> {
    await this.get(actor, agentId);
    authorize(agentPolicy.mayChange(actor), 'Viewers may not change agents');
    return this.database.db.transaction().execute(async (trx) => {
      await commitAgentChange(trx, this.database.dialect, actor, agentId, configurationUpdate(input), {
        kind: 'update',
        checkpointName: 'Updated',
        expectedVersion,
      });
      return presentAgent((await this.repo(trx).findVisible(actor.organizationId, agentId))!);
    });
  }

  /** Activating an active agent (or deactivating an inactive one) changes nothing and writes nothing. */
  async setStatus(actor: Actor, agentId: number, status: Exclude<AgentStatus, 'draft'>): Promise<AgentView> {
    await this.get(actor, agentId);
    authorize(agentPolicy.mayChange(actor), 'Viewers may not activate or deactivate agents');
    return this.database.db.transaction().execute(async (trx) => {
      const repo = this.repo(trx);
      const current = await repo.findVisible(actor.organizationId, agentId);
      if (!current) throw new NotFound('agent', agentId);
      if (current.status === status) return presentAgent(current);
      const kind = status === 'active' ? 'activate' : 'deactivate';
      await commitAgentChange(trx, this.database.dialect, actor, agentId, { status }, {
        kind,
        checkpointName: status === 'active' ? 'Activated' : 'Deactivated',
      });
      return presentAgent((await repo.findVisible(actor.organizationId, agentId))!);
    });
  }

  async delete(actor: Actor, agentId: number): Promise<void> {
    const agent = await this.repo().findVisible(actor.organizationId, agentId);
    if (!agent) throw new NotFound('agent', agentId);
    authorize(agentPolicy.mayDelete(actor, agent), 'Only the agent’s creator, an owner or an admin may delete it');
    if (!(await this.repo().markDeleted(actor.organizationId, agentId, now(), actor.userId))) throw new NotFound('agent', agentId);
  }

  async status(actor: Actor, agentId: number) {
    const agent = await this.get(actor, agentId);
    const corpora = await this.corporaOf(actor, agentId);
    return { agent_id: agent.id, status: agent.status, version: agent.version, is_available: agent.status === 'active', corpora };
  }
}
