import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { steppedClock } from './support/clock.js';
import { startTestApp, type TestApp } from './support/app.js';
import { databaseKinds } from './support/databases.js';
import { createOrganization, createUser, type TestUser } from './support/factories.js';
import { createProject, createTeam, type TeamData } from './support/people.js';

describe.each(databaseKinds)('projects (%s)', (kind) => {
  let t: TestApp;
  let admin: TestUser;
  let creator: TestUser;
  let colleague: TestUser;
  let outsider: TestUser;
  let viewer: TestUser;
  let red: TeamData;
  let blue: TeamData;

  beforeAll(async () => {
    t = await startTestApp(kind);
    admin = await createUser(t.app, { role: 'admin' });
    creator = await createUser(t.app, { role: 'member' });
    colleague = await createUser(t.app, { role: 'member' });
    outsider = await createUser(t.app, { role: 'member' });
    viewer = await createUser(t.app, { role: 'viewer' });
    red = await createTeam(admin, { name: 'Red', description: 'The red team' });
    blue = await createTeam(admin, { name: 'Blue' });
  });
  afterAll(() => t.close());

  const ids = (items: { id: number }[]) => items.map((item) => item.id);

  describe('create, read, update, delete', () => {
    it('creates a project with teams; the creator is its first member; team details on request', async () => {
      const reply = await creator.api.post('/api/v2/projects', { name: 'Launch', description: 'Go live', team_ids: [red.id, blue.id, red.id], organization_id: 99 });
      expect(reply.status).toBe(201);
      const project = reply.body.data;
      expect(project).toMatchObject({ name: 'Launch', description: 'Go live', organization_id: creator.organizationId, created_by: creator.email, modified_by: creator.email });
      expect(project.team_ids.sort()).toEqual([red.id, blue.id].sort());
      expect(project.users).toEqual([{ id: creator.id, email: creator.email, first_name: 'Test', last_name: 'member' }]);
      expect(project.teams).toBeUndefined();
      const detailed = (await viewer.api.get(`/api/v2/projects/${project.id}?include=teams`)).body.data;
      expect(detailed.teams).toEqual([
        { id: blue.id, name: 'Blue', description: '' },
        { id: red.id, name: 'Red', description: 'The red team' },
      ]);
      expect((await viewer.api.get(`/api/v2/projects/${project.id}?include=everything`)).status).toBe(400);
    });

    it('409 for a name in use; 404 for a team of another organization; viewers create none; nothing created', async () => {
      await createProject(creator, { name: 'Unique' });
      const stranger = await createUser(t.app, { organizationId: await createOrganization(t.app), role: 'owner' });
      const theirTeam = await createTeam(stranger);
      const before = (await admin.api.get('/api/v2/projects')).body.data.total;
      expect((await colleague.api.post('/api/v2/projects', { name: 'Unique' })).status).toBe(409);
      expect((await colleague.api.post('/api/v2/projects', { name: 'Theirs', team_ids: [theirTeam.id] })).status).toBe(404);
      expect((await viewer.api.post('/api/v2/projects', { name: 'Viewed' })).status).toBe(403);
      expect((await colleague.api.post('/api/v2/projects', { name: '' })).status).toBe(400);
      expect((await admin.api.get('/api/v2/projects')).body.data.total).toBe(before);
    });

    it('its members (not viewers) and admins change it; others get 403', async () => {
      const project = await createProject(creator);
      expect((await outsider.api.put(`/api/v2/projects/${project.id}`, { description: 'outsider' })).status).toBe(403);
      const updated = await creator.api.put(`/api/v2/projects/${project.id}`, { description: 'by the creator', team_ids: [red.id] });
      expect(updated.body.data).toMatchObject({ description: 'by the creator', team_ids: [red.id] });
      expect((await admin.api.put(`/api/v2/projects/${project.id}`, { team_ids: [] })).body.data.team_ids).toEqual([]);
      await creator.api.post(`/api/v2/projects/${project.id}/users`, { user_ids: [viewer.id] });
      expect((await viewer.api.put(`/api/v2/projects/${project.id}`, { description: 'viewer' })).status).toBe(403);
      expect((await admin.api.put(`/api/v2/projects/${project.id}`, { team_ids: [987654] })).status).toBe(404);
      expect((await admin.api.get(`/api/v2/projects/${project.id}`)).body.data.description).toBe('by the creator');
    });

    it('its creator and admins delete it; other members do not', async () => {
      const project = await createProject(creator);
      await creator.api.post(`/api/v2/projects/${project.id}/users`, { user_ids: [colleague.id] });
      expect((await colleague.api.delete(`/api/v2/projects/${project.id}`)).status).toBe(403);
      expect((await creator.api.delete(`/api/v2/projects/${project.id}`)).status).toBe(200);
      expect((await creator.api.get(`/api/v2/projects/${project.id}`)).status).toBe(404);
      expect((await admin.api.delete(`/api/v2/projects/${project.id}`)).status).toBe(404);
    });
  });

  describe('members', () => {
    it('adds users (once each), tells those added, and removes them', async () => {
      const project = await createProject(creator, { name: 'Crew' });
      const added = await creator.api.post(`/api/v2/projects/${project.id}/users`, { user_ids: [colleague.id, viewer.id, colleague.id, creator.id] });
      expect(added.status).toBe(200);
      expect(ids(added.body.data.users).sort()).toEqual([creator.id, colleague.id, viewer.id].sort());
      const told = (await colleague.api.get('/api/v2/notifications')).body.data.items[0];
      expect(told).toMatchObject({ kind: 'project_added', title: 'You were added to the project Crew', link: `/api/v2/projects/${project.id}` });
      // Adding again tells nobody again.
      const count = (await colleague.api.get('/api/v2/notifications')).body.data.total;
      await creator.api.post(`/api/v2/projects/${project.id}/users`, { user_ids: [colleague.id] });
      expect((await colleague.api.get('/api/v2/notifications')).body.data.total).toBe(count);

      const removed = await creator.api.delete(`/api/v2/projects/${project.id}/users/${colleague.id}`);
      expect(ids(removed.body.data.users)).not.toContain(colleague.id);
      expect((await creator.api.delete(`/api/v2/projects/${project.id}/users/${colleague.id}`)).status).toBe(404);
      // A viewer member leaves, but removes nobody else.
      expect((await viewer.api.delete(`/api/v2/projects/${project.id}/users/${creator.id}`)).status).toBe(403);
      expect((await viewer.api.delete(`/api/v2/projects/${project.id}/users/${viewer.id}`)).status).toBe(200);
    });

    it('404 for a user of another organization or none; 409 for a deactivated one; 403 for outsiders; nothing added', async () => {
      const project = await createProject(creator);
      const stranger = await createUser(t.app, { organizationId: await createOrganization(t.app) });
      const gone = await createUser(t.app);
      await admin.api.delete(`/api/v2/users/${gone.id}`);
      expect((await creator.api.post(`/api/v2/projects/${project.id}/users`, { user_ids: [colleague.id, stranger.id] })).status).toBe(404);
      expect((await creator.api.post(`/api/v2/projects/${project.id}/users`, { user_ids: [987654] })).status).toBe(404);
      expect((await creator.api.post(`/api/v2/projects/${project.id}/users`, { user_ids: [gone.id] })).status).toBe(409);
      expect((await outsider.api.post(`/api/v2/projects/${project.id}/users`, { user_ids: [outsider.id] })).status).toBe(403);
      expect((await creator.api.post(`/api/v2/projects/${project.id}/users`, { user_ids: [] })).status).toBe(400);
      expect(ids((await creator.api.get(`/api/v2/projects/${project.id}`)).body.data.users)).toEqual([creator.id]);
      expect((await stranger.api.get('/api/v2/notifications')).body.data.total).toBe(0);
    });
  });

  describe('lists', () => {
    let alpha: { id: number };
    let beta: { id: number };
    let gamma: { id: number };

    beforeAll(async () => {
      alpha = await createProject(outsider, { name: 'List alpha', team_ids: [red.id] });
      beta = await createProject(outsider, { name: 'List beta', description: 'second', team_ids: [blue.id] });
      gamma = await createProject(colleague, { name: 'List gamma' });
    });

    it('lists by name, filtered by q, team_id and mine', async () => {
      const listed = (await viewer.api.get('/api/v2/projects?q=list')).body.data;
      expect(ids(listed.items)).toEqual([alpha.id, beta.id, gamma.id]);
      expect(ids((await viewer.api.get(`/api/v2/projects?q=list&team_id=${blue.id}`)).body.data.items)).toEqual([beta.id]);
      expect(ids((await colleague.api.get('/api/v2/projects?q=list&mine=true')).body.data.items)).toEqual([gamma.id]);
      expect((await viewer.api.get('/api/v2/projects?q=list&page_size=2&page=2')).body.data).toMatchObject({ total: 3, page: 2, items: [expect.objectContaining({ id: gamma.id })] });
      const withTeams = (await viewer.api.get('/api/v2/projects?q=alpha&include=teams')).body.data.items[0];
      expect(withTeams.teams).toEqual([{ id: red.id, name: 'Red', description: 'The red team' }]);
    });

    it('by ids: in the order asked, each once, leaving out what the caller cannot see', async () => {
      const stranger = await createUser(t.app, { organizationId: await createOrganization(t.app), role: 'owner' });
      const theirs = await createProject(stranger);
      const reply = await viewer.api.post('/api/v2/projects/by-ids?include=teams', { ids: [gamma.id, theirs.id, alpha.id, 987654, gamma.id] });
      expect(reply.status).toBe(200);
      expect(ids(reply.body.data.items)).toEqual([gamma.id, alpha.id]);
      expect(reply.body.data.items[1].teams).toHaveLength(1);
      expect((await viewer.api.post('/api/v2/projects/by-ids', { ids: [] })).status).toBe(400);
      expect((await viewer.api.post('/api/v2/projects/by-ids', { ids: ['1'] })).status).toBe(400);
    });

    it('filter body: text, teams, members, creators, creation time', async () => {
      const filter = (body: object) => viewer.api.post('/api/v2/projects/filter', body);
      expect(ids((await filter({ q: 'second' })).body.data.items)).toEqual([beta.id]);
      expect(ids((await filter({ q: 'list', team_ids: [red.id, blue.id] })).body.data.items)).toEqual([alpha.id, beta.id]);
      expect(ids((await filter({ q: 'list', user_ids: [colleague.id] })).body.data.items)).toEqual([gamma.id]);
      expect(ids((await filter({ q: 'list', created_by: [outsider.id], page_size: 1 })).body.data.items)).toEqual([alpha.id]);
      expect((await filter({ q: 'list', created_after: '2100-01-01T00:00:00.000Z' })).body.data.total).toBe(0);
      expect((await filter({ created_after: 'yesterday' })).status).toBe(400);
    });

    it('recent: the projects the caller opened, created or changed, newest first', async () => {
      const user = await createUser(t.app, { role: 'member' });
      expect((await user.api.get('/api/v2/projects/recent')).body.data.total).toBe(0);
      const clock = steppedClock();
      onTestFinished(clock.restore);
      const own = await createProject(user);
      clock.step();
      await user.api.get(`/api/v2/projects/${alpha.id}`);
      clock.step();
      await user.api.get(`/api/v2/projects/${beta.id}`);
      clock.step();
      await user.api.get(`/api/v2/projects/${alpha.id}`);
      const recent = (await user.api.get('/api/v2/projects/recent')).body.data;
      expect(ids(recent.items)).toEqual([alpha.id, beta.id, own.id]);
      expect(recent.total).toBe(3);
      expect(ids((await user.api.get('/api/v2/projects/recent?page_size=1&page=2')).body.data.items)).toEqual([beta.id]);
      // Another user's recent list is their own.
      expect(ids((await viewer.api.get('/api/v2/projects/recent')).body.data.items)).not.toContain(own.id);
      // A deleted project drops off.
      await user.api.delete(`/api/v2/projects/${own.id}`);
      expect(ids((await user.api.get('/api/v2/projects/recent')).body.data.items)).toEqual([alpha.id, beta.id]);
    });
  });
});
