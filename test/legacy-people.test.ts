// The legacy generation of the people side: bare bodies and arrays over the same services as /api/v2.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './support/app.js';
import { databaseKinds } from './support/databases.js';
import { createUser, type TestUser } from './support/factories.js';
import { createProject, createTeam } from './support/people.js';

describe.each(databaseKinds)('legacy users, teams, projects, notifications and flags (%s)', (kind) => {
  let t: TestApp;
  let member: TestUser;
  let viewer: TestUser;

  beforeAll(async () => {
    t = await startTestApp(kind);
    member = await createUser(t.app, { role: 'member' });
    viewer = await createUser(t.app, { role: 'viewer' });
    await createTeam(member, { name: 'Legacy team' });
  });
  afterAll(() => t.close());

  it('lists are bare arrays with X-Total-Count, windowed by ?limit=&offset=', async () => {
    const all = await member.api.get('/api/users/');
    expect(all.status).toBe(200);
    expect(Array.isArray(all.body)).toBe(true);
    expect(all.headers['x-total-count']).toBe(String(all.body.length));
    expect(all.body.length).toBe(3);
    const window = await member.api.get('/api/users/?limit=1&offset=1');
    expect(window.body).toEqual([all.body[1]]);
    expect(window.headers['x-total-count']).toBe('3');
    expect((await member.api.get('/api/users/?offset=2')).body).toEqual([all.body[2]]);
    expect((await member.api.get('/api/users/?limit=0')).status).toBe(400);
    expect((await member.api.get('/api/users/?limit=1000')).status).toBe(400);
    expect((await member.api.get('/api/users/?offset=-1')).status).toBe(400);
    expect(all.text).not.toMatch(/password_hash|scrypt/);
  });

  it('the same records as the latest generation, in both directions', async () => {
    const me = await member.api.get('/api/users/me/');
    expect(me.body).toEqual((await member.api.get('/api/v2/users/me')).body.data);
    const teams = await member.api.get('/api/teams/');
    expect(teams.body).toEqual((await member.api.get('/api/v2/teams')).body.data.items);

    const created = await member.api.post('/api/projects/', { name: 'Legacy project' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: 'Legacy project', created_by: member.email });
    expect((await member.api.get(`/api/v2/projects/${created.body.id}`)).body.data.name).toBe('Legacy project');
    const v2 = await createProject(member, { name: 'Latest project' });
    expect((await member.api.get(`/api/projects/${v2.id}/`)).body).toMatchObject({ id: v2.id, name: 'Latest project' });
    const projects = await member.api.get('/api/projects/');
    expect(projects.body.map((project: { name: string }) => project.name)).toEqual(['Latest project', 'Legacy project']);
    expect(projects.headers['x-total-count']).toBe('2');
  });

  it('errors keep the envelope: 403, 404, 400', async () => {
    expect((await viewer.api.post('/api/projects/', { name: 'Viewer project' })).body.error.code).toBe('forbidden');
    expect((await member.api.get('/api/projects/987654/')).status).toBe(404);
    expect((await member.api.post('/api/projects/', {})).status).toBe(400);
  });

  it('notifications and feature flags', async () => {
    await t.app.services.notifications.notify(member.organizationId, [member.id], { kind: 'team_added', title: 'legacy', body: 'b' });
    const notifications = await member.api.get('/api/notifications/');
    expect(notifications.body.map((n: { title: string }) => n.title)).toEqual(['legacy']);
    expect(notifications.headers['x-total-count']).toBe('1');
    const flags = await viewer.api.get('/api/feature-flags/');
    expect(flags.body).toEqual((await viewer.api.get('/api/v2/feature-flags')).body.data.items);
  });
});
