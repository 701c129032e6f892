// Agents that belong to teams and projects: team roles decide who changes them, ownership stays out of
// history, and the lists by team, by project and across the caller's teams.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './support/app.js';
import { databaseKinds } from './support/databases.js';
import { createAgent, createOrganization, createUser, type TestUser } from './support/factories.js';
import { addTeammate, createProject, createTeam, type ProjectData, type TeamData } from './support/people.js';

describe.each(databaseKinds)('agents of teams and projects (%s)', (kind) => {
  let t: TestApp;
  let admin: TestUser;
  let lead: TestUser;
  let editor: TestUser;
  let teamViewer: TestUser;
  let outsider: TestUser;
  /** An organization viewer who is an editor in the team. */
  let viewerEditor: TestUser;
  let team: TeamData;
  let otherTeam: TeamData;
  let project: ProjectData;

  beforeAll(async () => {
    t = await startTestApp(kind);
    admin = await createUser(t.app, { role: 'admin' });
    lead = await createUser(t.app, { role: 'member' });
    editor = await createUser(t.app, { role: 'member' });
    teamViewer = await createUser(t.app, { role: 'member' });
    outsider = await createUser(t.app, { role: 'member' });
    viewerEditor = await createUser(t.app, { role: 'viewer' });
    team = await createTeam(lead, { name: 'Agents team' });
    await addTeammate(lead, team.id, editor, 'editor');
    await addTeammate(lead, team.id, teamViewer, 'viewer');
    await addTeammate(lead, team.id, viewerEditor, 'editor');
    otherTeam = await createTeam(outsider, { name: 'Other team' });
    project = await createProject(lead, { name: 'Agents project' });
  });
  afterAll(() => t.close());

  describe('creating in a team', () => {
    it('leads and editors (even organization viewers) and admins create agents in the team', async () => {
      for (const user of [lead, editor, viewerEditor, admin]) {
        const agent = await createAgent(user, { team_id: team.id, project_id: project.id });
        expect(agent).toMatchObject({ team_id: team.id, project_id: project.id });
      }
    });

    it('a team viewer and a member outside the team may not (403), and nothing is created', async () => {
      for (const user of [teamViewer, outsider]) {
        const reply = await user.api.post('/api/v2/agents', { name: `Refused ${user.id}`, team_id: team.id });
        expect(reply.status).toBe(403);
        expect(reply.body.message).toContain(`team ${team.id}`);
      }
      expect((await admin.api.get('/api/v2/agents?q=Refused')).body.data.total).toBe(0);
    });

    it('404 for a team or project of another organization or none, and nothing is created', async () => {
      const stranger = await createUser(t.app, { organizationId: await createOrganization(t.app), role: 'owner' });
      const theirTeam = await createTeam(stranger);
      const theirProject = await createProject(stranger);
      for (const body of [{ team_id: theirTeam.id }, { team_id: 987654 }, { project_id: theirProject.id }, { project_id: 987654 }]) {
        const reply = await admin.api.post('/api/v2/agents', { name: 'Nowhere', ...body });
        expect(reply.status).toBe(404);
      }
      expect((await stranger.api.post('/api/v2/agents', { name: 'Theirs', team_id: team.id })).status).toBe(404);
      expect((await admin.api.get('/api/v2/agents?q=Nowhere')).body.data.total).toBe(0);
    });
  });

  describe('changing a team’s agent', () => {
    it('leads, editors (an organization viewer too) and admins change it; team viewers and outsiders get 403', async () => {
      const agent = await createAgent(lead, { team_id: team.id });
      for (const user of [lead, editor, viewerEditor, admin]) {
        expect((await user.api.put(`/api/v2/agents/${agent.id}`, { description: `by ${user.id}` })).status).toBe(200);
        expect((await user.api.post(`/api/v2/agents/${agent.id}/history`, { checkpoint_name: `cp ${user.id}` })).status).toBe(201);
      }
      for (const user of [teamViewer, outsider]) {
        expect((await user.api.put(`/api/v2/agents/${agent.id}`, { description: 'refused' })).status).toBe(403);
        expect((await user.api.post(`/api/v2/agents/${agent.id}/activate`)).status).toBe(403);
        expect((await user.api.post(`/api/v2/agents/${agent.id}/history`, { checkpoint_name: 'refused' })).status).toBe(403);
        const first = (await user.api.get(`/api/v2/agents/${agent.id}/history`)).body.data.items.at(-1).history_id;
        expect((await user.api.put(`/api/v2/agents/${agent.id}/history`, { history_id: first })).status).toBe(403);
        // Reading stays open to everyone in the organization.
        expect((await user.api.get(`/api/v2/agents/${agent.id}`)).status).toBe(200);
      }
      expect((await admin.api.get(`/api/v2/agents/${agent.id}`)).body.data.description).toBe(`by ${admin.id}`);
    });

    it('an organization viewer outside any team still changes no agent of no team', async () => {
      const agent = await createAgent(lead);
      expect((await viewerEditor.api.put(`/api/v2/agents/${agent.id}`, { description: 'x' })).status).toBe(403);
    });

    it('delete: the team’s lead, the creator while an editor there, or an admin', async () => {
      const byEditor = await createAgent(editor, { team_id: team.id });
      const byLead = await createAgent(lead, { team_id: team.id });
      expect((await editor.api.delete(`/api/v2/agents/${byLead.id}`)).status).toBe(403);
      expect((await teamViewer.api.delete(`/api/v2/agents/${byEditor.id}`)).status).toBe(403);
      expect((await outsider.api.delete(`/api/v2/agents/${byEditor.id}`)).status).toBe(403);
      expect((await editor.api.delete(`/api/v2/agents/${byEditor.id}`)).status).toBe(200);
      expect((await lead.api.delete(`/api/v2/agents/${byLead.id}`)).status).toBe(200);
    });

    it('moving an agent into a team takes lead or editor there; out of a team takes changing it', async () => {
      const agent = await createAgent(editor, { team_id: team.id });
      const moved = await editor.api.put(`/api/v2/agents/${agent.id}`, { team_id: otherTeam.id });
      expect(moved.status).toBe(403);
      expect((await admin.api.get(`/api/v2/agents/${agent.id}`)).body.data.team_id).toBe(team.id);
      await addTeammate(outsider, otherTeam.id, editor, 'editor');
      expect((await editor.api.put(`/api/v2/agents/${agent.id}`, { team_id: otherTeam.id })).body.data.team_id).toBe(otherTeam.id);
      expect((await editor.api.put(`/api/v2/agents/${agent.id}`, { team_id: null })).body.data.team_id).toBeNull();
      expect((await editor.api.put(`/api/v2/agents/${agent.id}`, { team_id: 987654 })).status).toBe(404);
      expect((await editor.api.put(`/api/v2/agents/${agent.id}`, { project_id: 987654 })).status).toBe(404);
    });
  });

  describe('ownership is not configuration', () => {
    it('history snapshots leave team and project out, and a restore keeps them', async () => {
      const agent = await createAgent(lead, { instructions: 'first' });
      const created = (await lead.api.get(`/api/v2/agents/${agent.id}/history`)).body.data.items[0].history_id;
      const placed = await lead.api.put(`/api/v2/agents/${agent.id}`, { team_id: team.id, project_id: project.id, instructions: 'second' });
      expect(placed.body.data).toMatchObject({ team_id: team.id, project_id: project.id, version: 2 });
      const record = (await lead.api.get(`/api/v2/agents/${agent.id}/history/${created}`)).body.data;
      expect(Object.keys(record.snapshot)).not.toContain('team_id');
      expect(Object.keys(record.snapshot)).not.toContain('project_id');
      expect(record.differences.map((d: { field: string }) => d.field)).toEqual(['instructions']);

      expect((await lead.api.put(`/api/v2/agents/${agent.id}/history`, { history_id: created })).status).toBe(200);
      const restored = (await lead.api.get(`/api/v2/agents/${agent.id}`)).body.data;
      expect(restored).toMatchObject({ instructions: 'first', team_id: team.id, project_id: project.id });
    });

    it('deleting a project keeps its agents, with no project', async () => {
      const doomed = await createProject(lead);
      const agent = await createAgent(lead, { project_id: doomed.id });
      expect((await lead.api.delete(`/api/v2/projects/${doomed.id}`)).status).toBe(200);
      expect((await lead.api.get(`/api/v2/agents/${agent.id}`)).body.data.project_id).toBeNull();
    });
  });

  describe('lists', () => {
    let inTeamAndProject: { id: number };
    let inTeamOnly: { id: number };
    let inOtherTeam: { id: number };
    let inNoTeam: { id: number };

    beforeAll(async () => {
      const listed = await createProject(lead, { name: 'Listed project' });
      inTeamAndProject = await createAgent(lead, { name: 'Listed A', team_id: team.id, project_id: listed.id });
      inTeamOnly = await createAgent(lead, { name: 'Listed B', team_id: team.id });
      inOtherTeam = await createAgent(outsider, { name: 'Listed C', team_id: otherTeam.id, project_id: listed.id });
      inNoTeam = await createAgent(outsider, { name: 'Listed D' });
      project = listed;
    });

    const ids = (reply: { body: { data: { items: { id: number }[] } } }) => reply.body.data.items.map((agent) => agent.id).sort((a, b) => a - b);

    it('GET /agents filters by team_id and project_id; the filter body by team_ids and project_ids', async () => {
      expect(ids(await admin.api.get(`/api/v2/agents?q=Listed&team_id=${team.id}`))).toEqual([inTeamAndProject.id, inTeamOnly.id]);
      expect(ids(await admin.api.get(`/api/v2/agents?q=Listed&project_id=${project.id}`))).toEqual([inTeamAndProject.id, inOtherTeam.id]);
      expect(ids(await admin.api.get(`/api/v2/agents?team_id=${team.id}&project_id=${project.id}`))).toEqual([inTeamAndProject.id]);
      expect(ids(await admin.api.post('/api/v2/agents/filter', { q: 'Listed', team_ids: [otherTeam.id], project_ids: [project.id] }))).toEqual([inOtherTeam.id]);
      expect((await admin.api.get('/api/v2/agents?team_id=zero')).status).toBe(400);
    });

    it('agents of a team (within a project) and of a project', async () => {
      expect(ids(await teamViewer.api.get(`/api/v2/teams/${team.id}/agents?q=Listed`))).toEqual([inTeamAndProject.id, inTeamOnly.id]);
      expect(ids(await teamViewer.api.get(`/api/v2/teams/${team.id}/agents?project_id=${project.id}`))).toEqual([inTeamAndProject.id]);
      expect(ids(await teamViewer.api.get(`/api/v2/projects/${project.id}/agents`))).toEqual([inTeamAndProject.id, inOtherTeam.id]);
      expect((await teamViewer.api.get('/api/v2/teams/987654/agents')).status).toBe(404);
      expect((await teamViewer.api.get(`/api/v2/teams/${team.id}/agents?project_id=987654`)).status).toBe(404);
      expect((await teamViewer.api.get('/api/v2/projects/987654/agents')).status).toBe(404);
    });

    it('accessible: the agents of the caller’s teams and those of no team', async () => {
      expect(ids(await teamViewer.api.get('/api/v2/agents/accessible?q=Listed'))).toEqual([inTeamAndProject.id, inTeamOnly.id, inNoTeam.id]);
      expect(ids(await outsider.api.get('/api/v2/agents/accessible?q=Listed'))).toEqual([inOtherTeam.id, inNoTeam.id]);
      const paged = (await teamViewer.api.get('/api/v2/agents/accessible?q=Listed&page_size=1&sort=name')).body.data;
      expect(paged).toMatchObject({ page: 1, page_size: 1, total: 3 });
      expect(paged.items[0].id).toBe(inTeamAndProject.id);
    });
  });

  describe('team-role', () => {
    it('answers for the caller, or for ?user_id=, with what the role allows', async () => {
      const agent = await createAgent(lead, { team_id: team.id });
      const own = (await editor.api.get(`/api/v2/agents/${agent.id}/team-role`)).body.data;
      expect(own).toEqual({ agent_id: agent.id, team_id: team.id, user_id: editor.id, organization_role: 'member', team_role: 'editor', can_change: true, can_delete: false });
      const forViewer = (await editor.api.get(`/api/v2/agents/${agent.id}/team-role?user_id=${teamViewer.id}`)).body.data;
      expect(forViewer).toMatchObject({ user_id: teamViewer.id, team_role: 'viewer', can_change: false, can_delete: false });
      expect((await outsider.api.get(`/api/v2/agents/${agent.id}/team-role`)).body.data).toMatchObject({ team_role: null, can_change: false });
      expect((await admin.api.get(`/api/v2/agents/${agent.id}/team-role`)).body.data).toMatchObject({ team_role: null, can_change: true, can_delete: true });
      expect((await lead.api.get(`/api/v2/agents/${agent.id}/team-role`)).body.data).toMatchObject({ team_role: 'lead', can_change: true, can_delete: true });
    });

    it('an agent of no team has no team role; unknown users and agents are 404', async () => {
      const agent = await createAgent(outsider);
      expect((await outsider.api.get(`/api/v2/agents/${agent.id}/team-role`)).body.data).toMatchObject({ team_id: null, team_role: null, can_change: true, can_delete: true });
      const stranger = await createUser(t.app, { organizationId: await createOrganization(t.app) });
      expect((await outsider.api.get(`/api/v2/agents/${agent.id}/team-role?user_id=${stranger.id}`)).status).toBe(404);
      expect((await outsider.api.get('/api/v2/agents/987654/team-role')).status).toBe(404);
      expect((await outsider.api.get(`/api/v2/agents/${agent.id}/team-role?user_id=abc`)).status).toBe(400);
    });
  });

  describe('the agent-alias flag', () => {
    it('off: giving an agent an alias is 403 and changes nothing; keeping or clearing one is allowed', async () => {
      const agent = await createAgent(admin, { alias: 'support-bot' });
      const aliasless = await createAgent(admin);
      const firstRecord = (await admin.api.get(`/api/v2/agents/${agent.id}/history`)).body.data.items[0].history_id;
      expect((await admin.api.put('/api/v2/feature-flags/agent-alias', { enabled: false })).status).toBe(200);
      try {
        const create = await admin.api.post('/api/v2/agents', { name: 'Aliased', alias: 'aliased' });
        expect(create.status).toBe(403);
        expect(create.body.message).toContain('agent-alias');
        expect((await admin.api.get('/api/v2/agents?q=Aliased')).body.data.total).toBe(0);

        const update = await admin.api.put(`/api/v2/agents/${aliasless.id}`, { alias: 'new-alias', description: 'not applied' });
        expect(update.status).toBe(403);
        expect((await admin.api.get(`/api/v2/agents/${aliasless.id}`)).body.data).toMatchObject({ alias: null, description: '', version: 1 });

        // Sending back the alias it has, and clearing it, are no new alias.
        expect((await admin.api.put(`/api/v2/agents/${agent.id}`, { alias: 'support-bot', description: 'kept' })).status).toBe(200);
        expect((await admin.api.put(`/api/v2/agents/${agent.id}`, { alias: null })).body.data.alias).toBeNull();
        // Restoring a record with an alias would give it one again.
        expect((await admin.api.put(`/api/v2/agents/${agent.id}/history`, { history_id: firstRecord })).status).toBe(403);
        expect((await admin.api.get(`/api/v2/agents/${agent.id}`)).body.data.alias).toBeNull();
      } finally {
        await admin.api.put('/api/v2/feature-flags/agent-alias', { enabled: true });
      }
      expect((await admin.api.put(`/api/v2/agents/${agent.id}/history`, { history_id: firstRecord })).status).toBe(200);
      expect((await admin.api.get(`/api/v2/agents/${agent.id}`)).body.data.alias).toBe('support-bot');
    });
  });
});
