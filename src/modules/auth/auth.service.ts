// One function resolves the caller for every kind of credential (authenticate); login, logout and
// API keys live beside it so that every credential is made and checked in one place.
import { hoursFrom, now } from '../../clock.js';
import type { Config } from '../../config.js';
import { BadRequest, NotFound, Unauthenticated } from '../../errors.js';
import type { UnitOfWork } from '../../repositories.js';
import type { FeatureFlagsService } from '../flags/flags.service.js';
import type { Actor } from './actor.js';
import type { CallerRow } from './auth.repo.js';
import { spendVerificationTime, verifyPassword } from './password.js';
import { API_KEY_PREFIX, SESSION_TOKEN_PREFIX, generateToken, hashToken } from './tokens.js';

/** How stale last_used_on may get before a request writes it again; saves a write on every request. */
const LAST_USED_RESOLUTION_MS = 60_000;
// The scheme name is case-insensitive (RFC 9110 §11.1); the token is matched as sent.
const BEARER = /^Bearer +([A-Za-z0-9_-]{1,200})$/i;
const PREFIX_SHOWN = API_KEY_PREFIX.length + 6;

export class AuthService {
  constructor(
    private readonly store: UnitOfWork,
    private readonly config: Config,
    private readonly flags: FeatureFlagsService,
  ) {}

  /** Resolves the caller from an Authorization header, or throws Unauthenticated. */
  async authenticate(authorization: string | undefined): Promise<Actor> {
    if (authorization === undefined) throw new Unauthenticated();
    const token = BEARER.exec(authorization)?.[1];
    if (token === undefined) throw new Unauthenticated('Malformed Authorization header: expected "Bearer <token>"');
    const at = now();
    const hash = hashToken(token);
    let caller: CallerRow | undefined;
    let kind: Actor['credential']['kind'];
    if (token.startsWith(API_KEY_PREFIX)) {
      kind = 'api_key';
      caller = await this.store.repos.auth.findCallerByApiKeyHash(hash, at);
      if (caller && (caller.last_used_on === null || Date.parse(at) - Date.parse(caller.last_used_on) > LAST_USED_RESOLUTION_MS)) {
        await this.store.repos.auth.touchApiKey(caller.credential_id, at);
      }
    } else if (token.startsWith(SESSION_TOKEN_PREFIX)) {
      kind = 'session';
      caller = await this.store.repos.auth.findCallerBySessionHash(hash, at);
    } else {
      throw new Unauthenticated('Unknown kind of token');
    }
    if (!caller) throw new Unauthenticated('Invalid, expired or revoked token');
    return {
      userId: caller.user_id,
      organizationId: caller.organization_id,
      email: caller.email,
      role: caller.role,
      credential: { kind, id: caller.credential_id },
    };
  }

  async login(email: string, password: string) {
    const user = await this.store.repos.users.findByEmail(email);
    if (!user || user.password_hash === null || user.deactivated_on !== null) {
      await spendVerificationTime(this.config.passwordHashCost);
      throw new Unauthenticated('Invalid e-mail or password');
    }
    if (!(await verifyPassword(password, user.password_hash))) throw new Unauthenticated('Invalid e-mail or password');
    const token = generateToken(SESSION_TOKEN_PREFIX);
    const createdOn = now();
    const expiresOn = hoursFrom(createdOn, this.config.sessionTtlHours);
    await this.store.repos.auth.deleteExpiredSessions(user.id, createdOn);
    await this.store.repos.auth.insertSession({ user_id: user.id, token_hash: hashToken(token), created_on: createdOn, expires_on: expiresOn });
    return { token, expires_on: expiresOn, user };
  }

  async logout(actor: Actor): Promise<void> {
    if (actor.credential.kind !== 'session') {
      throw new BadRequest('Logout ends a session; revoke an API key with DELETE /api/v2/auth/api-keys/{key_id}');
    }
    await this.store.repos.auth.deleteSession(actor.credential.id);
  }

  /** A key for the caller, through the API: behind the developer-portal flag. */
  async issueApiKey(actor: Actor, input: { name: string; expires_in_days?: number | undefined }) {
    await this.flags.require(actor, 'developer-portal');
    return this.createApiKey(actor, input);
  }

  /** Creates a key for its owner (the caller, or a user named on the command line by the operator). */
  async createApiKey(owner: Pick<Actor, 'userId' | 'organizationId'>, input: { name: string; expires_in_days?: number | undefined }) {
    const key = generateToken(API_KEY_PREFIX);
    const createdOn = now();
    const row = await this.store.repos.auth.insertApiKey({
      organization_id: owner.organizationId,
      user_id: owner.userId,
      name: input.name,
      prefix: key.slice(0, PREFIX_SHOWN),
      key_hash: hashToken(key),
      created_on: createdOn,
      expires_on: input.expires_in_days === undefined ? null : hoursFrom(createdOn, input.expires_in_days * 24),
    });
    return { ...row, key };
  }

  listApiKeys(actor: Actor) {
    return this.store.repos.auth.listApiKeys(actor.userId);
  }

  async revokeApiKey(actor: Actor, keyId: number) {
    const revoked = await this.store.repos.auth.revokeApiKey(actor.userId, keyId, now());
    if (!revoked) throw new NotFound('api_key', keyId);
    return revoked;
  }
}
