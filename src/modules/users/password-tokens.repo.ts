import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';

/** One-time set-password tokens, stored as hashes; a user has at most one that works. */
export class PasswordTokensRepo {
  constructor(private readonly db: Kysely<DB>) {}

  async replace(userId: number, tokenHash: string, createdOn: string, expiresOn: string): Promise<void> {
    await this.deleteForUser(userId);
    await this.db.insertInto('password_tokens').values({ user_id: userId, token_hash: tokenHash, created_on: createdOn, expires_on: expiresOn }).execute();
  }

  /** The user a token that has not expired belongs to, if that user is still active. */
  findUser(tokenHash: string, now: string) {
    return this.db
      .selectFrom('password_tokens as t')
      .innerJoin('users as u', 'u.id', 't.user_id')
      .select(['u.id as user_id', 'u.organization_id'])
      .where('t.token_hash', '=', tokenHash)
      .where('t.expires_on', '>', now)
      .where('u.deactivated_on', 'is', null)
      .executeTakeFirst();
  }

  async deleteForUser(userId: number): Promise<void> {
    await this.db.deleteFrom('password_tokens').where('user_id', '=', userId).execute();
  }
}
