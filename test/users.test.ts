import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashToken } from '../src/modules/auth/tokens.js';
import { OWNER_EMAIL, startTestApp, type TestApp } from './support/app.js';
import { databaseKinds } from './support/databases.js';
import { createOrganization, createUser, firstOrganizationId, type TestUser } from './support/factories.js';
import { client, request } from './support/http.js';

describe.each(databaseKinds)('users (%s)', (kind) => {
  let t: TestApp;
  let owner: TestUser;
  let admin: TestUser;
  let member: TestUser;
  let viewer: TestUser;
  let sequence = 0;
  const email = () => `person${++sequence}@example.com`;

  beforeAll(async () => {
    t = await startTestApp(kind);
    owner = await createUser(t.app, { role: 'owner' });
    admin = await createUser(t.app, { role: 'admin' });
    member = await createUser(t.app, { role: 'member', password: 'member password 1' });
    viewer = await createUser(t.app, { role: 'viewer' });
  });
  afterAll(() => t.close());

  const login = (address: string, password: string) => request(t.app, 'POST', '/api/v2/auth/login', { email: address, password });
  const setPassword = (token: string, password: string) => request(t.app, 'POST', '/api/v2/auth/set-password', { token, password });

  describe('invite and set a password', () => {
    it('an admin invites a user: the answer carries a one-time token and no password', async () => {
      const address = email();
      const reply = await admin.api.post('/api/v2/users', { email: address.toUpperCase(), first_name: 'Ada', last_name: 'Lovelace', role: 'viewer' });
      expect(reply.status).toBe(201);
      const { user, set_password_token, set_password_token_expires_on } = reply.body.data;
      expect(user).toMatchObject({ email: address, first_name: 'Ada', last_name: 'Lovelace', role: 'viewer', is_active: true, created_by: admin.email, modified_by: admin.email });
      expect(set_password_token).toMatch(/^apw_[A-Za-z0-9_-]{43}$/);
      expect(Date.parse(set_password_token_expires_on)).toBeGreaterThan(Date.now() + 71 * 3600_000);
      expect(reply.text).not.toMatch(/password_hash|scrypt/);

      // The token is stored only as a hash.
      const rows = await t.app.database.db.selectFrom('password_tokens').selectAll().where('user_id', '=', user.id).execute();
      expect(rows).toHaveLength(1);
      expect(rows[0]!.token_hash).toBe(hashToken(set_password_token));
      expect(JSON.stringify(rows)).not.toContain(set_password_token);

      // Before the password is set, nobody logs in as the user.
      expect((await login(address, 'a new password 123')).status).toBe(401);
      const set = await setPassword(set_password_token, 'a new password 123');
      expect(set.status).toBe(200);
      expect(set.body.data).toMatchObject({ id: user.id, email: address });
      expect(set.text).not.toMatch(/password_hash|scrypt/);
      expect((await login(address, 'a new password 123')).status).toBe(200);

      // The token works once.
      const again = await setPassword(set_password_token, 'another password 123');
      expect(again.status).toBe(400);
      expect(again.body.error.details).toEqual([{ pointer: '/body/token', message: 'is invalid, expired or already used' }]);
      expect((await login(address, 'a new password 123')).status).toBe(200);
    });

    it('an expired or unknown token is refused, and a short password is a 400', async () => {
      const created = (await owner.api.post('/api/v2/users', { email: email() })).body.data;
      expect((await setPassword(created.set_password_token, 'short')).status).toBe(400);
      expect((await setPassword('apw_nothing', 'long enough password')).status).toBe(400);
      await t.app.database.db.updateTable('password_tokens').set({ expires_on: '2020-01-01T00:00:00.000Z' }).where('user_id', '=', created.user.id).execute();
      expect((await setPassword(created.set_password_token, 'long enough password')).status).toBe(400);
    });

    it('a user created with a password logs in at once and gets no token', async () => {
      const address = email();
      const reply = await owner.api.post('/api/v2/users', { email: address, password: 'chosen by admin 1' });
      expect(reply.status).toBe(201);
      expect(reply.body.data.set_password_token).toBeNull();
      expect(reply.body.data.user.role).toBe('member');
      expect((await login(address, 'chosen by admin 1')).status).toBe(200);
    });

    it('a new token replaces the old one; setting the password ends the user’s sessions', async () => {
      const address = email();
      const created = (await owner.api.post('/api/v2/users', { email: address, password: 'first password 1' })).body.data;
      const session = client(t.app, (await login(address, 'first password 1')).body.data.token);
      expect((await session.get('/api/v2/users/me')).status).toBe(200);

      const first = (await admin.api.post(`/api/v2/users/${created.user.id}/set-password-token`)).body.data.set_password_token;
      const second = await admin.api.post(`/api/v2/users/${created.user.id}/set-password-token`);
      expect(second.status).toBe(201);
      expect((await setPassword(first, 'second password 1')).status).toBe(400);
      expect((await setPassword(second.body.data.set_password_token, 'second password 1')).status).toBe(200);
      expect((await session.get('/api/v2/users/me')).status).toBe(401);
      expect((await login(address, 'second password 1')).status).toBe(200);
    });

    it('only owners and admins invite, and only owners make owners', async () => {
      expect((await member.api.post('/api/v2/users', { email: email() })).status).toBe(403);
      expect((await viewer.api.post('/api/v2/users', { email: email() })).status).toBe(403);
      expect((await admin.api.post('/api/v2/users', { email: email(), role: 'owner' })).status).toBe(403);
      const made = await owner.api.post('/api/v2/users', { email: email(), role: 'owner' });
      expect(made.status).toBe(201);
      expect(made.body.data.user.role).toBe('owner');
    });

    it('409 for an e-mail in use (ignoring case), 400 for a bad one, nothing created', async () => {
      const before = (await owner.api.get('/api/v2/users')).body.data.total;
      expect((await owner.api.post('/api/v2/users', { email: member.email.toUpperCase() })).status).toBe(409);
      const bad = await owner.api.post('/api/v2/users', { email: 'not an address', role: 'chief' });
      expect(bad.status).toBe(400);
      expect(bad.body.error.details.map((d: { pointer: string }) => d.pointer)).toEqual(expect.arrayContaining(['/body/email', '/body/role']));
      expect((await owner.api.get('/api/v2/users')).body.data.total).toBe(before);
    });

    it('fields the server owns are ignored', async () => {
      const reply = await owner.api.post('/api/v2/users', { email: email(), id: 99999, organization_id: 999, password_hash: 'x', deactivated_on: '2020-01-01T00:00:00.000Z' });
      expect(reply.status).toBe(201);
      expect(reply.body.data.user).toMatchObject({ organization_id: owner.organizationId, is_active: true });
      expect(reply.body.data.user.id).not.toBe(99999);
    });
  });

  describe('read', () => {
    it('everyone lists and reads the organization’s users, filtered and paged', async () => {
      const list = await viewer.api.get('/api/v2/users?page_size=2');
      expect(list.status).toBe(200);
      expect(list.body.data.items).toHaveLength(2);
      expect(list.body.data.total).toBeGreaterThanOrEqual(5);
      expect(list.text).not.toMatch(/password_hash|scrypt/);
      const admins = (await viewer.api.get('/api/v2/users?role=admin')).body.data.items;
      expect(admins.every((user: { role: string }) => user.role === 'admin')).toBe(true);
      const found = (await viewer.api.get(`/api/v2/users?q=${encodeURIComponent(member.email.toUpperCase())}`)).body.data.items;
      expect(found.map((user: { id: number }) => user.id)).toEqual([member.id]);
      expect((await viewer.api.get(`/api/v2/users/${member.id}`)).body.data).toMatchObject({ id: member.id, email: member.email });
    });

    it('404 for an unknown user, 400 for a bad id or filter', async () => {
      expect((await viewer.api.get('/api/v2/users/987654')).status).toBe(404);
      expect((await viewer.api.get('/api/v2/users/abc')).status).toBe(400);
      expect((await viewer.api.get('/api/v2/users?role=king')).status).toBe(400);
    });

    it('users/me lists the teams of the caller with the role in each', async () => {
      const team = (await member.api.post('/api/v2/teams', { name: 'Me team' })).body.data;
      const me = await member.api.get('/api/v2/users/me');
      expect(me.body.data.teams).toEqual([{ id: team.id, name: 'Me team', role: 'lead' }]);
    });

    it('users/me answers the caller as it is now: names, organization and teams read on each request', async () => {
      const organizationId = await createOrganization(t.app, 'Before rename');
      await createUser(t.app, { role: 'owner', organizationId });
      const user = await createUser(t.app, { role: 'member', organizationId });
      const me = () => user.api.get('/api/v2/users/me');
      const first = (await me()).body.data;
      expect(first).toMatchObject({ id: user.id, email: user.email, role: 'member', is_active: true, organization: { id: user.organizationId, name: 'Before rename' }, teams: [] });

      expect((await user.api.put(`/api/v2/users/${user.id}`, { first_name: 'Renamed' })).status).toBe(200);
      await t.app.database.db.updateTable('organizations').set({ name: 'After rename' }).where('id', '=', user.organizationId).execute();
      const zulu = (await user.api.post('/api/v2/teams', { name: 'Zulu' })).body.data;
      const alpha = (await user.api.post('/api/v2/teams', { name: 'Alpha' })).body.data;
      const now = (await me()).body.data;
      expect(now).toMatchObject({ first_name: 'Renamed', modified_by: user.email, organization: { id: user.organizationId, name: 'After rename' } });
      expect(now.teams).toEqual([
        { id: alpha.id, name: 'Alpha', role: 'lead' },
        { id: zulu.id, name: 'Zulu', role: 'lead' },
      ]);
    });
  });

  describe('update', () => {
    it('a user changes their own names, and cannot change another’s', async () => {
      const reply = await viewer.api.put(`/api/v2/users/${viewer.id}`, { first_name: 'Vera', last_name: 'Viewer' });
      expect(reply.status).toBe(200);
      expect(reply.body.data).toMatchObject({ first_name: 'Vera', last_name: 'Viewer', modified_by: viewer.email });
      expect((await viewer.api.put(`/api/v2/users/${member.id}`, { first_name: 'Hacked' })).status).toBe(403);
      expect((await owner.api.get(`/api/v2/users/${member.id}`)).body.data.first_name).not.toBe('Hacked');
    });

    it('a user changes their own password with the current one; other sessions end', async () => {
      const user = await createUser(t.app, { role: 'member', password: 'old password 12' });
      const other = client(t.app, (await login(user.email, 'old password 12')).body.data.token);
      const current = client(t.app, (await login(user.email, 'old password 12')).body.data.token);
      const me = `/api/v2/users/${user.id}`;
      expect((await current.put(me, { password: 'new password 12' })).body.error.details).toEqual([{ pointer: '/body/current_password', message: 'is required' }]);
      expect((await current.put(me, { password: 'new password 12', current_password: 'wrong' })).status).toBe(400);
      expect((await current.put(me, { password: 'new password 12', current_password: 'old password 12' })).status).toBe(200);
      expect((await login(user.email, 'old password 12')).status).toBe(401);
      expect((await login(user.email, 'new password 12')).status).toBe(200);
      expect((await other.get('/api/v2/users/me')).status).toBe(401);
      expect((await current.get('/api/v2/users/me')).status).toBe(200);
    });

    it('admins change others’ names, e-mail and role, never their password', async () => {
      const user = await createUser(t.app, { role: 'member' });
      const changed = await admin.api.put(`/api/v2/users/${user.id}`, { first_name: 'New', email: `Renamed${++sequence}@Example.com`, role: 'viewer' });
      expect(changed.status).toBe(200);
      expect(changed.body.data).toMatchObject({ first_name: 'New', email: `renamed${sequence}@example.com`, role: 'viewer' });
      expect((await admin.api.put(`/api/v2/users/${user.id}`, { password: 'set by an admin' })).status).toBe(403);
      expect((await admin.api.put(`/api/v2/users/${user.id}`, { email: member.email })).status).toBe(409);
    });

    it('nobody raises their own role; members change no roles; admins do not touch owners', async () => {
      expect((await member.api.put(`/api/v2/users/${member.id}`, { role: 'admin' })).status).toBe(403);
      expect((await viewer.api.put(`/api/v2/users/${viewer.id}`, { role: 'member' })).status).toBe(403);
      expect((await admin.api.put(`/api/v2/users/${admin.id}`, { role: 'owner' })).status).toBe(403);
      expect((await member.api.put(`/api/v2/users/${viewer.id}`, { role: 'member' })).status).toBe(403);
      expect((await admin.api.put(`/api/v2/users/${owner.id}`, { role: 'member' })).status).toBe(403);
      expect((await admin.api.put(`/api/v2/users/${owner.id}`, { first_name: 'Owned' })).status).toBe(403);
      expect((await owner.api.get(`/api/v2/users/${owner.id}`)).body.data.role).toBe('owner');
      // Lowering one's own role is allowed.
      const lowered = await createUser(t.app, { role: 'admin' });
      expect((await lowered.api.put(`/api/v2/users/${lowered.id}`, { role: 'member' })).body.data.role).toBe('member');
    });

    it('the last active owner is neither demoted nor deactivated (409), and nothing changes', async () => {
      const solo = await startTestApp(kind);
      try {
        const orgId = await firstOrganizationId(solo.app);
        const first = await createUser(solo.app, { organizationId: orgId, role: 'owner' });
        // The owner made at first start is the other owner: deactivate it, leaving one.
        const initial = (await first.api.get(`/api/v2/users?q=${OWNER_EMAIL}`)).body.data.items[0];
        expect((await first.api.delete(`/api/v2/users/${initial.id}`)).status).toBe(200);
        const demote = await first.api.put(`/api/v2/users/${first.id}`, { role: 'admin' });
        expect(demote.status).toBe(409);
        expect(demote.body.error.code).toBe('conflict');
        expect((await first.api.get(`/api/v2/users/${first.id}`)).body.data.role).toBe('owner');
        // With a second owner, the first may step down.
        const second = await createUser(solo.app, { organizationId: orgId, role: 'owner' });
        expect((await first.api.put(`/api/v2/users/${first.id}`, { role: 'admin' })).status).toBe(200);
        expect((await second.api.put(`/api/v2/users/${second.id}`, { role: 'member' })).status).toBe(409);
      } finally {
        await solo.close();
      }
    });

    it('two owners demoting each other at once: one wins, the organization keeps an owner', async () => {
      for (let round = 0; round < 5; round++) {
        const orgId = await createOrganization(t.app);
        const [a, b] = [await createUser(t.app, { organizationId: orgId, role: 'owner' }), await createUser(t.app, { organizationId: orgId, role: 'owner' })];
        const replies = await Promise.all([a.api.put(`/api/v2/users/${b.id}`, { role: 'admin' }), b.api.put(`/api/v2/users/${a.id}`, { role: 'admin' })]);
        // The loser is refused inside the transaction (409), or, when it started after the winner committed, for no longer being an owner (403).
        const [winner, loser] = replies.map((reply) => reply.status).sort();
        expect(winner).toBe(200);
        expect([403, 409]).toContain(loser);
        const owners = await t.app.database.db.selectFrom('users').select('id').where('organization_id', '=', orgId).where('role', '=', 'owner').execute();
        expect(owners).toHaveLength(1);
      }
    });

    it('an update carrying fields the server owns changes none of them', async () => {
      const user = await createUser(t.app, { role: 'member', password: 'kept password 1' });
      const reply = await user.api.put(`/api/v2/users/${user.id}`, {
        first_name: 'Only this',
        organization_id: 999,
        password_hash: 'scrypt$1$1$1$x$y',
        deactivated_on: null,
        created_by: owner.id,
        id: 1,
      });
      expect(reply.status).toBe(200);
      expect(reply.body.data).toMatchObject({ id: user.id, first_name: 'Only this', organization_id: user.organizationId, created_by: null });
      expect((await login(user.email, 'kept password 1')).status).toBe(200);
    });

    it('400 for a bad body, 404 for an unknown user', async () => {
      expect((await owner.api.put(`/api/v2/users/${member.id}`, { email: 'nope' })).status).toBe(400);
      expect((await owner.api.put(`/api/v2/users/${member.id}`, { first_name: 5 })).status).toBe(400);
      expect((await owner.api.put('/api/v2/users/987654', { first_name: 'x' })).status).toBe(404);
    });
  });

  describe('deactivate', () => {
    it('stops the user’s keys and sessions at once, and keeps the record', async () => {
      const user = await createUser(t.app, { role: 'member', password: 'going away 123' });
      const session = client(t.app, (await login(user.email, 'going away 123')).body.data.token);
      const reply = await admin.api.delete(`/api/v2/users/${user.id}`);
      expect(reply.status).toBe(200);
      expect(reply.body.data).toMatchObject({ id: user.id, is_active: false, modified_by: admin.email });
      expect(reply.body.data.deactivated_on).not.toBeNull();
      expect((await user.api.get('/api/v2/users/me')).status).toBe(401);
      expect((await session.get('/api/v2/users/me')).status).toBe(401);
      expect((await login(user.email, 'going away 123')).status).toBe(401);
      expect((await admin.api.get(`/api/v2/users/${user.id}`)).body.data.is_active).toBe(false);
      expect((await admin.api.get('/api/v2/users?is_active=false')).body.data.items.map((u: { id: number }) => u.id)).toContain(user.id);
      expect((await admin.api.get('/api/v2/users?is_active=true')).body.data.items.map((u: { id: number }) => u.id)).not.toContain(user.id);
      // Again: nothing more happens.
      expect((await admin.api.delete(`/api/v2/users/${user.id}`)).status).toBe(200);
      // An invitation token of a deactivated user no longer works, and no new one is issued.
      expect((await admin.api.post(`/api/v2/users/${user.id}/set-password-token`)).status).toBe(409);
    });

    it('admins do not deactivate owners; nobody deactivates themselves; members deactivate nobody', async () => {
      expect((await admin.api.delete(`/api/v2/users/${owner.id}`)).status).toBe(403);
      expect((await owner.api.delete(`/api/v2/users/${owner.id}`)).status).toBe(403);
      expect((await member.api.delete(`/api/v2/users/${viewer.id}`)).status).toBe(403);
      expect((await owner.api.get(`/api/v2/users/${owner.id}`)).body.data.is_active).toBe(true);
      expect((await owner.api.get(`/api/v2/users/${viewer.id}`)).body.data.is_active).toBe(true);
    });

    it('404 for an unknown user', async () => {
      expect((await owner.api.delete('/api/v2/users/987654')).status).toBe(404);
    });
  });
});
