import type { Insertable, Kysely, Updateable } from 'kysely';
import { nameTaken } from '../../db/conflicts.js';
import type { Dialect } from '../../db/dialect.js';
import { selectSlice } from '../../db/list-slice.js';
import { precompiled } from '../../db/precompiled.js';
import type { DB, TeamRole, TeamsTable } from '../../db/schema.js';
import type { ListWindow } from '../../pagination.js';

export interface TeamFilter {
  q?: string | undefined;
  /** Only teams this user belongs to. */
  memberUserId?: number | undefined;
}

/** The teams a user belongs to, read by every `GET /api/v2/users/me`: compiled once (src/db/precompiled.ts). */
const teamsOfUser = precompiled(2, (db: Kysely<DB>, organizationId: number, userId: number) =>
  db
    .selectFrom('team_members as m')
    .innerJoin('teams as t', 't.id', 'm.team_id')
    .select(['t.id', 't.name', 'm.role'])
    .where('m.organization_id', '=', organizationId)
    .where('m.user_id', '=', userId)
    .orderBy('t.name'),
);

/** Teams of an organization. Every read names the organization and the caller, whose role it carries. */
export class TeamsRepo {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly dialect: Dialect,
  ) {}

  private visible(organizationId: number, callerId: number) {
    return this.db
      .selectFrom('teams as t')
      .innerJoin('users as creator', 'creator.id', 't.created_by')
      .innerJoin('users as modifier', 'modifier.id', 't.modified_by')
      .leftJoin('team_members as mine', (join) => join.onRef('mine.team_id', '=', 't.id').on('mine.user_id', '=', callerId))
      .where('t.organization_id', '=', organizationId);
  }

  private selectTeam(query: ReturnType<TeamsRepo['visible']>) {
    return query
      .selectAll('t')
      .select((eb) => [
        'creator.email as created_by_email',
        'modifier.email as modified_by_email',
        'mine.role as caller_role',
        eb.selectFrom('team_members as m').whereRef('m.team_id', '=', 't.id').select(eb.fn.countAll<number>().as('n')).as('member_count'),
      ]);
  }

  find(organizationId: number, teamId: number, callerId: number) {
    return this.selectTeam(this.visible(organizationId, callerId)).where('t.id', '=', teamId).executeTakeFirst();
  }

  async exists(organizationId: number, teamId: number): Promise<boolean> {
    const row = await this.db.selectFrom('teams').select('id').where('organization_id', '=', organizationId).where('id', '=', teamId).executeTakeFirst();
    return row !== undefined;
  }

  list(organizationId: number, callerId: number, filter: TeamFilter, window: ListWindow) {
    let query = this.visible(organizationId, callerId);
    if (filter.q) {
      const text = filter.q;
      query = query.where((eb) => this.dialect.containsIgnoringCase(eb.ref('t.name'), text));
    }
    if (filter.memberUserId !== undefined) {
      const userId = filter.memberUserId;
      query = query.where((eb) => eb.exists(eb.selectFrom('team_members as f').select('f.team_id').whereRef('f.team_id', '=', 't.id').where('f.user_id', '=', userId)));
    }
    return selectSlice(this.selectTeam(query).orderBy('t.name').orderBy('t.id'), window);
  }

  /** Brief records of the organization's teams among the given ids. */
  byIds(organizationId: number, teamIds: number[]) {
    if (teamIds.length === 0) return Promise.resolve([]);
    return this.db
      .selectFrom('teams')
      .select(['id', 'name', 'description'])
      .where('organization_id', '=', organizationId)
      .where('id', 'in', teamIds)
      .orderBy('name')
      .execute();
  }

  /** The teams a user belongs to, with the role in each. */
  ofUser(organizationId: number, userId: number) {
    return teamsOfUser(this.db, organizationId, userId);
  }

  async roleOf(organizationId: number, teamId: number, userId: number): Promise<TeamRole | null> {
    const row = await this.db
      .selectFrom('team_members')
      .select('role')
      .where('organization_id', '=', organizationId)
      .where('team_id', '=', teamId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return row?.role ?? null;
  }

  async insert(team: Insertable<TeamsTable>) {
    try {
      return await this.db.insertInto('teams').values(team).returningAll().executeTakeFirstOrThrow();
    } catch (error) {
      throw nameTaken(this.dialect, error, 'a team', team.name);
    }
  }

  async update(organizationId: number, teamId: number, fields: Updateable<TeamsTable>): Promise<void> {
    try {
      await this.db.updateTable('teams').set(fields).where('organization_id', '=', organizationId).where('id', '=', teamId).execute();
    } catch (error) {
      throw nameTaken(this.dialect, error, 'a team', fields.name);
    }
  }

  async delete(organizationId: number, teamId: number): Promise<boolean> {
    const result = await this.db.deleteFrom('teams').where('organization_id', '=', organizationId).where('id', '=', teamId).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }
}

export type TeamWithCaller = NonNullable<Awaited<ReturnType<TeamsRepo['find']>>>;
