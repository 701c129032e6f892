// The browser session (docs/api.md, "The browser session"): login with "session": "cookie" sets the
// HttpOnly ap_session cookie and the readable ap_csrf cookie; the cookie then authenticates like the
// bearer token it carries, state-changing requests made with it must repeat ap_csrf in X-CSRF-Token,
// an Authorization header always wins, logout ends it. Through the real app on every database.
import type { ChildProcess } from 'node:child_process';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { hashToken } from '../src/modules/auth/tokens.js';
import { OWNER_EMAIL, OWNER_PASSWORD, restartTestApp, startTestApp, type TestApp } from './support/app.js';
import { steppedClock } from './support/clock.js';
import { startServerKeepingOutput } from './support/cli-server.js';
import { createScratchDatabase, databaseKinds, type ScratchDatabase } from './support/databases.js';
import { createUser, type TestUser } from './support/factories.js';
import { request, type Reply } from './support/http.js';
import type { App } from '../src/app.js';

const MEMBER_PASSWORD = 'member password 1';
const CSRF_REFUSAL = /^CSRF token missing or wrong/;

interface CookieSession {
  token: string;
  csrf: string;
  /** The Set-Cookie values of the login, as sent. */
  setCookies: string[];
  body: any;
}

function setCookiesOf(headers: Reply['headers']): string[] {
  const value = headers['set-cookie'];
  return value === undefined ? [] : ([] as string[]).concat(value as string | string[]);
}

function cookieValue(setCookies: string[], name: string): string | undefined {
  const line = setCookies.find((cookie) => cookie.startsWith(`${name}=`));
  return line?.slice(name.length + 1).split(';')[0];
}

function attributesOf(setCookies: string[], name: string): string[] {
  const line = setCookies.find((cookie) => cookie.startsWith(`${name}=`));
  return line === undefined ? [] : line.split(';').slice(1).map((attribute) => attribute.trim());
}

async function cookieLogin(app: App, email: string, password: string, headers: Record<string, string> = {}): Promise<CookieSession> {
  const reply = await request(app, 'POST', '/api/v2/auth/login', { email, password, session: 'cookie' }, { headers });
  if (reply.status !== 200) throw new Error(`cookie login: ${reply.status} ${reply.text}`);
  const setCookies = setCookiesOf(reply.headers);
  return { token: cookieValue(setCookies, 'ap_session')!, csrf: cookieValue(setCookies, 'ap_csrf')!, setCookies, body: reply.body };
}

/** The headers a browser on the site sends: both cookies, and the CSRF header when asked. */
function browser(session: Pick<CookieSession, 'token' | 'csrf'>, options: { csrfHeader?: string | null } = {}): Record<string, string> {
  const headers: Record<string, string> = { cookie: `theme=dark; ap_session=${session.token}; ap_csrf=${session.csrf}` };
  const csrfHeader = options.csrfHeader === undefined ? session.csrf : options.csrfHeader;
  if (csrfHeader !== null) headers['x-csrf-token'] = csrfHeader;
  return headers;
}

describe.each(databaseKinds)('the browser session (%s)', (kind) => {
  let t: TestApp;
  let member: TestUser;
  let owner: CookieSession;

  beforeAll(async () => {
    t = await startTestApp(kind);
    member = await createUser(t.app, { role: 'member', password: MEMBER_PASSWORD });
    owner = await cookieLogin(t.app, OWNER_EMAIL, OWNER_PASSWORD);
  });
  afterAll(() => t.close());

  const as = (headers: Record<string, string>) => ({
    get: (url: string) => request(t.app, 'GET', url, undefined, { headers }),
    post: (url: string, body?: unknown) => request(t.app, 'POST', url, body ?? {}, { headers }),
    put: (url: string, body: unknown) => request(t.app, 'PUT', url, body, { headers }),
    delete: (url: string) => request(t.app, 'DELETE', url, undefined, { headers }),
  });
  const agentCount = async () => (await member.api.get('/api/v2/agents?page_size=1')).body.data.total as number;

  describe('login with "session": "cookie"', () => {
    it('sets ap_session (HttpOnly) and ap_csrf (readable), SameSite=Strict, Path=/, Max-Age the life of the session; no token in the body', async () => {
      const { setCookies, token, csrf, body } = owner;
      expect(setCookies).toHaveLength(2);
      expect(token).toMatch(/^aps_[A-Za-z0-9_-]{43}$/);
      expect(csrf).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(attributesOf(setCookies, 'ap_session').sort()).toEqual(['HttpOnly', 'Max-Age=86400', 'Path=/', 'SameSite=Strict']);
      expect(attributesOf(setCookies, 'ap_csrf').sort()).toEqual(['Max-Age=86400', 'Path=/', 'SameSite=Strict']);
      expect(body.data).toEqual({ session: 'cookie', expires_on: expect.any(String), user: expect.objectContaining({ email: OWNER_EMAIL, role: 'owner' }) });
      expect(JSON.stringify(body)).not.toContain(token);
      expect(JSON.stringify(body)).not.toContain(csrf);
    });

    it('without "session", or with "token", answers a bearer token as before, and sets no cookie', async () => {
      for (const body of [{ email: member.email, password: MEMBER_PASSWORD }, { email: member.email, password: MEMBER_PASSWORD, session: 'token' }]) {
        const reply = await request(t.app, 'POST', '/api/v2/auth/login', body);
        expect(reply.status).toBe(200);
        expect(reply.body.data).toMatchObject({ session: 'token', token: expect.stringMatching(/^aps_/), token_type: 'Bearer' });
        expect(reply.headers['set-cookie']).toBeUndefined();
        expect(reply.headers['cache-control']).toBe('no-store');
      }
      expect((await request(t.app, 'POST', '/api/v2/auth/login', { email: member.email, password: MEMBER_PASSWORD, session: 'jar' })).status).toBe(400);
    });

    it('a wrong password sets no cookie', async () => {
      const reply = await request(t.app, 'POST', '/api/v2/auth/login', { email: member.email, password: 'not it', session: 'cookie' });
      expect(reply.status).toBe(401);
      expect(reply.headers['set-cookie']).toBeUndefined();
    });

    it('is not Secure over plain HTTP, even when an untrusted client claims X-Forwarded-Proto: https', async () => {
      const claimed = await cookieLogin(t.app, member.email, MEMBER_PASSWORD, { 'x-forwarded-proto': 'https' });
      expect(claimed.setCookies.every((cookie) => !/;\s*Secure/i.test(cookie))).toBe(true);
    });

    it('each login has its own CSRF value, bound to its session', async () => {
      const again = await cookieLogin(t.app, OWNER_EMAIL, OWNER_PASSWORD);
      expect(again.token).not.toBe(owner.token);
      expect(again.csrf).not.toBe(owner.csrf);
    });
  });

  describe('requests made with the cookie', () => {
    it('authenticate GET requests without any CSRF header', async () => {
      const me = await as(browser(owner, { csrfHeader: null })).get('/api/v2/users/me');
      expect(me.status).toBe(200);
      expect(me.body.data.email).toBe(OWNER_EMAIL);
      expect((await request(t.app, 'HEAD', '/api/v2/users/me', undefined, { headers: browser(owner, { csrfHeader: null }) })).status).toBe(200);
    });

    it('a state-changing request without the CSRF header, with a wrong one, or with another session’s is a 403 that changes nothing', async () => {
      const other = await cookieLogin(t.app, member.email, MEMBER_PASSWORD);
      const sameUserOtherSession = await cookieLogin(t.app, OWNER_EMAIL, OWNER_PASSWORD);
      const before = await agentCount();
      const forgeries: Record<string, string>[] = [
        browser(owner, { csrfHeader: null }),
        browser(owner, { csrfHeader: 'not-the-value' }),
        browser(owner, { csrfHeader: '' }),
        // The header right, but no ap_csrf cookie to repeat: not a double submit.
        { cookie: `ap_session=${owner.token}`, 'x-csrf-token': owner.csrf },
        // The header and the cookie agree, but the value is not this session's (a planted one).
        browser({ token: owner.token, csrf: other.csrf }),
        browser({ token: owner.token, csrf: sameUserOtherSession.csrf }),
        // The header repeats a planted ap_csrf; the session's own is there too, but not repeated.
        { cookie: `ap_session=${owner.token}; ap_csrf=${owner.csrf}; ap_csrf=${other.csrf}`, 'x-csrf-token': other.csrf },
      ];
      for (const headers of forgeries) {
        const created = await as(headers).post('/api/v2/agents', { name: `Forged ${Math.random()}` });
        expect(created.status, JSON.stringify(headers)).toBe(403);
        expect(created.body.success).toBe(false);
        expect(created.body.error.code).toBe('forbidden');
        expect(created.body.message).toMatch(CSRF_REFUSAL);
        const renamed = await as(headers).put(`/api/v2/users/${owner.body.data.user.id}`, { first_name: 'Forged' });
        expect(renamed.status).toBe(403);
      }
      expect(await agentCount()).toBe(before);
      expect((await as(browser(owner)).get('/api/v2/users/me')).body.data.first_name).not.toBe('Forged');
    });

    it('with the right CSRF header succeeds', async () => {
      const before = await agentCount();
      const created = await as(browser(owner)).post('/api/v2/agents', { name: 'Made in the console' });
      expect(created.status).toBe(201);
      expect(created.body.data.created_by).toBe(OWNER_EMAIL);
      expect(await agentCount()).toBe(before + 1);
      // Where the planted value comes first, the session's own still passes when it is the one repeated.
      const other = await cookieLogin(t.app, member.email, MEMBER_PASSWORD);
      const planted = { cookie: `ap_csrf=${other.csrf}; ap_session=${owner.token}; ap_csrf=${owner.csrf}`, 'x-csrf-token': owner.csrf };
      expect((await as(planted).put(`/api/v2/users/${owner.body.data.user.id}`, { first_name: 'Olive' })).status).toBe(200);
      expect((await as(browser(owner)).get('/api/v2/users/me')).body.data.first_name).toBe('Olive');
    });

    it('an Authorization header wins over the cookie, and needs no CSRF header, exactly as before', async () => {
      const headers = { authorization: `Bearer ${member.token}`, cookie: `ap_session=${owner.token}; ap_csrf=${owner.csrf}` };
      expect((await as(headers).get('/api/v2/users/me')).body.data.email).toBe(member.email);
      const created = await as(headers).post('/api/v2/agents', { name: 'Made with an API key' });
      expect(created.status).toBe(201);
      expect(created.body.data.created_by).toBe(member.email);
      // A bad Authorization header is refused; the cookie does not stand in for it.
      expect((await as({ ...headers, authorization: 'Bearer apk_unknown' }).get('/api/v2/users/me')).status).toBe(401);
      // Broken cookies beside a Bearer token are not even read.
      expect((await as({ authorization: `Bearer ${member.token}`, cookie: 'ap_session=a; ap_session=b' }).get('/api/v2/users/me')).status).toBe(200);
    });

    it('the session token sent as Bearer works too, without CSRF (it is one session)', async () => {
      const bearer = { authorization: `Bearer ${owner.token}` };
      expect((await as(bearer).put(`/api/v2/users/${owner.body.data.user.id}`, { last_name: 'Owner' })).status).toBe(200);
    });
  });

  describe('malformed and duplicate cookies', () => {
    it('answer a clear 4xx and never a 500', async () => {
      const cases: Array<[string, number, RegExp]> = [
        ['ap_session=not a token!', 401, /Malformed ap_session cookie/],
        [`ap_session=${'a'.repeat(5000)}`, 401, /Malformed ap_session cookie/],
        ['ap_session=aps_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', 401, /Invalid, expired or revoked token/],
        [`ap_session=${member.token}`, 401, /session tokens only/],
        [`ap_session=${owner.token}; ap_session=aps_other`, 400, /more than once/],
        ['ap_session=', 401, /Authentication required/],
        ['ap_session=""', 401, /Authentication required/],
        [';;; =; ap_session; =x; ===; other=1', 401, /Authentication required/],
        ['\u00e9t\u00e9=%E0%A4%A; ap_csrf', 401, /Authentication required/],
      ];
      for (const [cookie, status, message] of cases) {
        const reply = await as({ cookie }).get('/api/v2/users/me');
        expect(reply.status, cookie).toBe(status);
        expect(reply.body.success).toBe(false);
        expect(reply.body.message, cookie).toMatch(message);
      }
      const twice = await as({ cookie: `ap_session=${owner.token}; ap_session=aps_other` }).get('/api/v2/users/me');
      expect(twice.body.error).toMatchObject({ code: 'bad_request', details: [{ pointer: '/headers/cookie', message: 'has ap_session more than once' }] });
    });

    it('the same cookie sent twice with the same value is one cookie; quoted values are read unquoted', async () => {
      expect((await as({ cookie: `ap_session=${owner.token}; ap_session=${owner.token}` }).get('/api/v2/users/me')).status).toBe(200);
      expect((await as({ cookie: `ap_session="${owner.token}"` }).get('/api/v2/users/me')).status).toBe(200);
    });

    it('public routes do not read them', async () => {
      const reply = await request(t.app, 'POST', '/api/v2/auth/login', { email: member.email, password: MEMBER_PASSWORD }, { headers: { cookie: 'ap_session=a; ap_session=b' } });
      expect(reply.status).toBe(200);
    });
  });

  describe('the user’s own account, from the console', () => {
    it('reads themself, changes their name, and their password (the session goes on, the others end)', async () => {
      const user = await createUser(t.app, { role: 'viewer', password: 'first password 1' });
      const browserSession = await cookieLogin(t.app, user.email, 'first password 1');
      const elsewhere = (await request(t.app, 'POST', '/api/v2/auth/login', { email: user.email, password: 'first password 1' })).body.data.token;
      const console = as(browser(browserSession));
      expect((await console.get('/api/v2/users/me')).body.data).toMatchObject({ id: user.id, email: user.email });
      expect((await console.put(`/api/v2/users/${user.id}`, { first_name: 'Vera', last_name: 'Viewer' })).body.data).toMatchObject({ first_name: 'Vera', last_name: 'Viewer' });
      const wrong = await console.put(`/api/v2/users/${user.id}`, { password: 'second password 2', current_password: 'not it' });
      expect(wrong.status).toBe(400);
      const changed = await console.put(`/api/v2/users/${user.id}`, { password: 'second password 2', current_password: 'first password 1' });
      expect(changed.status).toBe(200);
      expect((await console.get('/api/v2/users/me')).status).toBe(200);
      expect((await request(t.app, 'GET', '/api/v2/users/me', undefined, { token: elsewhere })).status).toBe(401);
      expect((await request(t.app, 'POST', '/api/v2/auth/login', { email: user.email, password: 'second password 2', session: 'cookie' })).status).toBe(200);
    });
  });

  describe('the end of the session', () => {
    it('logout without the CSRF header is refused and ends nothing', async () => {
      const session = await cookieLogin(t.app, member.email, MEMBER_PASSWORD);
      const refused = await as(browser(session, { csrfHeader: null })).post('/api/v2/auth/logout');
      expect(refused.status).toBe(403);
      expect(refused.headers['set-cookie']).toBeUndefined();
      expect((await as(browser(session)).get('/api/v2/users/me')).status).toBe(200);
    });

    it('logout with the cookie revokes the session on the server and clears both cookies', async () => {
      const session = await cookieLogin(t.app, member.email, MEMBER_PASSWORD);
      expect((await as(browser(session)).get('/api/v2/users/me')).status).toBe(200);
      const out = await as(browser(session)).post('/api/v2/auth/logout');
      expect(out.status).toBe(200);
      const cleared = setCookiesOf(out.headers);
      expect(cookieValue(cleared, 'ap_session')).toBe('');
      expect(cookieValue(cleared, 'ap_csrf')).toBe('');
      expect(attributesOf(cleared, 'ap_session').sort()).toEqual(['HttpOnly', 'Max-Age=0', 'Path=/', 'SameSite=Strict']);
      expect(attributesOf(cleared, 'ap_csrf').sort()).toEqual(['Max-Age=0', 'Path=/', 'SameSite=Strict']);
      // A browser that kept the cookie anyway, and the token as Bearer: both refused.
      const after = await as(browser(session)).get('/api/v2/users/me');
      expect(after.status).toBe(401);
      expect(after.body.error.code).toBe('unauthenticated');
      expect((await request(t.app, 'GET', '/api/v2/users/me', undefined, { token: session.token })).status).toBe(401);
      const rows = await t.app.database.db.selectFrom('sessions').select('id').where('token_hash', '=', hashToken(session.token)).execute();
      expect(rows).toEqual([]);
    });

    it('logout with a Bearer token works as before and sets no cookie', async () => {
      const token = (await request(t.app, 'POST', '/api/v2/auth/login', { email: member.email, password: MEMBER_PASSWORD })).body.data.token;
      const out = await request(t.app, 'POST', '/api/v2/auth/logout', undefined, { token });
      expect(out.status).toBe(200);
      expect(out.headers['set-cookie']).toBeUndefined();
      expect((await request(t.app, 'GET', '/api/v2/users/me', undefined, { token })).status).toBe(401);
    });

    it('a cookie whose user was deactivated is a 401', async () => {
      const user = await createUser(t.app, { role: 'member', password: 'soon gone password' });
      const session = await cookieLogin(t.app, user.email, 'soon gone password');
      expect((await as(browser(session)).get('/api/v2/users/me')).status).toBe(200);
      expect((await as(browser(owner)).delete(`/api/v2/users/${user.id}`)).status).toBe(200);
      expect((await as(browser(session)).get('/api/v2/users/me')).status).toBe(401);
    });

    describe('expiry', () => {
      let clock: ReturnType<typeof steppedClock> | undefined;
      afterEach(() => {
        clock?.restore();
        clock = undefined;
      });

      it('an expired session cookie is a 401, even for a caller resolved a moment before', async () => {
        clock = steppedClock();
        const session = await cookieLogin(t.app, member.email, MEMBER_PASSWORD);
        expect((await as(browser(session)).get('/api/v2/users/me')).status).toBe(200);
        clock.step(24 * 3_600_000 - 1000);
        expect((await as(browser(session)).post('/api/v2/agents', { name: 'Just in time' })).status).toBe(201);
        clock.step(2000);
        const expired = await as(browser(session)).get('/api/v2/users/me');
        expect(expired.status).toBe(401);
        expect(expired.body.message).toBe('Invalid, expired or revoked token');
        expect((await as(browser(session)).post('/api/v2/agents', { name: 'Too late' })).status).toBe(401);
      });
    });
  });

  describe('the OpenAPI document', () => {
    it('has the cookie beside the bearer scheme, and both shapes of the login answer', async () => {
      const doc = (await request(t.app, 'GET', '/openapi.json')).body;
      expect(doc.components.securitySchemes.sessionCookie).toMatchObject({ type: 'apiKey', in: 'cookie', name: 'ap_session' });
      expect(doc.components.securitySchemes.sessionCookie.description).toContain('X-CSRF-Token');
      expect(doc.security).toEqual([{ bearer: [] }, { sessionCookie: [] }]);
      const login = doc.paths['/api/v2/auth/login'].post;
      expect(login.security).toEqual([]);
      const answer = JSON.stringify(login.responses['200']);
      expect(answer).toContain('#/components/schemas/SessionEnvelope');
      expect(answer).toContain('#/components/schemas/CookieSessionEnvelope');
      expect(doc.components.schemas.CookieSession.examples[0]).toMatchObject({ session: 'cookie' });
      expect(doc.components.schemas.CookieSession.properties.token).toBeUndefined();
    });
  });
});

describe.each(databaseKinds)('the browser session behind a proxy, with CORS and a tight rate limit (%s)', (kind) => {
  let t: TestApp;
  let member: TestUser;

  beforeAll(async () => {
    t = await startTestApp(kind, { TRUST_PROXY: '127.0.0.1', CORS_ORIGINS: 'https://other.example.com', LIMIT_REQUESTS_PER_MINUTE: '5' });
    member = await createUser(t.app, { role: 'member', password: MEMBER_PASSWORD });
  });
  afterAll(() => t.close());

  it('cookies are Secure when a trusted proxy says the request came over HTTPS, and only then', async () => {
    const overHttps = await cookieLogin(t.app, member.email, MEMBER_PASSWORD, { 'x-forwarded-proto': 'https' });
    expect(attributesOf(overHttps.setCookies, 'ap_session')).toContain('Secure');
    expect(attributesOf(overHttps.setCookies, 'ap_csrf')).toContain('Secure');
    const out = await request(t.app, 'POST', '/api/v2/auth/logout', undefined, { headers: { ...browser(overHttps), 'x-forwarded-proto': 'https' } });
    expect(out.status).toBe(200);
    for (const name of ['ap_session', 'ap_csrf']) expect(attributesOf(setCookiesOf(out.headers), name)).toEqual(expect.arrayContaining(['Max-Age=0', 'Secure']));

    const overHttp = await cookieLogin(t.app, member.email, MEMBER_PASSWORD, { 'x-forwarded-proto': 'http' });
    expect(overHttp.setCookies.some((cookie) => cookie.includes('Secure'))).toBe(false);
  });

  it('another origin gets no Access-Control-Allow-Credentials, and may not send X-CSRF-Token', async () => {
    const preflight = await t.app.inject({
      method: 'OPTIONS',
      url: '/api/v2/agents',
      headers: { origin: 'https://other.example.com', 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type,x-csrf-token' },
    });
    expect(preflight.headers['access-control-allow-origin']).toBe('https://other.example.com');
    expect(preflight.headers['access-control-allow-credentials']).toBeUndefined();
    expect(String(preflight.headers['access-control-allow-headers']).toLowerCase()).not.toContain('x-csrf-token');
    const session = await cookieLogin(t.app, member.email, MEMBER_PASSWORD);
    const read = await request(t.app, 'GET', '/api/v2/users/me', undefined, { headers: { ...browser(session), origin: 'https://other.example.com' } });
    expect(read.headers['access-control-allow-credentials']).toBeUndefined();
  });

  it('the cookie and the same token sent as Bearer share one rate-limit bucket', async () => {
    const session = await cookieLogin(t.app, member.email, MEMBER_PASSWORD);
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) statuses.push((await request(t.app, 'GET', '/api/v2/users/me', undefined, { headers: browser(session) })).status);
    for (let i = 0; i < 2; i++) statuses.push((await request(t.app, 'GET', '/api/v2/users/me', undefined, { token: session.token })).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200]);
    const byCookie = await request(t.app, 'GET', '/api/v2/users/me', undefined, { headers: browser(session) });
    expect(byCookie.status).toBe(429);
    expect(byCookie.body.error.code).toBe('rate_limited');
    expect((await request(t.app, 'GET', '/api/v2/users/me', undefined, { token: session.token })).status).toBe(429);
    // Another session has its own bucket.
    const other = await cookieLogin(t.app, member.email, MEMBER_PASSWORD);
    expect((await request(t.app, 'GET', '/api/v2/users/me', undefined, { headers: browser(other) })).status).toBe(200);
  });

  it('PUBLIC_BASE_URL on https makes the cookies Secure whatever the request says', async () => {
    t = await restartTestApp(t, { PUBLIC_BASE_URL: 'https://agents.example.com' });
    const session = await cookieLogin(t.app, member.email, MEMBER_PASSWORD);
    for (const name of ['ap_session', 'ap_csrf']) expect(attributesOf(session.setCookies, name)).toContain('Secure');
  });
});

const MARKER = 'cookie-session-requests-done';

/** Resolves once the server's output holds `text` (the test's timeout bounds the wait). */
function logged(child: ChildProcess, output: string[], text: string): Promise<void> {
  return new Promise((resolve) => {
    const check = () => {
      if (!output.join('').includes(text)) return;
      child.stdout!.off('data', check);
      resolve();
    };
    child.stdout!.on('data', check);
    check();
  });
}

describe.each(databaseKinds)('the browser session and the log (%s)', (kind) => {
  let scratch: ScratchDatabase;
  let server: { child: ChildProcess; base: string } | undefined;
  const output: string[] = [];

  beforeAll(async () => {
    scratch = await createScratchDatabase(kind);
    server = await startServerKeepingOutput(
      {
        LOG_LEVEL: 'trace',
        LOG_FORMAT: 'json',
        DATA_DIR: scratch.dataDir,
        // Empty means the embedded SQLite database, whatever DATABASE_URL the suite runs with.
        DATABASE_URL: scratch.databaseUrl ?? '',
        ADMIN_EMAIL: OWNER_EMAIL,
        ADMIN_PASSWORD: OWNER_PASSWORD,
        PASSWORD_HASH_COST: '10',
      },
      output,
    );
  });
  afterAll(async () => {
    if (server) {
      const exited = new Promise((resolve) => server!.child.once('exit', resolve));
      server.child.kill('SIGTERM');
      await exited;
    }
    await scratch?.drop();
  });

  it('writes neither the session token nor the CSRF value, whatever the requests that carry them', async () => {
    const call = async (method: string, path: string, headers: Record<string, string>, body?: unknown) => {
      const response = await fetch(`${server!.base}${path}`, {
        method,
        headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      return { status: response.status, setCookies: response.headers.getSetCookie() };
    };
    const login = await call('POST', '/api/v2/auth/login', {}, { email: OWNER_EMAIL, password: OWNER_PASSWORD, session: 'cookie' });
    expect(login.status).toBe(200);
    const session = { token: cookieValue(login.setCookies, 'ap_session')!, csrf: cookieValue(login.setCookies, 'ap_csrf')! };
    expect(session.token).toMatch(/^aps_/);

    expect((await call('GET', '/api/v2/users/me', browser(session))).status).toBe(200);
    expect((await call('POST', '/api/v2/agents', browser(session, { csrfHeader: null }), { name: 'Refused' })).status).toBe(403);
    expect((await call('POST', '/api/v2/agents', browser(session), { name: 'Logged' })).status).toBe(201);
    expect((await call('POST', '/api/v2/agents', browser(session), { name: '' })).status).toBe(400);
    expect((await call('GET', '/api/v2/users/me', { cookie: `ap_session=${session.token}; ap_session=${session.token}x` })).status).toBe(400);
    expect((await call('GET', `/api/v2/users/me?ap_session=${session.token}`, browser(session))).status).toBe(200);
    expect((await call('POST', '/api/v2/auth/logout', browser(session))).status).toBe(200);
    expect((await call('GET', '/api/v2/users/me', browser(session))).status).toBe(401);
    expect((await call('GET', `/health?after=${MARKER}`, {})).status).toBe(200);

    // Lines are written once each answer has gone: the last request's line says the others are in.
    await logged(server!.child, output, `/health?after=${MARKER}`);
    const log = output.join('');
    expect(log).toContain('/api/v2/auth/logout');
    expect(log).not.toContain(session.token);
    expect(log).not.toContain(session.token.slice(4));
    expect(log).not.toContain(session.csrf);
  });
});
