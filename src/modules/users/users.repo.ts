import type { Insertable, Kysely } from 'kysely';
import type { DB, UsersTable } from '../../db/schema.js';

export type NewUser = Insertable<UsersTable>;

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
