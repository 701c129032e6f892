import type { TeammateRow } from './teammates.repo.js';
import type { TeamWithCaller } from './teams.repo.js';
import type { TeammateView, TeamView } from './teams.schemas.js';

export function presentTeam(team: TeamWithCaller): TeamView {
  return {
    id: team.id,
    organization_id: team.organization_id,
    name: team.name,
    description: team.description,
    member_count: Number(team.member_count ?? 0),
    caller_role: team.caller_role,
    created_on: team.created_on,
    created_by: team.created_by_email,
    modified_on: team.modified_on,
    modified_by: team.modified_by_email,
  };
}

export function presentTeammate(member: TeammateRow): TeammateView {
  return {
    team_id: member.team_id,
    user_id: member.user_id,
    email: member.email,
    first_name: member.first_name,
    last_name: member.last_name,
    is_active: member.deactivated_on === null,
    role: member.role,
    added_on: member.created_on,
    added_by: member.added_by_email,
    modified_on: member.modified_on,
  };
}
