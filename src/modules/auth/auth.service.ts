// One function resolves the caller for every kind of credential (authenticateRequest: a bearer token
// or API key in the Authorization header, else the browser's session cookie with its CSRF check);
// login, logout and API keys live beside it so that every credential is made and checked in one place.
import { hoursFrom, now, nowMs } from '../../clock.js';
import type { Config } from '../../config.js';
import { BadRequest, Forbidden, NotFound, Unauthenticated } from '../../errors.js';
import type { UnitOfWork } from '../../repositories.js';
import { resolveSecretKey } from '../../secret-key.js';
import type { FeatureFlagsService } from '../flags/flags.service.js';
import type { Actor } from './actor.js';
import { readBearer, type Bearer } from './bearer.js';
import { CallerCache, type CachedCaller } from './caller-cache.js';
import { sameText } from '../../secrets/same-text.js';
import { CsrfTokens } from './csrf.js';
import { spendVerificationTime, verifyPassword } from './password.js';
import type { CsrfEvidence, RequestCredential } from './request-credential.js';
import { CSRF_COOKIE, SESSION_COOKIE } from './session-cookie.js';
import { API_KEY_PREFIX, SESSION_TOKEN_PREFIX, generateToken, hashToken } from './tokens.js';

/** How stale last_used_on may get before a request writes it again; saves a write on every request. */
const LAST_USED_RESOLUTION_MS = 60_000;
const PREFIX_SHOWN = API_KEY_PREFIX.length + 6;

function kindOf(token: string): Actor['credential']['kind'] {
  if (token.startsWith(API_KEY_PREFIX)) return 'api_key';
  if (token.startsWith(SESSION_TOKEN_PREFIX)) return 'session';
  throw new Unauthenticated('Unknown kind of token');
}

const CSRF_REFUSAL =
  `CSRF token missing or wrong: a request made with the ${SESSION_COOKIE} cookie that changes something must send the ${CSRF_COOKIE} cookie's value in X-CSRF-Token`;

export class AuthService {
  private readonly callers = new CallerCache();
  /** Made at first use: the operator's commands build this service without ever needing the secret key. */
  private csrfTokens: CsrfTokens | undefined;

  constructor(
    private readonly store: UnitOfWork,
    private readonly config: Config,
    private readonly flags: FeatureFlagsService,
  ) {}

  /** Resolves the caller from an Authorization header, or throws Unauthenticated. */
  async authenticate(authorization: string | undefined): Promise<Actor> {
    if (authorization === undefined) throw new Unauthenticated();
    return this.authenticateBearer(readBearer(authorization));
  }

  /**
   * Resolves the caller of a request's credential (request-credential.ts). The session cookie is the
   * bearer token it carries, checked the same way (cache, expiry, revocation, deactivation: 401);
   * a state-changing request made with it must then carry its CSRF value (403 otherwise).
   */
  async authenticateRequest(credential: RequestCredential): Promise<Actor> {
    if (credential.via === 'none') throw new Unauthenticated();
    if (credential.via === 'authorization') return this.authenticateBearer(credential.bearer);
    const bearer = credential.bearer;
    if (bearer === undefined) throw new Unauthenticated(`Malformed ${SESSION_COOKIE} cookie: log in again`);
    if (!bearer.token.startsWith(SESSION_TOKEN_PREFIX)) throw new Unauthenticated(`The ${SESSION_COOKIE} cookie carries session tokens only`);
    const actor = await this.authenticateBearer(bearer);
    if (!this.csrfHolds(bearer, credential.csrf)) throw new Forbidden(CSRF_REFUSAL);
    return actor;
  }

  /** authenticateRequest at once, without a promise, when authenticateNow can; undefined otherwise (and for every refusal). */
  authenticateRequestNow(credential: RequestCredential): Actor | undefined {
    if (credential.via === 'none') return undefined;
    if (credential.via === 'authorization') return this.authenticateNow(credential.bearer);
    const bearer = credential.bearer;
    if (bearer === undefined || !bearer.token.startsWith(SESSION_TOKEN_PREFIX)) return undefined;
    const actor = this.authenticateNow(bearer);
    return actor !== undefined && this.csrfHolds(bearer, credential.csrf) ? actor : undefined;
  }

  /** The CSRF value of the session whose token this is, set in the ap_csrf cookie at login. */
  csrfTokenOf(sessionToken: string): string {
    return this.csrf().issue(hashToken(sessionToken));
  }

  /** No evidence needed (a safe method), or the header repeats an ap_csrf cookie sent and is this session's value. */
  private csrfHolds(bearer: Bearer, evidence: CsrfEvidence | undefined): boolean {
    if (evidence === undefined) return true;
    const { header, cookies } = evidence;
    if (header === undefined || !cookies.some((cookie) => sameText(header, cookie))) return false;
    return this.csrf().verify(bearer.hash, header);
  }

  private csrf(): CsrfTokens {
    this.csrfTokens ??= new CsrfTokens(resolveSecretKey(this.config), this.config.secretKeyPrevious);
    return this.csrfTokens;
  }

  /**
   * Resolves the caller of a bearer token read from an Authorization header (undefined: the header
   * was malformed). The caller comes from memory while the credentials epoch has not moved, from the
   * database otherwise; the epoch is read on every call, so a revocation committed anywhere counts
   * at once.
   */
  async authenticateBearer(bearer: Bearer | undefined): Promise<Actor> {
    if (bearer === undefined) throw new Unauthenticated('Malformed Authorization header: expected "Bearer <token>"');
    const kind = kindOf(bearer.token);
    const auth = this.store.repos.auth;
    const epoch = await auth.credentialsEpoch();
    const atMs = nowMs();
    let caller = this.callers.find(epoch, bearer.hash);
    if (caller === undefined || caller.expiresAtMs <= atMs) {
      caller = await this.lookUp(kind, bearer.hash, atMs);
      this.callers.remember(epoch, bearer.hash, caller);
    }
    if (kind === 'api_key' && atMs - caller.lastUsedMs > LAST_USED_RESOLUTION_MS) {
      caller.lastUsedMs = atMs;
      await auth.touchApiKey(caller.actor.credential.id, new Date(atMs).toISOString());
    }
    return caller.actor;
  }

  /**
   * The caller at once, without a promise, when nothing need wait: the epoch could be read directly
   * (SQLite, no transaction open), the caller is cached under it, unexpired, and its last use needs
   * no write. Undefined otherwise (and for every refusal): authenticateBearer then decides.
   */
  authenticateNow(bearer: Bearer | undefined): Actor | undefined {
    if (bearer === undefined) return undefined;
    const epoch = this.store.repos.auth.credentialsEpochNow();
    if (epoch === undefined) return undefined;
    const caller = this.callers.find(epoch, bearer.hash);
    if (caller === undefined) return undefined;
    const atMs = nowMs();
    if (caller.expiresAtMs <= atMs) return undefined;
    if (caller.actor.credential.kind === 'api_key' && atMs - caller.lastUsedMs > LAST_USED_RESOLUTION_MS) return undefined;
    return caller.actor;
  }

  private async lookUp(kind: Actor['credential']['kind'], hash: string, atMs: number): Promise<CachedCaller> {
    const at = new Date(atMs).toISOString();
    const auth = this.store.repos.auth;
    const row = kind === 'api_key' ? await auth.findCallerByApiKeyHash(hash, at) : await auth.findCallerBySessionHash(hash, at);
    if (!row) throw new Unauthenticated('Invalid, expired or revoked token');
    // Shared by every request of this credential until the epoch moves: frozen so that none changes it.
    const actor: Actor = Object.freeze({
      userId: row.user_id,
      organizationId: row.organization_id,
      email: row.email,
      role: row.role,
      credential: Object.freeze({ kind, id: row.credential_id }),
    });
    return {
      actor,
      expiresAtMs: row.expires_on === null ? Number.POSITIVE_INFINITY : Date.parse(row.expires_on),
      lastUsedMs: kind === 'api_key' && row.last_used_on !== null ? Date.parse(row.last_used_on) : Number.NEGATIVE_INFINITY,
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
    return { token, created_on: createdOn, expires_on: expiresOn, user };
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
