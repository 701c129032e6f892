// Teams and their members. Membership changes notify the member once they are committed.
import { now } from '../../clock.js';
import type { TeamRole } from '../../db/schema.js';
import { Conflict, NotFound } from '../../errors.js';
import { sentFields } from '../../fields.js';
import type { ListSlice, ListWindow } from '../../pagination.js';
import type { Repositories, UnitOfWork } from '../../repositories.js';
import type { Actor } from '../auth/actor.js';
import { authorize } from '../auth/roles.js';
import type { NotificationsService } from '../notifications/notifications.service.js';
import { teamPolicy } from './team.policy.js';
import { presentTeam, presentTeammate } from './team.presenter.js';
import type { TeamFilter, TeamWithCaller } from './teams.repo.js';
import type { TeammateView, TeamView } from './teams.schemas.js';

export class TeamsService {
  constructor(
    private readonly store: UnitOfWork,
    private readonly notifications: NotificationsService,
  ) {}

  private async requireTeam(actor: Actor, teamId: number, repos: Repositories = this.store.repos): Promise<TeamWithCaller> {
    const team = await repos.teams.find(actor.organizationId, teamId, actor.userId);
    if (!team) throw new NotFound('team', teamId);
    return team;
  }

  private async requireTeammate(actor: Actor, teamId: number, userId: number) {
    const member = await this.store.repos.teammates.find(actor.organizationId, teamId, userId);
    if (!member) throw new NotFound('teammate', `${userId} in team ${teamId}`);
    return member;
  }

  async list(actor: Actor, filter: { q?: string | undefined; mine?: boolean | undefined }, window: ListWindow): Promise<ListSlice<TeamView>> {
    const repoFilter: TeamFilter = { q: filter.q, memberUserId: filter.mine ? actor.userId : undefined };
    const { items, total } = await this.store.repos.teams.list(actor.organizationId, actor.userId, repoFilter, window);
    return { items: items.map(presentTeam), total };
  }

  async get(actor: Actor, teamId: number): Promise<TeamView> {
    return presentTeam(await this.requireTeam(actor, teamId));
  }

  /** Creates a team led by its creator. */
  async create(actor: Actor, input: { name: string; description?: string | undefined }): Promise<TeamView> {
    authorize(teamPolicy.mayCreate(actor), 'Viewers may not create teams');
    const at = now();
    return this.store.transaction(async (repos) => {
      const team = await repos.teams.insert({
        organization_id: actor.organizationId,
        name: input.name,
        description: input.description ?? '',
        created_on: at,
        created_by: actor.userId,
        modified_on: at,
        modified_by: actor.userId,
      });
      await repos.teammates.add({
        team_id: team.id,
        user_id: actor.userId,
        organization_id: actor.organizationId,
        role: 'lead',
        created_on: at,
        created_by: actor.userId,
        modified_on: at,
      });
      return presentTeam(await this.requireTeam(actor, team.id, repos));
    });
  }

  async update(actor: Actor, teamId: number, input: { name?: string | undefined; description?: string | undefined }): Promise<TeamView> {
    const team = await this.requireTeam(actor, teamId);
    authorize(teamPolicy.mayManage(actor, team.caller_role), 'Only the team’s leads, owners and admins may change a team');
    const fields = sentFields(input, ['name', 'description']);
    await this.store.repos.teams.update(actor.organizationId, teamId, { ...fields, modified_on: now(), modified_by: actor.userId });
    return this.get(actor, teamId);
  }

  /** Deletes a team and its memberships; its agents stay, belonging to no team. */
  async delete(actor: Actor, teamId: number): Promise<void> {
    const team = await this.requireTeam(actor, teamId);
    authorize(teamPolicy.mayManage(actor, team.caller_role), 'Only the team’s leads, owners and admins may delete a team');
    if (!(await this.store.repos.teams.delete(actor.organizationId, teamId))) throw new NotFound('team', teamId);
  }

  async members(actor: Actor, teamId: number, window: ListWindow): Promise<ListSlice<TeammateView>> {
    await this.requireTeam(actor, teamId);
    const { items, total } = await this.store.repos.teammates.list(actor.organizationId, teamId, window);
    return { items: items.map(presentTeammate), total };
  }

  async addMember(actor: Actor, teamId: number, input: { user_id: number; role: TeamRole }): Promise<TeammateView> {
    const team = await this.requireTeam(actor, teamId);
    authorize(teamPolicy.mayManage(actor, team.caller_role), 'Only the team’s leads, owners and admins may add members');
    const user = await this.store.repos.users.findInOrganization(actor.organizationId, input.user_id);
    if (!user) throw new NotFound('user', input.user_id);
    if (user.deactivated_on !== null) throw new Conflict(`User ${input.user_id} is deactivated`);
    const at = now();
    await this.store.repos.teammates.add({
      team_id: teamId,
      user_id: input.user_id,
      organization_id: actor.organizationId,
      role: input.role,
      created_on: at,
      created_by: actor.userId,
      modified_on: at,
    });
    await this.notifyMember(actor, team, input.user_id, {
      kind: 'team_added',
      title: `You were added to the team ${team.name}`,
      body: `${actor.email} added you to the team ${team.name} as ${input.role}.`,
    });
    return presentTeammate(await this.requireTeammate(actor, teamId, input.user_id));
  }

  async changeMemberRole(actor: Actor, teamId: number, userId: number, role: TeamRole): Promise<TeammateView> {
    const team = await this.requireTeam(actor, teamId);
    authorize(teamPolicy.mayManage(actor, team.caller_role), 'Only the team’s leads, owners and admins may change roles');
    const member = await this.requireTeammate(actor, teamId, userId);
    if (member.role === role) return presentTeammate(member);
    await this.store.repos.teammates.changeRole(actor.organizationId, teamId, userId, role, now());
    await this.notifyMember(actor, team, userId, {
      kind: 'team_role_changed',
      title: `Your role in the team ${team.name} is now ${role}`,
      body: `${actor.email} changed your role in the team ${team.name} from ${member.role} to ${role}.`,
    });
    return presentTeammate(await this.requireTeammate(actor, teamId, userId));
  }

  async removeMember(actor: Actor, teamId: number, userId: number): Promise<{ team_id: number; user_id: number }> {
    const team = await this.requireTeam(actor, teamId);
    authorize(teamPolicy.mayRemoveMember(actor, team.caller_role, userId), 'Only the team’s leads, owners and admins may remove others');
    if (!(await this.store.repos.teammates.remove(actor.organizationId, teamId, userId))) throw new NotFound('teammate', `${userId} in team ${teamId}`);
    return { team_id: teamId, user_id: userId };
  }

  /** Tells a member about a change someone else made to their membership. */
  private async notifyMember(actor: Actor, team: TeamWithCaller, userId: number, message: { kind: 'team_added' | 'team_role_changed'; title: string; body: string }) {
    if (userId === actor.userId) return;
    await this.notifications.notify(actor.organizationId, [userId], { ...message, link: `/api/v2/teams/${team.id}` });
  }
}
