import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashToken } from '../src/modules/auth/tokens.js';
import { OWNER_EMAIL, OWNER_PASSWORD, startTestApp, type TestApp } from './support/app.js';
import { databaseKinds } from './support/databases.js';
import { createUser, type TestUser } from './support/factories.js';
import { client, request } from './support/http.js';

describe.each(databaseKinds)('identity (%s)', (kind) => {
  let t: TestApp;
  let member: TestUser;

  beforeAll(async () => {
    t = await startTestApp(kind);
    member = await createUser(t.app, { role: 'member', password: 'member password 1' });
  });
  afterAll(() => t.close());

  const login = (email: string, password: string) => request(t.app, 'POST', '/api/v2/auth/login', { email, password });

  describe('login and logout', () => {
    it('the first start created the configured owner, who can log in', async () => {
      const reply = await login(OWNER_EMAIL, OWNER_PASSWORD);
      expect(reply.status).toBe(200);
      expect(reply.body.data.token).toMatch(/^aps_/);
      expect(reply.body.data.token_type).toBe('Bearer');
      expect(Date.parse(reply.body.data.expires_on)).toBeGreaterThan(Date.now() + 23 * 3600_000);
      expect(reply.body.data.user).toMatchObject({ email: OWNER_EMAIL, role: 'owner', is_active: true });
      expect(reply.text).not.toContain('password_hash');
      expect(reply.text).not.toContain('scrypt');
    });

    it('e-mail is matched ignoring case', async () => {
      expect((await login(member.email.toUpperCase(), 'member password 1')).status).toBe(200);
    });

    it('401 alike for a wrong password and an unknown e-mail', async () => {
      const wrong = await login(member.email, 'not it');
      const unknown = await login('nobody@example.com', 'member password 1');
      for (const reply of [wrong, unknown]) {
        expect(reply.status).toBe(401);
        expect(reply.body.error.code).toBe('unauthenticated');
        expect(reply.body.message).toBe('Invalid e-mail or password');
      }
    });

    it('400 for a body without the fields', async () => {
      const reply = await request(t.app, 'POST', '/api/v2/auth/login', { email: member.email });
      expect(reply.status).toBe(400);
      expect(reply.body.error.details).toEqual([{ pointer: '/body/password', message: 'is required' }]);
    });

    it('the session token works until logout, then answers 401', async () => {
      const token = (await login(member.email, 'member password 1')).body.data.token;
      const session = client(t.app, token);
      expect((await session.get('/api/v2/users/me')).status).toBe(200);
      expect((await session.post('/api/v2/auth/logout')).status).toBe(200);
      expect((await session.get('/api/v2/users/me')).status).toBe(401);
      expect((await session.post('/api/v2/auth/logout')).status).toBe(401);
    });

    it('logout with an API key is refused (400), and the key keeps working', async () => {
      expect((await member.api.post('/api/v2/auth/logout')).status).toBe(400);
      expect((await member.api.get('/api/v2/users/me')).status).toBe(200);
    });

    it('an expired session answers 401', async () => {
      const token = (await login(member.email, 'member password 1')).body.data.token;
      await t.app.database.db.updateTable('sessions').set({ expires_on: '2020-01-01T00:00:00.000Z' }).where('token_hash', '=', hashToken(token)).execute();
      expect((await client(t.app, token).get('/api/v2/users/me')).status).toBe(401);
    });
  });

  describe('API keys', () => {
    it('shows the secret once, lists keys without it, and revokes', async () => {
      const created = await member.api.post('/api/v2/auth/api-keys', { name: 'CI', expires_in_days: 30 });
      expect(created.status).toBe(201);
      const key = created.body.data;
      expect(key.key).toMatch(/^apk_[A-Za-z0-9_-]{43}$/);
      expect(key.key.startsWith(key.prefix)).toBe(true);
      expect(Date.parse(key.expires_on)).toBeGreaterThan(Date.now() + 29 * 86_400_000);

      const listed = await member.api.get('/api/v2/auth/api-keys');
      expect(listed.status).toBe(200);
      expect(listed.text).not.toContain(key.key);
      expect(listed.text).not.toContain(hashToken(key.key));
      const item = listed.body.data.items.find((k: { id: number }) => k.id === key.id);
      expect(Object.keys(item).sort()).toEqual(['created_on', 'expires_on', 'id', 'last_used_on', 'name', 'prefix', 'revoked_on']);

      const withKey = client(t.app, key.key);
      expect((await withKey.get('/api/v2/users/me')).body.data.email).toBe(member.email);
      const used = (await member.api.get('/api/v2/auth/api-keys')).body.data.items.find((k: { id: number }) => k.id === key.id);
      expect(used.last_used_on).not.toBeNull();

      const revoked = await member.api.delete(`/api/v2/auth/api-keys/${key.id}`);
      expect(revoked.status).toBe(200);
      expect(revoked.body.data.revoked_on).not.toBeNull();
      expect((await withKey.get('/api/v2/users/me')).status).toBe(401);
      expect((await member.api.delete(`/api/v2/auth/api-keys/${key.id}`)).status).toBe(404);
    });

    it('keys are stored only as hashes', async () => {
      const key = (await member.api.post('/api/v2/auth/api-keys', { name: 'hashed' })).body.data;
      const rows = await t.app.database.db.selectFrom('api_keys').selectAll().where('id', '=', key.id).execute();
      expect(JSON.stringify(rows)).not.toContain(key.key);
      expect(rows[0]!.key_hash).toBe(hashToken(key.key));
    });

    it('another user’s key cannot be revoked (404), nor another organization’s', async () => {
      const other = await createUser(t.app, { role: 'owner' });
      const key = (await other.api.post('/api/v2/auth/api-keys', { name: 'theirs' })).body.data;
      expect((await member.api.delete(`/api/v2/auth/api-keys/${key.id}`)).status).toBe(404);
      expect((await member.api.get('/api/v2/auth/api-keys')).text).not.toContain('theirs');
      expect((await client(t.app, key.key).get('/api/v2/users/me')).status).toBe(200);
    });

    it('an expired key answers 401', async () => {
      const key = (await member.api.post('/api/v2/auth/api-keys', { name: 'short' })).body.data;
      await t.app.database.db.updateTable('api_keys').set({ expires_on: '2020-01-01T00:00:00.000Z' }).where('id', '=', key.id).execute();
      expect((await client(t.app, key.key).get('/api/v2/users/me')).status).toBe(401);
    });

    it('400 for a bad body or id', async () => {
      expect((await member.api.post('/api/v2/auth/api-keys', {})).status).toBe(400);
      expect((await member.api.post('/api/v2/auth/api-keys', { name: 'x', expires_in_days: 0 })).status).toBe(400);
      expect((await member.api.delete('/api/v2/auth/api-keys/abc')).status).toBe(400);
    });
  });

  describe('credentials', () => {
    it.each([
      ['no header', undefined],
      ['a malformed header', 'Token abc'],
      ['an empty bearer', 'Bearer '],
      ['an unknown kind of token', 'Bearer xyz_abcdef'],
      ['a made-up API key', 'Bearer apk_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA'],
      ['a made-up session token', 'Bearer aps_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA'],
      ['a key with a tail', `Bearer apk_x y`],
    ])('401 with %s', async (_label, authorization) => {
      const reply = await request(t.app, 'GET', '/api/v2/users/me', undefined, { headers: authorization ? { authorization } : {} });
      expect(reply.status).toBe(401);
      expect(reply.body.error.code).toBe('unauthenticated');
      expect(reply.headers['www-authenticate']).toBe('Bearer');
    });

    it('headers a client can set grant nothing', async () => {
      const reply = await request(t.app, 'GET', '/api/v2/agents', undefined, {
        headers: { 'x-forwarded-for': '127.0.0.1', 'x-request-from': 'internal', 'x-user-id': '1', 'x-organization-id': '1' },
      });
      expect(reply.status).toBe(401);
    });

    it('upper-case and encoded paths do not get around authentication', async () => {
      for (const url of ['/API/v2/agents', '/api/V2/agents', '/api/v2/%61gents', '/api/v2//agents', '/api/v2/agents/', '/api/v2/agents/..%2f..%2fhealth']) {
        const reply = await request(t.app, 'GET', url);
        expect([401, 404], url).toContain(reply.status);
      }
    });

    it('a deactivated user’s API keys and sessions stop working at once', async () => {
      const user = await createUser(t.app, { role: 'member', password: 'deactivated 123' });
      const session = client(t.app, (await login(user.email, 'deactivated 123')).body.data.token);
      expect((await session.get('/api/v2/users/me')).status).toBe(200);
      await t.app.database.db.updateTable('users').set({ deactivated_on: new Date().toISOString() }).where('id', '=', user.id).execute();
      expect((await user.api.get('/api/v2/users/me')).status).toBe(401);
      expect((await session.get('/api/v2/users/me')).status).toBe(401);
      expect((await login(user.email, 'deactivated 123')).status).toBe(401);
    });
  });

  describe('users/me', () => {
    it('gives the caller with organization and teams, and no secret', async () => {
      const reply = await member.api.get('/api/v2/users/me');
      expect(reply.status).toBe(200);
      expect(reply.body.data).toMatchObject({
        id: member.id,
        email: member.email,
        role: 'member',
        organization_id: member.organizationId,
        organization: { id: member.organizationId, name: 'Default organization' },
        teams: [],
      });
      expect(reply.text).not.toMatch(/password|hash/);
    });
  });
});

describe('rate limiting', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp('sqlite', { LIMIT_REQUESTS_PER_MINUTE: '5' });
  });
  afterAll(() => t.close());

  it('answers 429 with Retry-After once a credential has used its requests, per credential', async () => {
    const first = await createUser(t.app);
    const second = await createUser(t.app);
    const statuses = [];
    for (let i = 0; i < 7; i++) statuses.push((await first.api.get('/api/v2/users/me')).status);
    expect(statuses.slice(0, 5)).toEqual([200, 200, 200, 200, 200]);
    const limited = await first.api.get('/api/v2/users/me');
    expect(limited.status).toBe(429);
    expect(limited.body.error.code).toBe('rate_limited');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    // Another credential has its own allowance.
    expect((await second.api.get('/api/v2/users/me')).status).toBe(200);
  });
});

describe('login attempts', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp('sqlite', { LIMIT_LOGINS_PER_MINUTE: '3' });
  });
  afterAll(() => t.close());

  it('are limited per address more tightly than other requests', async () => {
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await request(t.app, 'POST', '/api/v2/auth/login', { email: `guess${i}@example.com`, password: 'x' })).status);
    expect(statuses).toEqual([401, 401, 401, 429]);
  });
});
