// Who may create, change and delete agents (docs/authorization.md, "Agents"). For an existing agent the
// server says it (GET …/team-role: can_change, can_delete, by the same policy it enforces); before an
// agent exists, the organization role and the teams the user leads or edits decide.
import { useQuery } from '@tanstack/react-query';
import { messageOf } from '../../api/errors';
import { agentAbilitiesQuery } from '../../api/queries';
import type { CurrentUser } from '../../session/session';
import { atLeast, VIEWER_REASON } from '../../session/permissions';
import type { Agent } from './agentQueries';

const WRITING_TEAM_ROLES = new Set(['lead', 'editor']);

/** Teams whose agents the user writes as a lead or editor, whatever their organization role. */
export function writableTeamIds(user: CurrentUser): number[] {
  return user.teams.filter((team) => WRITING_TEAM_ROLES.has(team.role)).map((team) => team.id);
}

/** Members and above create agents of no team; a lead or editor of a team creates them in it, viewers too. */
export function mayCreateAgents(user: CurrentUser): boolean {
  return atLeast(user.role, 'member') || writableTeamIds(user).length > 0;
}

export function mayCreateWithoutTeam(user: CurrentUser): boolean {
  return atLeast(user.role, 'member');
}

/** Owners and admins put agents in any team; others in the teams they lead or edit. */
export function mayPlaceInTeam(user: CurrentUser, teamId: number): boolean {
  return atLeast(user.role, 'admin') || writableTeamIds(user).includes(teamId);
}

export const CREATE_REASON = VIEWER_REASON;

export interface AgentAbilities {
  canChange: boolean;
  canDelete: boolean;
  /** Why the agent cannot be changed (or why that is not known), said above the read-only form; null when it can. */
  reason: string | null;
  isLoading: boolean;
}

/** What the signed-in user may do to this agent, as the server's policy answers it. */
export function useAgentAbilities(agent: Agent | undefined, user: CurrentUser): AgentAbilities {
  const agentId = agent?.id ?? 0;
  const teamRole = useQuery({ ...agentAbilitiesQuery(agentId), enabled: agent !== undefined });
  const canChange = teamRole.data?.can_change ?? false;
  const canDelete = teamRole.data?.can_delete ?? false;
  let reason: string | null = null;
  if (teamRole.data === undefined && teamRole.error !== null) reason = `Shown read-only: what you may do with this agent could not be read. ${messageOf(teamRole.error)}`;
  else if (teamRole.data !== undefined && !canChange) {
    reason =
      agent?.team_id === null || agent?.team_id === undefined || user.role === 'viewer'
        ? VIEWER_REASON
        : 'This agent belongs to a team: only its leads and editors, owners and admins change it.';
  }
  return { canChange, canDelete, reason, isLoading: teamRole.isPending && agent !== undefined };
}
