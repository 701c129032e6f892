import type { Insertable, Kysely, Updateable } from 'kysely';
import { conflictIfDuplicate } from '../../db/conflicts.js';
import type { Dialect } from '../../db/dialect.js';
import { selectSlice } from '../../db/list-slice.js';
import { precompiled } from '../../db/precompiled.js';
import type { DB, OrganizationRole, UsersTable } from '../../db/schema.js';
import type { ListWindow } from '../../pagination.js';

export type NewUser = Insertable<UsersTable>;
export type UserChange = Updateable<UsersTable>;

export interface UserFilter {
  q?: string | undefined;
  role?: OrganizationRole | undefined;
  isActive?: boolean | undefined;
}

/** Users with the e-mails of whoever created and last changed them. */
function withAudit(db: Kysely<DB>) {
  return db
    .selectFrom('users as u')
    .leftJoin('users as creator', 'creator.id', 'u.created_by')
    .leftJoin('users as modifier', 'modifier.id', 'u.modified_by')
    .selectAll('u')
    .select(['creator.email as created_by_email', 'modifier.email as modified_by_email']);
}

/** A user of the organization: read by every `GET /api/v2/users/me`, so compiled once (src/db/precompiled.ts). */
const userInOrganization = precompiled(2, (db: Kysely<DB>, organizationId: number, userId: number) =>
  withAudit(db).where('u.organization_id', '=', organizationId).where('u.id', '=', userId),
);

export class UsersRepo {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly dialect: Dialect,
  ) {}

  /** E-mails are unique across the server and stored lower-cased. */
  findByEmail(email: string) {
    return withAudit(this.db).where('u.email', '=', email.toLowerCase()).executeTakeFirst();
  }

  async findInOrganization(organizationId: number, userId: number) {
    return (await userInOrganization(this.db, organizationId, userId))[0];
  }

  list(organizationId: number, filter: UserFilter, window: ListWindow) {
    let query = withAudit(this.db).where('u.organization_id', '=', organizationId);
    if (filter.q) {
      const text = filter.q;
      query = query.where((eb) =>
        eb.or(['u.email', 'u.first_name', 'u.last_name'].map((column) => this.dialect.containsIgnoringCase(eb.ref(column as 'u.email'), text))),
      );
    }
    if (filter.role) query = query.where('u.role', '=', filter.role);
    if (filter.isActive !== undefined) query = query.where('u.deactivated_on', filter.isActive ? 'is' : 'is not', null);
    return selectSlice(query.orderBy('u.id'), window);
  }

  /** Of the given ids, those of the organization's users, with whether each is active. */
  statesOf(organizationId: number, userIds: number[]) {
    if (userIds.length === 0) return Promise.resolve([]);
    return this.db
      .selectFrom('users')
      .select(['id', 'deactivated_on'])
      .where('organization_id', '=', organizationId)
      .where('id', 'in', userIds)
      .execute();
  }

  /** Of the given ids, those of active users of the organization. */
  async activeIds(organizationId: number, userIds: number[]): Promise<number[]> {
    if (userIds.length === 0) return [];
    const rows = await this.db
      .selectFrom('users')
      .select('id')
      .where('organization_id', '=', organizationId)
      .where('id', 'in', userIds)
      .where('deactivated_on', 'is', null)
      .execute();
    return rows.map((row) => row.id);
  }

  async countActiveOwners(organizationId: number): Promise<number> {
    const row = await this.db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('organization_id', '=', organizationId)
      .where('role', '=', 'owner')
      .where('deactivated_on', 'is', null)
      .executeTakeFirstOrThrow();
    return Number(row.count);
  }

  async insert(user: NewUser) {
    try {
      return await this.db
        .insertInto('users')
        .values({ ...user, email: user.email.toLowerCase() })
        .returningAll()
        .executeTakeFirstOrThrow();
    } catch (error) {
      throw conflictIfDuplicate(this.dialect, error, emailTaken(user.email));
    }
  }

  async update(organizationId: number, userId: number, fields: UserChange): Promise<void> {
    const values = fields.email === undefined ? fields : { ...fields, email: fields.email.toLowerCase() };
    try {
      await this.db.updateTable('users').set(values).where('organization_id', '=', organizationId).where('id', '=', userId).execute();
    } catch (error) {
      throw conflictIfDuplicate(this.dialect, error, emailTaken(String(fields.email)));
    }
  }
}

const emailTaken = (email: string) => `A user with e-mail ${email.toLowerCase()} already exists`;

export type UserWithAudit = NonNullable<Awaited<ReturnType<UsersRepo['findInOrganization']>>>;
