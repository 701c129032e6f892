import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './support/app.js';
import { databaseKinds } from './support/databases.js';
import { createAgent, createOrganization, createUser, type TestUser } from './support/factories.js';
import { addTeammate, createTeam } from './support/people.js';

describe.each(databaseKinds)('teams and teammates (%s)', (kind) => {
  let t: TestApp;
  let admin: TestUser;
  let lead: TestUser;
  let editor: TestUser;
  let outsider: TestUser;
  let viewer: TestUser;

  beforeAll(async () => {
    t = await startTestApp(kind);
    admin = await createUser(t.app, { role: 'admin' });
    lead = await createUser(t.app, { role: 'member' });
    editor = await createUser(t.app, { role: 'member' });
    outsider = await createUser(t.app, { role: 'member' });
    viewer = await createUser(t.app, { role: 'viewer' });
  });
  afterAll(() => t.close());

  const notificationsOf = async (user: TestUser) => (await user.api.get('/api/v2/notifications')).body.data.items as { kind: string; title: string; link: string }[];

  describe('teams', () => {
    it('a member creates a team and leads it', async () => {
      const reply = await lead.api.post('/api/v2/teams', { name: 'Support', description: 'First line', id: 5, organization_id: 999 });
      expect(reply.status).toBe(201);
      expect(reply.body.data).toMatchObject({
        name: 'Support',
        description: 'First line',
        member_count: 1,
        caller_role: 'lead',
        organization_id: lead.organizationId,
        created_by: lead.email,
        modified_by: lead.email,
      });
      const members = await outsider.api.get(`/api/v2/teams/${reply.body.data.id}/members`);
      expect(members.body.data.items).toEqual([expect.objectContaining({ user_id: lead.id, role: 'lead', email: lead.email, is_active: true, added_by: lead.email })]);
      // Another caller sees the team without a role in it.
      expect((await outsider.api.get(`/api/v2/teams/${reply.body.data.id}`)).body.data.caller_role).toBeNull();
    });

    it('409 for a name in use; 400 for a blank one; viewers create none', async () => {
      await createTeam(lead, { name: 'Twins' });
      expect((await outsider.api.post('/api/v2/teams', { name: 'Twins' })).status).toBe(409);
      expect((await outsider.api.post('/api/v2/teams', { name: ' ' })).status).toBe(400);
      expect((await outsider.api.post('/api/v2/teams', {})).body.error.details).toEqual([{ pointer: '/body/name', message: 'is required' }]);
      expect((await viewer.api.post('/api/v2/teams', { name: 'Viewers' })).status).toBe(403);
    });

    it('lists teams by name, filtered by q and by the caller’s own', async () => {
      const mine = await createTeam(editor, { name: 'Zeta squad' });
      const all = (await viewer.api.get('/api/v2/teams?page_size=100')).body.data.items.map((team: { name: string }) => team.name);
      expect(all).toEqual([...all].sort());
      expect((await viewer.api.get('/api/v2/teams?q=ZETA')).body.data.items.map((team: { id: number }) => team.id)).toEqual([mine.id]);
      const own = (await editor.api.get('/api/v2/teams?mine=true')).body.data.items;
      expect(own.map((team: { id: number }) => team.id)).toEqual([mine.id]);
      expect(own[0].caller_role).toBe('lead');
    });

    it('its lead and admins change it; members outside it and viewers do not', async () => {
      const team = await createTeam(lead);
      expect((await lead.api.put(`/api/v2/teams/${team.id}`, { description: 'by the lead' })).body.data.description).toBe('by the lead');
      expect((await admin.api.put(`/api/v2/teams/${team.id}`, { name: `${team.name} renamed` })).body.data).toMatchObject({ name: `${team.name} renamed`, modified_by: admin.email });
      await addTeammate(lead, team.id, editor, 'editor');
      expect((await editor.api.put(`/api/v2/teams/${team.id}`, { description: 'editor' })).status).toBe(403);
      expect((await outsider.api.put(`/api/v2/teams/${team.id}`, { description: 'outsider' })).status).toBe(403);
      expect((await viewer.api.get(`/api/v2/teams/${team.id}`)).body.data.description).toBe('by the lead');
    });

    it('deleting a team keeps its agents, with no team', async () => {
      const team = await createTeam(lead);
      const agent = await createAgent(lead, { team_id: team.id });
      expect((await editor.api.delete(`/api/v2/teams/${team.id}`)).status).toBe(403);
      expect((await lead.api.delete(`/api/v2/teams/${team.id}`)).status).toBe(200);
      expect((await lead.api.get(`/api/v2/teams/${team.id}`)).status).toBe(404);
      expect((await lead.api.get(`/api/v2/agents/${agent.id}`)).body.data.team_id).toBeNull();
      expect((await lead.api.delete(`/api/v2/teams/${team.id}`)).status).toBe(404);
    });

    it('404 for an unknown team, 400 for a bad id', async () => {
      expect((await lead.api.get('/api/v2/teams/987654')).status).toBe(404);
      expect((await lead.api.put('/api/v2/teams/987654', { name: 'x' })).status).toBe(404);
      expect((await lead.api.get('/api/v2/teams/x')).status).toBe(400);
    });
  });

  describe('teammates', () => {
    it('the lead adds, changes and removes teammates; each is told', async () => {
      const team = await createTeam(lead, { name: 'Notified' });
      const added = await lead.api.post(`/api/v2/teams/${team.id}/members`, { user_id: editor.id, role: 'viewer' });
      expect(added.status).toBe(201);
      expect(added.body.data).toMatchObject({ team_id: team.id, user_id: editor.id, role: 'viewer', added_by: lead.email });
      expect((await notificationsOf(editor))[0]).toMatchObject({ kind: 'team_added', title: 'You were added to the team Notified', link: `/api/v2/teams/${team.id}` });

      const changed = await lead.api.put(`/api/v2/teams/${team.id}/members/${editor.id}`, { role: 'editor' });
      expect(changed.body.data.role).toBe('editor');
      expect((await notificationsOf(editor))[0]).toMatchObject({ kind: 'team_role_changed', title: 'Your role in the team Notified is now editor' });
      // The same role again changes nothing and tells nobody.
      const count = (await notificationsOf(editor)).length;
      await lead.api.put(`/api/v2/teams/${team.id}/members/${editor.id}`, { role: 'editor' });
      expect(await notificationsOf(editor)).toHaveLength(count);

      const list = (await viewer.api.get(`/api/v2/teams/${team.id}/members`)).body.data;
      expect(list.total).toBe(2);
      expect((await viewer.api.get(`/api/v2/teams/${team.id}`)).body.data.member_count).toBe(2);

      expect((await lead.api.delete(`/api/v2/teams/${team.id}/members/${editor.id}`)).body.data).toEqual({ team_id: team.id, user_id: editor.id });
      expect((await lead.api.delete(`/api/v2/teams/${team.id}/members/${editor.id}`)).status).toBe(404);
      // The creator adding themselves elsewhere is not notified of their own act.
      const before = (await notificationsOf(admin)).length;
      const adminsTeam = await createTeam(admin);
      expect(adminsTeam.caller_role).toBe('lead');
      expect(await notificationsOf(admin)).toHaveLength(before);
    });

    it('editors and viewers of a team manage no members; anyone leaves', async () => {
      const team = await createTeam(lead);
      await addTeammate(lead, team.id, editor, 'editor');
      await addTeammate(lead, team.id, viewer, 'viewer');
      expect((await editor.api.post(`/api/v2/teams/${team.id}/members`, { user_id: outsider.id, role: 'viewer' })).status).toBe(403);
      expect((await editor.api.put(`/api/v2/teams/${team.id}/members/${viewer.id}`, { role: 'lead' })).status).toBe(403);
      expect((await editor.api.delete(`/api/v2/teams/${team.id}/members/${viewer.id}`)).status).toBe(403);
      expect((await viewer.api.delete(`/api/v2/teams/${team.id}/members/${viewer.id}`)).status).toBe(200);
      expect((await admin.api.put(`/api/v2/teams/${team.id}/members/${editor.id}`, { role: 'lead' })).body.data.role).toBe('lead');
    });

    it('409 for a user already in the team or deactivated; 404 for an unknown one or one of another organization', async () => {
      const team = await createTeam(lead);
      expect((await lead.api.post(`/api/v2/teams/${team.id}/members`, { user_id: lead.id, role: 'editor' })).status).toBe(409);
      const gone = await createUser(t.app, { role: 'member' });
      await admin.api.delete(`/api/v2/users/${gone.id}`);
      expect((await lead.api.post(`/api/v2/teams/${team.id}/members`, { user_id: gone.id, role: 'editor' })).status).toBe(409);
      expect((await lead.api.post(`/api/v2/teams/${team.id}/members`, { user_id: 987654, role: 'editor' })).status).toBe(404);
      const stranger = await createUser(t.app, { organizationId: await createOrganization(t.app), role: 'member' });
      expect((await lead.api.post(`/api/v2/teams/${team.id}/members`, { user_id: stranger.id, role: 'editor' })).status).toBe(404);
      expect((await lead.api.put(`/api/v2/teams/${team.id}/members/${outsider.id}`, { role: 'editor' })).status).toBe(404);
      expect((await stranger.api.get('/api/v2/notifications')).body.data.total).toBe(0);
      expect((await viewer.api.get(`/api/v2/teams/${team.id}/members`)).body.data.total).toBe(1);
    });

    it('400 for a role that is none of lead, editor, viewer', async () => {
      const team = await createTeam(lead);
      const reply = await lead.api.post(`/api/v2/teams/${team.id}/members`, { user_id: editor.id, role: 'boss' });
      expect(reply.status).toBe(400);
      expect(reply.body.error.details[0].pointer).toBe('/body/role');
    });
  });
});
