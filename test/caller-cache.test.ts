// The credentials epoch and the cache of callers kept under it: the epoch moves with every change
// that can end a credential and with nothing else (so that using a credential keeps it cached), and
// the cache gives back only what was read under the epoch just read.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Actor } from '../src/modules/auth/actor.js';
import { CallerCache } from '../src/modules/auth/caller-cache.js';
import { OWNER_EMAIL, OWNER_PASSWORD, startTestApp, type TestApp } from './support/app.js';
import { databaseKinds } from './support/databases.js';
import { createUser } from './support/factories.js';
import { client, request } from './support/http.js';

const actor = (userId: number): Actor => ({ userId, organizationId: 1, email: `u${userId}@example.com`, role: 'member', credential: { kind: 'api_key', id: userId } });
const cached = (userId: number) => ({ actor: actor(userId), expiresAtMs: Number.POSITIVE_INFINITY, lastUsedMs: 0 });

describe('CallerCache', () => {
  it('gives back a caller only under the epoch it was read in', () => {
    const cache = new CallerCache();
    expect(cache.find(1, 'a')).toBeUndefined();
    cache.remember(1, 'a', cached(1));
    expect(cache.find(1, 'a')?.actor.userId).toBe(1);
    expect(cache.find(2, 'a')).toBeUndefined();
    expect(cache.find(1, 'a')).toBeUndefined();
  });

  it('drops a caller looked up under an epoch the cache has since left', () => {
    const cache = new CallerCache();
    cache.find(1, 'a');
    // Another request read epoch 2 while this one was looking the caller up under epoch 1.
    cache.find(2, 'b');
    cache.remember(1, 'a', cached(1));
    expect(cache.find(2, 'a')).toBeUndefined();
  });

  it('keeps at most its capacity, the oldest going first', () => {
    const cache = new CallerCache(2);
    cache.find(1, 'a');
    for (const [hash, id] of [['a', 1], ['b', 2], ['c', 3]] as const) cache.remember(1, hash, cached(id));
    expect(cache.find(1, 'a')).toBeUndefined();
    expect(cache.find(1, 'c')?.actor.userId).toBe(3);
  });
});

describe.each(databaseKinds)('the credentials epoch (%s)', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(kind);
  });
  afterAll(() => t.close());

  const epoch = () => t.app.services.store.repos.auth.credentialsEpoch();

  it('stays put while credentials are made and used, and names changed', async () => {
    const user = await createUser(t.app, { password: 'a password 123' });
    const before = await epoch();
    const login = await request(t.app, 'POST', '/api/v2/auth/login', { email: OWNER_EMAIL, password: OWNER_PASSWORD });
    const owner = client(t.app, login.body.data.token);
    expect((await user.api.get('/api/v2/users/me')).status).toBe(200);
    expect((await owner.post('/api/v2/auth/api-keys', { name: 'another' })).status).toBe(201);
    expect((await owner.put(`/api/v2/users/${user.id}`, { first_name: 'Renamed' })).status).toBe(200);
    expect(await epoch()).toBe(before);
  });

  it('moves with a revoked key, a logout, a role, an e-mail and a deactivation', async () => {
    const user = await createUser(t.app, { password: 'a password 123' });
    const owner = client(t.app, (await request(t.app, 'POST', '/api/v2/auth/login', { email: OWNER_EMAIL, password: OWNER_PASSWORD })).body.data.token);
    const session = client(t.app, (await request(t.app, 'POST', '/api/v2/auth/login', { email: user.email, password: 'a password 123' })).body.data.token);
    const [key] = (await user.api.get('/api/v2/auth/api-keys')).body.data.items;
    const changes = [
      () => session.post('/api/v2/auth/logout'),
      () => owner.put(`/api/v2/users/${user.id}`, { role: 'viewer' }),
      () => owner.put(`/api/v2/users/${user.id}`, { email: `moved.${user.email}` }),
      () => user.api.delete(`/api/v2/auth/api-keys/${key.id}`),
      () => owner.delete(`/api/v2/users/${user.id}`),
    ];
    for (const change of changes) {
      const before = await epoch();
      expect((await change()).status).toBe(200);
      expect(await epoch()).toBeGreaterThan(before);
    }
  });
});
