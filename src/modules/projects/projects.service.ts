// Projects: a name, the teams that work in it and its members. Opening, creating or changing a project
// puts it at the top of the caller's recent projects; members added are notified once committed.
import { now } from '../../clock.js';
import { Conflict, NotFound } from '../../errors.js';
import { sentFields } from '../../fields.js';
import type { ListSlice, ListWindow } from '../../pagination.js';
import type { Repositories, UnitOfWork } from '../../repositories.js';
import type { Actor } from '../auth/actor.js';
import { authorize } from '../auth/roles.js';
import type { NotificationsService } from '../notifications/notifications.service.js';
import { projectPolicy } from './project.policy.js';
import { presentProjects } from './project.presenter.js';
import type { ProjectFilter, ProjectWithUsers } from './projects.repo.js';
import type { CreateProjectInput, ProjectView, UpdateProjectInput } from './projects.schemas.js';

export interface ProjectReadOptions {
  includeTeams: boolean;
}

export class ProjectsService {
  constructor(
    private readonly store: UnitOfWork,
    private readonly notifications: NotificationsService,
  ) {}

  private async present(actor: Actor, projects: ProjectWithUsers[], options: ProjectReadOptions, repos: Repositories = this.store.repos): Promise<ProjectView[]> {
    const ids = projects.map((project) => project.id);
    const teams = await repos.projects.teamLinks(actor.organizationId, ids);
    const members = await repos.projects.memberLinks(actor.organizationId, ids);
    return presentProjects(projects, teams, members, options.includeTeams);
  }

  private async requireProject(actor: Actor, projectId: number, repos: Repositories = this.store.repos): Promise<ProjectWithUsers> {
    const project = await repos.projects.find(actor.organizationId, projectId);
    if (!project) throw new NotFound('project', projectId);
    return project;
  }

  private async presentOne(actor: Actor, projectId: number, options: ProjectReadOptions, repos: Repositories = this.store.repos): Promise<ProjectView> {
    return (await this.present(actor, [await this.requireProject(actor, projectId, repos)], options, repos))[0]!;
  }

  /** 404 for the first team that is not the organization's. */
  private async requireTeams(actor: Actor, teamIds: number[]): Promise<void> {
    const found = new Set((await this.store.repos.teams.byIds(actor.organizationId, teamIds)).map((team) => team.id));
    const missing = teamIds.find((id) => !found.has(id));
    if (missing !== undefined) throw new NotFound('team', missing);
  }

  async list(actor: Actor, filter: ProjectFilter, window: ListWindow, options: ProjectReadOptions): Promise<ListSlice<ProjectView>> {
    const { items, total } = await this.store.repos.projects.list(actor.organizationId, filter, window);
    return { items: await this.present(actor, items, options), total };
  }

  /** Projects by id, in the order asked; ids the caller cannot see are left out. */
  async byIds(actor: Actor, ids: number[], options: ProjectReadOptions): Promise<ProjectView[]> {
    const { items } = await this.list(actor, { ids }, { limit: ids.length, offset: 0 }, options);
    const byId = new Map(items.map((project) => [project.id, project]));
    return [...new Set(ids)].flatMap((id) => byId.get(id) ?? []);
  }

  async recent(actor: Actor, window: ListWindow, options: ProjectReadOptions): Promise<ListSlice<ProjectView>> {
    const { items: ids, total } = await this.store.repos.projects.listRecentIds(actor.organizationId, actor.userId, window);
    return { items: ids.length ? await this.byIds(actor, ids, options) : [], total };
  }

  /** One project; opening it makes it the caller's most recent. */
  async get(actor: Actor, projectId: number, options: ProjectReadOptions): Promise<ProjectView> {
    const project = await this.presentOne(actor, projectId, options);
    await this.store.repos.projects.markUsed(actor.userId, projectId, now());
    return project;
  }

  async create(actor: Actor, input: CreateProjectInput): Promise<ProjectView> {
    authorize(projectPolicy.mayCreate(actor), 'Viewers may not create projects');
    const teamIds = input.team_ids ?? [];
    await this.requireTeams(actor, teamIds);
    const at = now();
    return this.store.transaction(async (repos) => {
      const project = await repos.projects.insert({
        organization_id: actor.organizationId,
        name: input.name,
        description: input.description ?? '',
        created_on: at,
        created_by: actor.userId,
        modified_on: at,
        modified_by: actor.userId,
      });
      await repos.projects.setTeams(actor.organizationId, project.id, teamIds);
      await repos.projects.addMembers(project.id, [actor.userId], at, actor.userId);
      await repos.projects.markUsed(actor.userId, project.id, at);
      return this.presentOne(actor, project.id, { includeTeams: false }, repos);
    });
  }

  async update(actor: Actor, projectId: number, input: UpdateProjectInput): Promise<ProjectView> {
    await this.requireProject(actor, projectId);
    const isMember = await this.store.repos.projects.isMember(actor.organizationId, projectId, actor.userId);
    authorize(projectPolicy.mayChange(actor, isMember), 'Only the project’s members (not viewers), owners and admins may change it');
    if (input.team_ids) await this.requireTeams(actor, input.team_ids);
    const at = now();
    return this.store.transaction(async (repos) => {
      const fields = sentFields(input, ['name', 'description']);
      await repos.projects.update(actor.organizationId, projectId, { ...fields, modified_on: at, modified_by: actor.userId });
      if (input.team_ids) await repos.projects.setTeams(actor.organizationId, projectId, input.team_ids);
      await repos.projects.markUsed(actor.userId, projectId, at);
      return this.presentOne(actor, projectId, { includeTeams: false }, repos);
    });
  }

  /** Deletes a project; its agents stay, belonging to no project. */
  async delete(actor: Actor, projectId: number): Promise<void> {
    const project = await this.requireProject(actor, projectId);
    authorize(projectPolicy.mayDelete(actor, project), 'Only the project’s creator, owners and admins may delete it');
    if (!(await this.store.repos.projects.delete(actor.organizationId, projectId))) throw new NotFound('project', projectId);
  }

  async addUsers(actor: Actor, projectId: number, userIds: number[]): Promise<ProjectView> {
    const project = await this.requireProject(actor, projectId);
    const { projects, users } = this.store.repos;
    authorize(projectPolicy.mayChange(actor, await projects.isMember(actor.organizationId, projectId, actor.userId)), 'Only the project’s members (not viewers), owners and admins may add users');
    const wanted = [...new Set(userIds)];
    const states = new Map((await users.statesOf(actor.organizationId, wanted)).map((user) => [user.id, user]));
    for (const userId of wanted) {
      const state = states.get(userId);
      if (!state) throw new NotFound('user', userId);
      if (state.deactivated_on !== null) throw new Conflict(`User ${userId} is deactivated`);
    }
    const before = new Set((await projects.memberLinks(actor.organizationId, [projectId])).map((member) => member.id));
    const added = wanted.filter((userId) => !before.has(userId));
    await projects.addMembers(projectId, added, now(), actor.userId);
    await this.notifications.notify(
      actor.organizationId,
      added.filter((userId) => userId !== actor.userId),
      {
        kind: 'project_added',
        title: `You were added to the project ${project.name}`,
        body: `${actor.email} added you to the project ${project.name}.`,
        link: `/api/v2/projects/${projectId}`,
      },
    );
    return this.presentOne(actor, projectId, { includeTeams: false });
  }

  async removeUser(actor: Actor, projectId: number, userId: number): Promise<ProjectView> {
    await this.requireProject(actor, projectId);
    const { projects } = this.store.repos;
    const isMember = await projects.isMember(actor.organizationId, projectId, actor.userId);
    authorize(projectPolicy.mayRemoveUser(actor, isMember, userId), 'Only the project’s members (not viewers), owners and admins may remove others');
    if (!(await projects.removeMember(actor.organizationId, projectId, userId))) throw new NotFound('project_member', `${userId} in project ${projectId}`);
    return this.presentOne(actor, projectId, { includeTeams: false });
  }
}
