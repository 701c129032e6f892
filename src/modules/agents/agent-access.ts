// What the agent policy needs to decide: the agent (if the caller can see it) and the caller's role in
// the agent's team, or in a team an agent is to be placed in.
import type { TeamRole } from '../../db/schema.js';
import { NotFound } from '../../errors.js';
import type { Repositories } from '../../repositories.js';
import type { Actor } from '../auth/actor.js';
import type { FeatureFlagsService } from '../flags/flags.service.js';
import type { AgentWithUsers } from './agents.repo.js';

export interface AgentAccess {
  agent: AgentWithUsers;
  /** The caller's role in the agent's team; null when the agent has no team or the caller is not in it. */
  teamRole: TeamRole | null;
}

export async function requireVisibleAgent(repos: Repositories, actor: Actor, agentId: number): Promise<AgentWithUsers> {
  const agent = await repos.agents.findVisible(actor.organizationId, agentId);
  if (!agent) throw new NotFound('agent', agentId);
  return agent;
}

export async function loadAgentAccess(repos: Repositories, actor: Actor, agentId: number): Promise<AgentAccess> {
  const agent = await requireVisibleAgent(repos, actor, agentId);
  const teamRole = agent.team_id === null ? null : await repos.teams.roleOf(actor.organizationId, agent.team_id, actor.userId);
  return { agent, teamRole };
}

/** The caller's role in a team of its organization; 404 when the organization has no such team. */
export async function requireTeamRole(repos: Repositories, actor: Actor, teamId: number): Promise<TeamRole | null> {
  if (!(await repos.teams.exists(actor.organizationId, teamId))) throw new NotFound('team', teamId);
  return repos.teams.roleOf(actor.organizationId, teamId, actor.userId);
}

/**
 * With agent-alias off, giving an agent an alias it does not have (on create, update or restore)
 * answers 403; clearing an alias, or keeping the one it has, is always allowed.
 */
export async function checkAliasFlag(flags: FeatureFlagsService, actor: Actor, alias: string | null | undefined, current: string | null): Promise<void> {
  if (alias !== undefined && alias !== null && alias !== current) await flags.require(actor, 'agent-alias');
}

/** Attaching guardrails to an agent (a list that differs from its own) needs the guardrail flag. */
export async function checkGuardrailFlag(flags: FeatureFlagsService, actor: Actor, guardrailIds: number[] | undefined, current: number[]): Promise<void> {
  if (guardrailIds !== undefined && guardrailIds.length > 0 && JSON.stringify([...new Set(guardrailIds)].sort((a, b) => a - b)) !== JSON.stringify(current)) {
    await flags.require(actor, 'guardrail');
  }
}

/** Why a change of an agent was refused, for the 403 message. */
export function changeRefusal(agent: { team_id: number | null }, doing: string): string {
  return agent.team_id === null
    ? `Viewers may not ${doing}`
    : `Only leads and editors of team ${agent.team_id}, owners and admins may ${doing} of that team`;
}
