import { now } from '../../clock.js';
import type { AgentStatus } from '../../db/schema.js';
import { BadRequest, NotFound } from '../../errors.js';
import { sentFields } from '../../fields.js';
import { asPage, windowOf, type PageRequest, type PageResult } from '../../pagination.js';
import type { UnitOfWork } from '../../repositories.js';
import type { Actor } from '../auth/actor.js';
import type { Subject } from '../auth/roles.js';
import type { FeatureFlagsService } from '../flags/flags.service.js';
import { changeRefusal, checkAliasFlag, checkGuardrailFlag, loadAgentAccess, requireTeamRole, requireVisibleAgent } from './agent-access.js';
import { CLIENT_CONFIGURATION_FIELDS, DEFAULT_CONFIGURATION } from './agent-config.js';
import { commitAgentChange, recordAgentHistory } from './agent-changes.js';
import { checkReferences, type RequireReadableCorpus } from './agent-references.js';
import { presentAgent } from './agent.presenter.js';
import { agentPolicy, authorize } from './agent.policy.js';
import type { AgentChange, AgentFilter, AgentSortField } from './agents.repo.js';
import type { AgentView, CreateAgentInput, FilterAgentsInput, UpdateAgentInput } from './agents.schemas.js';

/** "-modified_on" → modified_on descending. */
export function parseSort(sort: string | undefined): AgentFilter['sort'] {
  if (!sort) return undefined;
  const descending = sort.startsWith('-');
  return { field: (descending ? sort.slice(1) : sort) as AgentSortField, direction: descending ? 'desc' : 'asc' };
}

/** If-Match: "3", W/"3" or 3 name version 3; "*" matches any version. */
export function parseIfMatch(header: string | undefined): number | undefined {
  if (header === undefined || header.trim() === '*') return undefined;
  // The bare version ("3", as the body and the answers of writes give it) or GET's tag ("3-…"): the version decides.
  const match = /^\s*(?:W\/)?"?(\d{1,15})(?:-[\w-]{1,64})?"?\s*$/.exec(header);
  if (!match) throw new BadRequest('If-Match must hold the agent version as its ETag gives it, e.g. "3"', [{ pointer: '/headers/if-match', message: 'is not a version' }]);
  return Number(match[1]);
}

export interface TeamRoleView {
  agent_id: number;
  team_id: number | null;
  user_id: number;
  organization_role: Subject['role'];
  team_role: 'lead' | 'editor' | 'viewer' | null;
  can_change: boolean;
  can_delete: boolean;
}

/** The corpora an agent draws on, with their state (the corpora module answers). */
export type CorporaOfAgent = (actor: Actor, agentId: number) => Promise<{ corpus_id: number; name: string; status: string }[]>;

export class AgentsService {
  constructor(
    private readonly store: UnitOfWork,
    private readonly flags: FeatureFlagsService,
    private readonly corporaOf: CorporaOfAgent,
    private readonly requireReadableCorpus: RequireReadableCorpus,
  ) {}

  private async requireProject(actor: Actor, projectId: number): Promise<void> {
    if (!(await this.store.repos.projects.exists(actor.organizationId, projectId))) throw new NotFound('project', projectId);
  }

  async create(actor: Actor, input: CreateAgentInput): Promise<AgentView> {
    const teamId = input.team_id ?? null;
    const teamRole = teamId === null ? null : await requireTeamRole(this.store.repos, actor, teamId);
    authorize(agentPolicy.mayCreate(actor, teamId, teamRole), changeRefusal({ team_id: teamId }, 'create agents'));
    if (input.project_id != null) await this.requireProject(actor, input.project_id);
    await checkAliasFlag(this.flags, actor, input.alias, null);
    await checkGuardrailFlag(this.flags, actor, input.guardrail_ids, []);
    // Only configuration fields the client sent: server-owned ones in the body are not copied.
    const configuration = await checkReferences(this.store.repos, actor, sentFields(input, CLIENT_CONFIGURATION_FIELDS), [], this.requireReadableCorpus);
    const at = now();
    return this.store.transaction(async (repos) => {
      const agent = await repos.agents.insert({
        organization_id: actor.organizationId,
        ...DEFAULT_CONFIGURATION,
        ...configuration,
        name: input.name,
        status: input.status ?? 'draft',
        team_id: teamId,
        project_id: input.project_id ?? null,
        version: 1,
        created_on: at,
        created_by: actor.userId,
        modified_on: at,
        modified_by: actor.userId,
      });
      await recordAgentHistory(repos, actor, agent, { kind: 'create', checkpointName: 'Created' }, at);
      return presentAgent(await requireVisibleAgent(repos, actor, agent.id));
    });
  }

  async get(actor: Actor, agentId: number): Promise<AgentView> {
    return presentAgent(await requireVisibleAgent(this.store.repos, actor, agentId));
  }

  async list(actor: Actor, filter: AgentFilter, page: PageRequest): Promise<PageResult<AgentView>> {
    const { items, total } = await this.store.repos.agents.list(actor.organizationId, filter, windowOf(page));
    return asPage({ items: items.map(presentAgent), total }, page);
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
      teamIds: body.team_ids,
      projectIds: body.project_ids,
      sort: parseSort(body.sort),
    };
    return this.list(actor, filter, { page: body.page ?? 1, page_size: body.page_size ?? 20 });
  }

  /** Agents the caller may use: those of its teams and those of no team. */
  accessible(actor: Actor, filter: AgentFilter, page: PageRequest): Promise<PageResult<AgentView>> {
    return this.list(actor, { ...filter, accessibleTo: actor.userId }, page);
  }

  async ofTeam(actor: Actor, teamId: number, projectId: number | undefined, filter: AgentFilter, page: PageRequest): Promise<PageResult<AgentView>> {
    await requireTeamRole(this.store.repos, actor, teamId);
    if (projectId !== undefined) await this.requireProject(actor, projectId);
    return this.list(actor, { ...filter, teamIds: [teamId], projectIds: projectId === undefined ? undefined : [projectId] }, page);
  }

  async ofProject(actor: Actor, projectId: number, filter: AgentFilter, page: PageRequest): Promise<PageResult<AgentView>> {
    await this.requireProject(actor, projectId);
    return this.list(actor, { ...filter, projectIds: [projectId] }, page);
  }

  /** A user's (by default the caller's) role in the agent's team, and what it lets them do to the agent. */
  async teamRole(actor: Actor, agentId: number, userId = actor.userId): Promise<TeamRoleView> {
    const { agent } = await loadAgentAccess(this.store.repos, actor, agentId);
    const user = await this.store.repos.users.findInOrganization(actor.organizationId, userId);
    if (!user) throw new NotFound('user', userId);
    const subject: Subject = { userId: user.id, role: user.role };
    const teamRole = agent.team_id === null ? null : await this.store.repos.teams.roleOf(actor.organizationId, agent.team_id, userId);
    return {
      agent_id: agent.id,
      team_id: agent.team_id,
      user_id: user.id,
      organization_role: user.role,
      team_role: teamRole,
      can_change: user.deactivated_on === null && agentPolicy.mayChange(subject, agent, teamRole),
      can_delete: user.deactivated_on === null && agentPolicy.mayDelete(subject, agent, teamRole),
    };
  }

  async update(actor: Actor, agentId: number, input: UpdateAgentInput, expectedVersion?: number): Promise<AgentView> {
    const { agent, teamRole } = await loadAgentAccess(this.store.repos, actor, agentId);
    authorize(agentPolicy.mayChange(actor, agent, teamRole), changeRefusal(agent, 'change agents'));
    // Only configuration fields the client sent: server-owned ones in the body are not copied.
    const fields: AgentChange = await checkReferences(this.store.repos, actor, sentFields(input, CLIENT_CONFIGURATION_FIELDS), agent.corpus_ids, this.requireReadableCorpus);
    if (input.team_id !== undefined && input.team_id !== agent.team_id) {
      if (input.team_id !== null) {
        const targetRole = await requireTeamRole(this.store.repos, actor, input.team_id);
        authorize(agentPolicy.mayPlaceInTeam(actor, targetRole), `Only leads and editors of team ${input.team_id}, owners and admins may move agents into it`);
      }
      fields.team_id = input.team_id;
    }
    if (input.project_id !== undefined && input.project_id !== agent.project_id) {
      if (input.project_id !== null) await this.requireProject(actor, input.project_id);
      fields.project_id = input.project_id;
    }
    await checkAliasFlag(this.flags, actor, input.alias, agent.alias);
    await checkGuardrailFlag(this.flags, actor, input.guardrail_ids, agent.guardrail_ids);
    return this.store.transaction(async (repos) => {
      await commitAgentChange(repos, actor, agentId, fields, { kind: 'update', checkpointName: 'Updated', expectedVersion });
      return presentAgent(await requireVisibleAgent(repos, actor, agentId));
    });
  }

  /** Activating an active agent (or deactivating an inactive one) changes nothing and writes nothing. */
  async setStatus(actor: Actor, agentId: number, status: Exclude<AgentStatus, 'draft'>): Promise<AgentView> {
    const { agent, teamRole } = await loadAgentAccess(this.store.repos, actor, agentId);
    authorize(agentPolicy.mayChange(actor, agent, teamRole), changeRefusal(agent, 'activate or deactivate agents'));
    return this.store.transaction(async (repos) => {
      const current = await requireVisibleAgent(repos, actor, agentId);
      if (current.status === status) return presentAgent(current);
      const kind = status === 'active' ? 'activate' : 'deactivate';
      await commitAgentChange(repos, actor, agentId, { status }, { kind, checkpointName: status === 'active' ? 'Activated' : 'Deactivated' });
      return presentAgent(await requireVisibleAgent(repos, actor, agentId));
    });
  }

  async delete(actor: Actor, agentId: number): Promise<void> {
    const { agent, teamRole } = await loadAgentAccess(this.store.repos, actor, agentId);
    authorize(
      agentPolicy.mayDelete(actor, agent, teamRole),
      agent.team_id === null ? 'Only the agent’s creator, an owner or an admin may delete it' : `Only a lead of team ${agent.team_id}, the agent’s creator (an editor there), an owner or an admin may delete it`,
    );
    if (!(await this.store.repos.agents.markDeleted(actor.organizationId, agentId, now(), actor.userId))) throw new NotFound('agent', agentId);
  }

  async status(actor: Actor, agentId: number) {
    const agent = await this.get(actor, agentId);
    const corpora = await this.corporaOf(actor, agentId);
    return { agent_id: agent.id, status: agent.status, version: agent.version, is_available: agent.status === 'active', corpora };
  }
}
