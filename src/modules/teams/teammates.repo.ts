import type { Insertable, Kysely } from 'kysely';
import { conflictIfDuplicate } from '../../db/conflicts.js';
import type { Dialect } from '../../db/dialect.js';
import { selectSlice } from '../../db/list-slice.js';
import type { DB, TeamMembersTable, TeamRole } from '../../db/schema.js';
import type { ListWindow } from '../../pagination.js';

const MEMBER_COLUMNS = [
  'm.team_id',
  'm.user_id',
  'm.role',
  'm.created_on',
  'm.modified_on',
  'u.email',
  'u.first_name',
  'u.last_name',
  'u.deactivated_on',
  'adder.email as added_by_email',
] as const;

/** The members of teams, with their roles; every query names the organization. */
export class TeammatesRepo {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly dialect: Dialect,
  ) {}

  private ofTeam(organizationId: number, teamId: number) {
    return this.db
      .selectFrom('team_members as m')
      .innerJoin('users as u', 'u.id', 'm.user_id')
      .innerJoin('users as adder', 'adder.id', 'm.created_by')
      .where('m.organization_id', '=', organizationId)
      .where('m.team_id', '=', teamId);
  }

  list(organizationId: number, teamId: number, window: ListWindow) {
    return selectSlice(this.ofTeam(organizationId, teamId).select(MEMBER_COLUMNS).orderBy('u.email'), window);
  }

  find(organizationId: number, teamId: number, userId: number) {
    return this.ofTeam(organizationId, teamId).select(MEMBER_COLUMNS).where('m.user_id', '=', userId).executeTakeFirst();
  }

  async add(member: Insertable<TeamMembersTable>): Promise<void> {
    try {
      await this.db.insertInto('team_members').values(member).execute();
    } catch (error) {
      throw conflictIfDuplicate(this.dialect, error, `User ${member.user_id} is already a member of team ${member.team_id}; change the role with PUT`);
    }
  }

  async changeRole(organizationId: number, teamId: number, userId: number, role: TeamRole, at: string): Promise<boolean> {
    const result = await this.db
      .updateTable('team_members')
      .set({ role, modified_on: at })
      .where('organization_id', '=', organizationId)
      .where('team_id', '=', teamId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async remove(organizationId: number, teamId: number, userId: number): Promise<boolean> {
    const result = await this.db
      .deleteFrom('team_members')
      .where('organization_id', '=', organizationId)
      .where('team_id', '=', teamId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }
}

export type TeammateRow = NonNullable<Awaited<ReturnType<TeammatesRepo['find']>>>;
