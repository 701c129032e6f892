// Two servers on one database, as a deployment runs several processes on one SQLite file or one
// PostgreSQL. Each server keeps the callers it resolved in memory (src/modules/auth/caller-cache.ts);
// every test first has the second server answer the credential (so that it holds it), then changes
// the credential through the first server, then asks the second server again, at once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../src/app.js';
import { OWNER_EMAIL, OWNER_PASSWORD, startTestApp, testConfig, type TestApp } from './support/app.js';
import { databaseKinds } from './support/databases.js';
import { createAgent, createUser, type TestUser } from './support/factories.js';
import { client, request, type Client } from './support/http.js';
import { addTeammate, createTeam } from './support/people.js';

describe.each(databaseKinds)('revocation seen at once by another server on the same database (%s)', (kind) => {
  let first: TestApp;
  let second: App;
  let owner: Client;

  beforeAll(async () => {
    first = await startTestApp(kind);
    second = await buildApp(testConfig(first.scratch));
    owner = client(first.app, (await request(first.app, 'POST', '/api/v2/auth/login', { email: OWNER_EMAIL, password: OWNER_PASSWORD })).body.data.token);
  });
  afterAll(async () => {
    await second.close();
    await first.close();
  });

  const PASSWORD = 'a password of the user';
  const newUser = (role: TestUser['role'] = 'member') => createUser(first.app, { role, password: PASSWORD });
  const sessionOf = async (user: TestUser, app: App = first.app) =>
    (await request(app, 'POST', '/api/v2/auth/login', { email: user.email, password: PASSWORD })).body.data.token as string;
  const statusOn = async (app: App, token: string) => (await client(app, token).get('/api/v2/users/me')).status;

  it('an API key revoked through one server is refused by the other', async () => {
    const user = await newUser();
    expect(await statusOn(second, user.token)).toBe(200);
    const [key] = (await user.api.get('/api/v2/auth/api-keys')).body.data.items;
    expect((await user.api.delete(`/api/v2/auth/api-keys/${key.id}`)).status).toBe(200);
    expect(await statusOn(second, user.token)).toBe(401);
  });

  it('a session ended (logout) on one server is refused by the other', async () => {
    const token = await sessionOf(await newUser());
    expect(await statusOn(second, token)).toBe(200);
    expect((await client(first.app, token).post('/api/v2/auth/logout')).status).toBe(200);
    expect(await statusOn(second, token)).toBe(401);
  });

  it('a user deactivated through one server has every key and session refused by the other', async () => {
    const user = await newUser();
    const session = await sessionOf(user, second);
    expect(await statusOn(second, user.token)).toBe(200);
    expect(await statusOn(second, session)).toBe(200);
    expect((await owner.delete(`/api/v2/users/${user.id}`)).status).toBe(200);
    expect(await statusOn(second, user.token)).toBe(401);
    expect(await statusOn(second, session)).toBe(401);
  });

  it('a role lowered through one server counts on the other at once', async () => {
    const user = await newUser('member');
    const onSecond = client(second, user.token);
    expect((await onSecond.post('/api/v2/corpora', { name: 'Allowed while a member' })).status).toBe(201);
    expect((await owner.put(`/api/v2/users/${user.id}`, { role: 'viewer' })).status).toBe(200);
    const refused = await onSecond.post('/api/v2/corpora', { name: 'Refused to a viewer' });
    expect(refused.status).toBe(403);
  });

  it('a new password ends the user’s other sessions on every server', async () => {
    const user = await newUser();
    const kept = await sessionOf(user);
    const ended = await sessionOf(user);
    expect(await statusOn(second, ended)).toBe(200);
    const change = await client(first.app, kept).put(`/api/v2/users/${user.id}`, { password: 'another password 2', current_password: PASSWORD });
    expect(change.status).toBe(200);
    expect(await statusOn(second, ended)).toBe(401);
    expect(await statusOn(second, kept)).toBe(200);
  });

  it('a change made in the database by hand (an operator’s SQL) counts too', async () => {
    const user = await newUser();
    expect(await statusOn(second, user.token)).toBe(200);
    await first.app.database.db.updateTable('api_keys').set({ revoked_on: new Date().toISOString() }).where('user_id', '=', user.id).execute();
    expect(await statusOn(second, user.token)).toBe(401);
  });

  it('a teammate removed through one server loses the team’s agents on the other', async () => {
    const lead = await newUser('member');
    const editor = await newUser('member');
    const team = await createTeam(lead);
    await addTeammate(lead, team.id, editor, 'editor');
    const agent = await createAgent(lead, { team_id: team.id });
    const onSecond = client(second, editor.token);
    expect((await onSecond.put(`/api/v2/agents/${agent.id}`, { description: 'Changed by an editor' })).status).toBe(200);
    expect((await lead.api.delete(`/api/v2/teams/${team.id}/members/${editor.id}`)).status).toBe(200);
    expect((await onSecond.put(`/api/v2/agents/${agent.id}`, { description: 'No longer an editor' })).status).toBe(403);
  });

  it('credentials that did not change keep working on both servers', async () => {
    const user = await newUser();
    const session = await sessionOf(user);
    await owner.delete(`/api/v2/users/${(await newUser()).id}`);
    for (const app of [first.app, second]) {
      expect(await statusOn(app, user.token)).toBe(200);
      expect(await statusOn(app, session)).toBe(200);
    }
  });
});
