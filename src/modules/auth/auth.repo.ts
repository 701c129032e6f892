import type { Insertable, Kysely } from 'kysely';
import { precompiled } from '../../db/precompiled.js';
import type { ApiKeysTable, DB, OrganizationRole } from '../../db/schema.js';

export interface CallerRow {
  user_id: number;
  organization_id: number;
  email: string;
  role: OrganizationRole;
  credential_id: number;
  last_used_on: string | null;
  /** Null for a key without an expiry; sessions always expire. */
  expires_on: string | null;
}

export type NewApiKey = Insertable<ApiKeysTable>;

const API_KEY_COLUMNS = ['id', 'name', 'prefix', 'created_on', 'last_used_on', 'expires_on', 'revoked_on'] as const;

// Run on every authenticated request: compiled once (src/db/precompiled.ts).
const callerByApiKeyHash = precompiled(2, (db: Kysely<DB>, keyHash: string, now: string) =>
  db
    .selectFrom('api_keys as k')
    .innerJoin('users as u', 'u.id', 'k.user_id')
    .select(['u.id as user_id', 'u.organization_id', 'u.email', 'u.role', 'k.id as credential_id', 'k.last_used_on', 'k.expires_on'])
    .where('k.key_hash', '=', keyHash)
    .where('k.revoked_on', 'is', null)
    .where((eb) => eb.or([eb('k.expires_on', 'is', null), eb('k.expires_on', '>', now)]))
    .where('u.deactivated_on', 'is', null),
);

const callerBySessionHash = precompiled(2, (db: Kysely<DB>, tokenHash: string, now: string) =>
  db
    .selectFrom('sessions as s')
    .innerJoin('users as u', 'u.id', 's.user_id')
    .select(['u.id as user_id', 'u.organization_id', 'u.email', 'u.role', 's.id as credential_id', 's.created_on as last_used_on', 's.expires_on'])
    .where('s.token_hash', '=', tokenHash)
    .where('s.expires_on', '>', now)
    .where('u.deactivated_on', 'is', null),
);

// Read on every authenticated request (src/modules/auth/caller-cache.ts).
const epochOfCredentials = precompiled(0, (db: Kysely<DB>) => db.selectFrom('credentials_epoch').select('value').where('id', '=', 1));

export class AuthRepo {
  constructor(private readonly db: Kysely<DB>) {}

  async findCallerByApiKeyHash(keyHash: string, now: string): Promise<CallerRow | undefined> {
    return (await callerByApiKeyHash(this.db, keyHash, now))[0];
  }

  /** The credentials epoch: it moves with every change that can end a credential (migration 0009). */
  async credentialsEpoch(): Promise<number> {
    const row = (await epochOfCredentials(this.db))[0];
    if (row === undefined) throw new Error('The credentials epoch row is missing (migration 2026_11_23_0009)');
    return row.value;
  }

  /** The credentials epoch read at once, when the connection allows it (precompiled `now`); undefined otherwise. */
  credentialsEpochNow(): number | undefined {
    return epochOfCredentials.now(this.db)?.[0]?.value;
  }

  async findCallerBySessionHash(tokenHash: string, now: string): Promise<CallerRow | undefined> {
    return (await callerBySessionHash(this.db, tokenHash, now))[0];
  }

  async touchApiKey(keyId: number, now: string): Promise<void> {
    await this.db.updateTable('api_keys').set({ last_used_on: now }).where('id', '=', keyId).execute();
  }

  async insertSession(session: { user_id: number; token_hash: string; created_on: string; expires_on: string }): Promise<void> {
    await this.db.insertInto('sessions').values(session).execute();
  }

  async deleteSession(sessionId: number): Promise<void> {
    await this.db.deleteFrom('sessions').where('id', '=', sessionId).execute();
  }

  /** Ends every session of a user, but the one named (the caller's own, when it changes its password). */
  async deleteSessionsOfUser(userId: number, exceptSessionId?: number): Promise<void> {
    let query = this.db.deleteFrom('sessions').where('user_id', '=', userId);
    if (exceptSessionId !== undefined) query = query.where('id', '!=', exceptSessionId);
    await query.execute();
  }

  async deleteExpiredSessions(userId: number, now: string): Promise<void> {
    await this.db.deleteFrom('sessions').where('user_id', '=', userId).where('expires_on', '<=', now).execute();
  }

  insertApiKey(key: NewApiKey) {
    return this.db.insertInto('api_keys').values(key).returning(API_KEY_COLUMNS).executeTakeFirstOrThrow();
  }

  listApiKeys(userId: number) {
    return this.db.selectFrom('api_keys').select(API_KEY_COLUMNS).where('user_id', '=', userId).orderBy('id', 'desc').execute();
  }

  /** Revokes one of the user's keys; undefined when the user has no such key still active. */
  revokeApiKey(userId: number, keyId: number, now: string) {
    return this.db
      .updateTable('api_keys')
      .set({ revoked_on: now })
      .where('id', '=', keyId)
      .where('user_id', '=', userId)
      .where('revoked_on', 'is', null)
      .returning(API_KEY_COLUMNS)
      .executeTakeFirst();
  }
}
