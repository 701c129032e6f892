// Chat threads over HTTP: opening, the caller's list and its filters, who sees a thread (owner,
// admins, the agent's team leads; anyone else 404), who changes it, deletion, and the chat log.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './support/app.js';
import { createResponse, createThread } from './support/chat.js';
import { databaseKinds } from './support/databases.js';
import { createAgent, createOrganization, createUser, type TestUser } from './support/factories.js';
import { request } from './support/http.js';
import { addTeammate, createTeam } from './support/people.js';

describe.each(databaseKinds)('chat threads (%s)', (kind) => {
  let t: TestApp;
  let admin: TestUser;
  let owner: TestUser;
  let other: TestUser;
  let lead: TestUser;
  let editor: TestUser;
  let foreigner: TestUser;
  let agentId: number;
  let teamAgentId: number;
  const patch = (user: TestUser, threadId: number, body: unknown) => request(t.app, 'PATCH', `/api/v2/threads/${threadId}`, body, { token: user.token });

  beforeAll(async () => {
    t = await startTestApp(kind);
    admin = await createUser(t.app, { role: 'admin' });
    owner = await createUser(t.app, { role: 'member' });
    other = await createUser(t.app, { role: 'member' });
    lead = await createUser(t.app, { role: 'member' });
    editor = await createUser(t.app, { role: 'member' });
    foreigner = await createUser(t.app, { organizationId: await createOrganization(t.app), role: 'owner' });
    const team = await createTeam(admin);
    await addTeammate(admin, team.id, lead, 'lead');
    await addTeammate(admin, team.id, editor, 'editor');
    agentId = (await createAgent(admin)).id;
    teamAgentId = (await createAgent(admin, { team_id: team.id })).id;
  });
  afterAll(() => t.close());

  it('opens a thread with a visible agent, titled "New chat" unless given a title', async () => {
    const reply = await owner.api.post('/api/v2/threads', { agent_id: agentId });
    expect(reply.status).toBe(201);
    expect(reply.body.data).toMatchObject({ agent_id: agentId, user_id: owner.id, title: 'New chat', pinned: false, tags: [], response_count: 0, created_by: owner.email });
    const titled = await createThread(owner, agentId, { title: 'Leave policy' });
    expect(titled.title).toBe('Leave policy');
  });

  it('refuses an unknown agent, another organization’s agent and a malformed body', async () => {
    expect((await owner.api.post('/api/v2/threads', { agent_id: 999_999 })).status).toBe(404);
    const foreignAgent = await createAgent(foreigner);
    const refused = await owner.api.post('/api/v2/threads', { agent_id: foreignAgent.id });
    expect(refused.status).toBe(404);
    expect(refused.body.error.code).toBe('not_found');
    expect((await owner.api.post('/api/v2/threads', { agent_id: 'seven' })).status).toBe(400);
    expect((await owner.api.post('/api/v2/threads', { agent_id: agentId, title: '' })).status).toBe(400);
  });

  it('lists only the caller’s threads, most recently active first, with filters and pages', async () => {
    const lister = await createUser(t.app, { role: 'member' });
    const first = await createThread(lister, agentId, { title: 'first' });
    const second = await createThread(lister, teamAgentId, { title: 'second' });
    const third = await createThread(lister, agentId, { title: 'third' });
    await createThread(other, agentId, { title: 'not mine' });
    await createResponse(t.app, first, { created_on: new Date(Date.now() + 60_000).toISOString() });
    const all = await lister.api.get('/api/v2/threads');
    expect(all.status).toBe(200);
    expect(all.body.data.items.map((thread: { id: number }) => thread.id)).toEqual([first.id, third.id, second.id]);
    expect(all.body.data.total).toBe(3);
    expect(all.body.data.items[0].response_count).toBe(1);

    const byAgent = await lister.api.get(`/api/v2/threads?agent_id=${teamAgentId}`);
    expect(byAgent.body.data.items.map((thread: { id: number }) => thread.id)).toEqual([second.id]);

    await patch(lister, third.id, { pinned: true, tags: ['hr', 'hr', 'leave'] });
    const pinned = await lister.api.get('/api/v2/threads?pinned=true');
    expect(pinned.body.data.items.map((thread: { id: number }) => thread.id)).toEqual([third.id]);
    expect(pinned.body.data.items[0].tags).toEqual(['hr', 'leave']);
    const unpinned = await lister.api.get('/api/v2/threads?pinned=false');
    expect(unpinned.body.data.total).toBe(2);
    const tagged = await lister.api.get('/api/v2/threads?tag=leave');
    expect(tagged.body.data.items.map((thread: { id: number }) => thread.id)).toEqual([third.id]);

    const page = await lister.api.get('/api/v2/threads?page=2&page_size=2');
    expect(page.body.data).toMatchObject({ page: 2, page_size: 2, total: 3 });
    expect(page.body.data.items).toHaveLength(1);
    expect((await lister.api.get('/api/v2/threads?pinned=maybe')).status).toBe(400);
  });

  it('shows a thread to its owner, admins and the agent’s team leads, and to no one else', async () => {
    const thread = await createThread(owner, teamAgentId);
    for (const seer of [owner, admin, lead]) expect((await seer.api.get(`/api/v2/threads/${thread.id}`)).status).toBe(200);
    for (const stranger of [other, editor, foreigner]) {
      const reply = await stranger.api.get(`/api/v2/threads/${thread.id}`);
      expect(reply.status).toBe(404);
      expect(reply.body.error.code).toBe('not_found');
      expect((await stranger.api.get(`/api/v2/threads/${thread.id}/responses`)).status).toBe(404);
    }
    // A thread with an agent of no team: no lead sees it.
    const plain = await createThread(owner, agentId);
    expect((await lead.api.get(`/api/v2/threads/${plain.id}`)).status).toBe(404);
    expect((await owner.api.get('/api/v2/threads/999999')).status).toBe(404);
    expect((await owner.api.get('/api/v2/threads/abc')).status).toBe(400);
  });

  it('lets the owner and admins rename, pin and tag; a lead who sees it may not', async () => {
    const thread = await createThread(owner, teamAgentId);
    const renamed = await patch(owner, thread.id, { title: 'Renamed' });
    expect(renamed.status).toBe(200);
    expect(renamed.body.data).toMatchObject({ title: 'Renamed', pinned: false, modified_by: owner.email });
    const byAdmin = await patch(admin, thread.id, { pinned: true, tags: ['z', 'a'] });
    expect(byAdmin.body.data).toMatchObject({ title: 'Renamed', pinned: true, tags: ['a', 'z'], modified_by: admin.email });
    const cleared = await patch(owner, thread.id, { tags: [] });
    expect(cleared.body.data).toMatchObject({ pinned: true, tags: [] });

    const refused = await patch(lead, thread.id, { title: 'Lead' });
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('forbidden');
    expect((await patch(other, thread.id, { title: 'Other' })).status).toBe(404);
    expect((await patch(foreigner, thread.id, { title: 'Foreign' })).status).toBe(404);
    expect((await patch(owner, thread.id, {})).status).toBe(400);
    expect((await patch(owner, thread.id, { tags: ['x'.repeat(51)] })).status).toBe(400);
    expect((await owner.api.get(`/api/v2/threads/${thread.id}`)).body.data.title).toBe('Renamed');
  });

  it('gives the chat log oldest first, in pages', async () => {
    const thread = await createThread(owner, agentId);
    const ids = [];
    for (let i = 0; i < 3; i++) ids.push(await createResponse(t.app, thread, { query: `q${i}` }));
    const log = await owner.api.get(`/api/v2/threads/${thread.id}/responses`);
    expect(log.status).toBe(200);
    expect(log.body.data.items.map((response: { id: number }) => response.id)).toEqual(ids);
    expect(log.body.data.items[0]).toMatchObject({ thread_id: thread.id, agent_id: agentId, query: 'q0', status: 'completed', tokens: { prompt: 100, completion: 20, total: 120 }, created_by: owner.email });
    const page = await owner.api.get(`/api/v2/threads/${thread.id}/responses?page=2&page_size=2`);
    expect(page.body.data.items.map((response: { id: number }) => response.id)).toEqual([ids[2]]);
    expect(page.body.data.total).toBe(3);
    expect((await admin.api.get(`/api/v2/threads/${thread.id}/responses`)).status).toBe(200);
  });

  it('deletes a thread for its owner or an admin: it and its responses leave every view, their rows stay', async () => {
    const thread = await createThread(owner, agentId);
    const responseId = await createResponse(t.app, thread);
    expect((await other.api.delete(`/api/v2/threads/${thread.id}`)).status).toBe(404);
    const teamThread = await createThread(owner, teamAgentId);
    expect((await lead.api.delete(`/api/v2/threads/${teamThread.id}`)).status).toBe(403);
    expect((await foreigner.api.delete(`/api/v2/threads/${thread.id}`)).status).toBe(404);

    const deleted = await owner.api.delete(`/api/v2/threads/${thread.id}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body.data).toEqual({ id: thread.id });
    expect((await owner.api.get(`/api/v2/threads/${thread.id}`)).status).toBe(404);
    expect((await owner.api.get(`/api/v2/threads/${thread.id}/responses`)).status).toBe(404);
    expect((await owner.api.get(`/api/v2/responses/${responseId}`)).status).toBe(404);
    expect((await owner.api.delete(`/api/v2/threads/${thread.id}`)).status).toBe(404);
    const listed = await owner.api.get('/api/v2/threads?page_size=100');
    expect(listed.body.data.items.map((item: { id: number }) => item.id)).not.toContain(thread.id);
    const chatLog = await admin.api.get('/api/v2/chat-logs');
    expect(chatLog.body.data.items.map((row: { response_id: number }) => row.response_id)).not.toContain(responseId);

    const row = await t.app.database.db.selectFrom('agent_responses').select('id').where('id', '=', responseId).executeTakeFirst();
    expect(row?.id).toBe(responseId);
    expect((await admin.api.delete(`/api/v2/threads/${teamThread.id}`)).status).toBe(200);
  });
});
