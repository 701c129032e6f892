// Who may do what to agents, one line each (the whole matrix is in docs/authorization.md).
// Everyone in an organization reads its agents. An agent of no team is written by owners, admins and
// members; an agent of a team by owners, admins and the team's leads and editors, whatever their
// organization role. Deleting takes an owner, an admin, the team's lead, or the creator (who, for a team
// agent, must still be one of its editors).
import type { TeamRole } from '../../db/schema.js';
import { isAdmin, writesInTeam, type Subject } from '../auth/roles.js';

export { authorize } from '../auth/roles.js';

interface AgentOwnership {
  team_id: number | null;
  created_by: number;
}

const writes = (subject: Subject, teamId: number | null, teamRole: TeamRole | null) =>
  teamId === null ? subject.role !== 'viewer' : isAdmin(subject) || writesInTeam(teamRole);

export const agentPolicy = {
  /** teamRole: the subject's role in the team the agent is made in (null without one). */
  mayCreate: (subject: Subject, teamId: number | null, teamRole: TeamRole | null) => writes(subject, teamId, teamRole),
  mayChange: (subject: Subject, agent: Pick<AgentOwnership, 'team_id'>, teamRole: TeamRole | null) => writes(subject, agent.team_id, teamRole),
  mayRestore: (subject: Subject, agent: Pick<AgentOwnership, 'team_id'>, teamRole: TeamRole | null) => writes(subject, agent.team_id, teamRole),
  mayDelete: (subject: Subject, agent: AgentOwnership, teamRole: TeamRole | null) =>
    isAdmin(subject) ||
    (agent.team_id === null ? agent.created_by === subject.userId : teamRole === 'lead' || (teamRole === 'editor' && agent.created_by === subject.userId)),
  /** Moving an agent into a team takes the right to write in that team. */
  mayPlaceInTeam: (subject: Subject, targetTeamRole: TeamRole | null) => isAdmin(subject) || writesInTeam(targetTeamRole),
};
