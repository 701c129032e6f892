import type { Kysely } from 'kysely';
import type { DB, OrganizationRole } from '../../db/schema.js';

export interface NewUser {
  organization_id: number;
  email: string;
  first_name: string;
  last_name: string;
  role: OrganizationRole;
  password_hash: string | null;
  created_on: string;
  modified_on: string;
}

export class UsersRepo {
  constructor(private readonly db: Kysely<DB>) {}

  /** E-mails are unique across the server and stored lower-cased. */
  findByEmail(email: string) {
    return this.db.selectFrom('users').selectAll().where('email', '=', email.toLowerCase()).executeTakeFirst();
  }

  findInOrganization(organizationId: number, userId: number) {
    return this.db
      .selectFrom('users')
      .selectAll()
      .where('organization_id', '=', organizationId)
      .where('id', '=', userId)
      .executeTakeFirst();
  }

  insert(user: NewUser) {
    return this.db
      .insertInto('users')
      .values({ ...user, email: user.email.toLowerCase() })
      .returningAll()
      .executeTakeFirstOrThrow();
  }
}
