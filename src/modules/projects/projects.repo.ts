import type { Insertable, Kysely, Updateable } from 'kysely';
import { nameTaken } from '../../db/conflicts.js';
import type { Dialect } from '../../db/dialect.js';
import { selectSlice } from '../../db/list-slice.js';
import type { DB, ProjectsTable } from '../../db/schema.js';
import type { ListSlice, ListWindow } from '../../pagination.js';

export interface ProjectFilter {
  q?: string | undefined;
  ids?: number[] | undefined;
  teamIds?: number[] | undefined;
  memberIds?: number[] | undefined;
  createdBy?: number[] | undefined;
  createdAfter?: string | undefined;
  createdBefore?: string | undefined;
}

/** Projects of an organization, with their teams and members. Every query names the organization. */
export class ProjectsRepo {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly dialect: Dialect,
  ) {}

  private visible(organizationId: number) {
    return this.db
      .selectFrom('projects as p')
      .innerJoin('users as creator', 'creator.id', 'p.created_by')
      .innerJoin('users as modifier', 'modifier.id', 'p.modified_by')
      .where('p.organization_id', '=', organizationId);
  }

  private selectProject(query: ReturnType<ProjectsRepo['visible']>) {
    return query.selectAll('p').select(['creator.email as created_by_email', 'modifier.email as modified_by_email']);
  }

  /** The organization's projects, as a subquery that scopes the link tables. */
  private idsOf(organizationId: number) {
    return this.db.selectFrom('projects').select('id').where('organization_id', '=', organizationId);
  }

  find(organizationId: number, projectId: number) {
    return this.selectProject(this.visible(organizationId)).where('p.id', '=', projectId).executeTakeFirst();
  }

  async exists(organizationId: number, projectId: number): Promise<boolean> {
    return (await this.idsOf(organizationId).where('id', '=', projectId).executeTakeFirst()) !== undefined;
  }

  list(organizationId: number, filter: ProjectFilter, window: ListWindow) {
    return selectSlice(this.selectProject(this.filtered(organizationId, filter)).orderBy('p.name').orderBy('p.id'), window);
  }

  private filtered(organizationId: number, filter: ProjectFilter) {
    let query = this.visible(organizationId);
    if (filter.q) {
      const text = filter.q;
      query = query.where((eb) => eb.or([this.dialect.containsIgnoringCase(eb.ref('p.name'), text), this.dialect.containsIgnoringCase(eb.ref('p.description'), text)]));
    }
    if (filter.ids) query = query.where('p.id', 'in', filter.ids.length ? filter.ids : [0]);
    if (filter.teamIds?.length) {
      const teamIds = filter.teamIds;
      query = query.where((eb) => eb.exists(eb.selectFrom('project_teams as pt').select('pt.team_id').whereRef('pt.project_id', '=', 'p.id').where('pt.team_id', 'in', teamIds)));
    }
    if (filter.memberIds?.length) {
      const memberIds = filter.memberIds;
      query = query.where((eb) => eb.exists(eb.selectFrom('project_members as pm').select('pm.user_id').whereRef('pm.project_id', '=', 'p.id').where('pm.user_id', 'in', memberIds)));
    }
    if (filter.createdBy?.length) query = query.where('p.created_by', 'in', filter.createdBy);
    if (filter.createdAfter) query = query.where('p.created_on', '>=', filter.createdAfter);
    if (filter.createdBefore) query = query.where('p.created_on', '<', filter.createdBefore);
    return query;
  }

  /** The teams of each project among the given ones. */
  teamLinks(organizationId: number, projectIds: number[]) {
    if (projectIds.length === 0) return Promise.resolve([]);
    return this.db
      .selectFrom('project_teams as pt')
      .innerJoin('teams as t', 't.id', 'pt.team_id')
      .select(['pt.project_id', 't.id', 't.name', 't.description'])
      .where('t.organization_id', '=', organizationId)
      .where('pt.project_id', 'in', projectIds)
      .orderBy('t.name')
      .execute();
  }

  /** The members of each project among the given ones. */
  memberLinks(organizationId: number, projectIds: number[]) {
    if (projectIds.length === 0) return Promise.resolve([]);
    return this.db
      .selectFrom('project_members as pm')
      .innerJoin('users as u', 'u.id', 'pm.user_id')
      .select(['pm.project_id', 'u.id', 'u.email', 'u.first_name', 'u.last_name'])
      .where('u.organization_id', '=', organizationId)
      .where('pm.project_id', 'in', projectIds)
      .orderBy('u.email')
      .execute();
  }

  async isMember(organizationId: number, projectId: number, userId: number): Promise<boolean> {
    const row = await this.db
      .selectFrom('project_members')
      .select('user_id')
      .where('project_id', 'in', this.idsOf(organizationId))
      .where('project_id', '=', projectId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return row !== undefined;
  }

  async insert(project: Insertable<ProjectsTable>) {
    try {
      return await this.db.insertInto('projects').values(project).returningAll().executeTakeFirstOrThrow();
    } catch (error) {
      throw nameTaken(this.dialect, error, 'a project', project.name);
    }
  }

  async update(organizationId: number, projectId: number, fields: Updateable<ProjectsTable>): Promise<void> {
    try {
      await this.db.updateTable('projects').set(fields).where('organization_id', '=', organizationId).where('id', '=', projectId).execute();
    } catch (error) {
      throw nameTaken(this.dialect, error, 'a project', fields.name);
    }
  }

  async delete(organizationId: number, projectId: number): Promise<boolean> {
    const result = await this.db.deleteFrom('projects').where('organization_id', '=', organizationId).where('id', '=', projectId).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /** Replaces the project's teams (already checked to be the organization's). */
  async setTeams(organizationId: number, projectId: number, teamIds: number[]): Promise<void> {
    await this.db.deleteFrom('project_teams').where('project_id', 'in', this.idsOf(organizationId)).where('project_id', '=', projectId).execute();
    if (teamIds.length > 0) {
      await this.db.insertInto('project_teams').values([...new Set(teamIds)].map((teamId) => ({ project_id: projectId, team_id: teamId }))).execute();
    }
  }

  /** Adds members (already checked to be the organization's); those already in stay as they are. */
  async addMembers(projectId: number, userIds: number[], at: string, by: number): Promise<void> {
    if (userIds.length === 0) return;
    await this.db
      .insertInto('project_members')
      .values(userIds.map((userId) => ({ project_id: projectId, user_id: userId, created_on: at, created_by: by })))
      .onConflict((oc) => oc.columns(['project_id', 'user_id']).doNothing())
      .execute();
  }

  async removeMember(organizationId: number, projectId: number, userId: number): Promise<boolean> {
    const result = await this.db
      .deleteFrom('project_members')
      .where('project_id', 'in', this.idsOf(organizationId))
      .where('project_id', '=', projectId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  async markUsed(userId: number, projectId: number, at: string): Promise<void> {
    await this.db
      .insertInto('project_recent')
      .values({ user_id: userId, project_id: projectId, used_on: at })
      .onConflict((oc) => oc.columns(['user_id', 'project_id']).doUpdateSet({ used_on: at }))
      .execute();
  }

  /** The ids of the projects the user used most recently, newest first. */
  async listRecentIds(organizationId: number, userId: number, window: ListWindow): Promise<ListSlice<number>> {
    const query = this.db
      .selectFrom('project_recent as r')
      .innerJoin('projects as p', 'p.id', 'r.project_id')
      .select('p.id')
      .where('p.organization_id', '=', organizationId)
      .where('r.user_id', '=', userId)
      .orderBy('r.used_on', 'desc')
      .orderBy('p.id', 'desc');
    const { items, total } = await selectSlice(query, window);
    return { items: items.map((row) => row.id), total };
  }
}

export type ProjectWithUsers = NonNullable<Awaited<ReturnType<ProjectsRepo['find']>>>;
