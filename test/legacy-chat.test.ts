// The legacy chat routes: bare resources and arrays, ?limit=&offset= with X-Total-Count, trailing
// slashes, over the same services as /api/v2 (a change through one is seen through the other).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './support/app.js';
import { createResponse, createThread } from './support/chat.js';
import { databaseKinds } from './support/databases.js';
import { createAgent, createOrganization, createUser, type TestUser } from './support/factories.js';

describe.each(databaseKinds)('legacy chat routes (%s)', (kind) => {
  let t: TestApp;
  let admin: TestUser;
  let owner: TestUser;
  let other: TestUser;
  let foreigner: TestUser;
  let agentId: number;

  beforeAll(async () => {
    t = await startTestApp(kind);
    admin = await createUser(t.app, { role: 'admin' });
    owner = await createUser(t.app, { role: 'member' });
    other = await createUser(t.app, { role: 'member' });
    foreigner = await createUser(t.app, { organizationId: await createOrganization(t.app), role: 'owner' });
    agentId = (await createAgent(admin)).id;
  });
  afterAll(() => t.close());

  it('opens a thread and answers it bare; the latest generation sees it', async () => {
    const reply = await owner.api.post('/api/threads/', { agent_id: agentId, title: 'Legacy' });
    expect(reply.status).toBe(201);
    expect(reply.body).toMatchObject({ agent_id: agentId, user_id: owner.id, title: 'Legacy', response_count: 0 });
    expect(reply.body.success).toBeUndefined();
    expect((await owner.api.get(`/api/v2/threads/${reply.body.id}`)).body.data.title).toBe('Legacy');
    expect((await owner.api.post('/api/threads/', { agent_id: 999_999 })).status).toBe(404);
    expect((await foreigner.api.post('/api/threads/', { agent_id: agentId })).status).toBe(404);
    expect((await owner.api.post('/api/threads/', {})).status).toBe(400);
  });

  it('lists the caller’s threads as a bare array, windowed by limit and offset with X-Total-Count', async () => {
    const lister = await createUser(t.app, { role: 'member' });
    const threads = [];
    for (let i = 0; i < 3; i++) threads.push(await createThread(lister, agentId, { title: `t${i}` }));
    await createThread(other, agentId);
    const all = await lister.api.get('/api/threads/');
    expect(all.status).toBe(200);
    expect(Array.isArray(all.body)).toBe(true);
    expect(all.body).toHaveLength(3);
    expect(all.headers['x-total-count']).toBe('3');
    const window = await lister.api.get('/api/threads/?limit=1&offset=1');
    expect(window.body).toHaveLength(1);
    expect(window.headers['x-total-count']).toBe('3');
    expect((await lister.api.get(`/api/threads/?agent_id=${agentId}`)).body).toHaveLength(3);
    expect((await lister.api.get('/api/threads/?limit=0')).status).toBe(400);
  });

  it('gives one thread with its responses, oldest first, to those who see it', async () => {
    const thread = await createThread(owner, agentId);
    const first = await createResponse(t.app, thread);
    const second = await createResponse(t.app, thread);
    const reply = await owner.api.get(`/api/threads/${thread.id}/`);
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({ id: thread.id, response_count: 2 });
    expect(reply.body.responses.map((response: { id: number }) => response.id)).toEqual([first, second]);
    expect(reply.body.responses[0]).toMatchObject({ thread_id: thread.id, status: 'completed', tokens: { total: 120 } });
    expect((await admin.api.get(`/api/threads/${thread.id}/`)).status).toBe(200);
    expect((await other.api.get(`/api/threads/${thread.id}/`)).status).toBe(404);
    expect((await foreigner.api.get(`/api/threads/${thread.id}/`)).status).toBe(404);
    expect((await owner.api.get('/api/threads/x/')).status).toBe(400);
  });

  it('lists and reads responses the caller may see', async () => {
    const reader = await createUser(t.app, { role: 'member' });
    const thread = await createThread(reader, agentId);
    const older = await createResponse(t.app, thread);
    const newer = await createResponse(t.app, thread);
    const othersResponse = await createResponse(t.app, await createThread(other, agentId));
    const mine = await reader.api.get('/api/responses/');
    expect(mine.body.map((response: { id: number }) => response.id)).toEqual([newer, older]);
    expect(mine.headers['x-total-count']).toBe('2');
    expect((await reader.api.get('/api/responses/?limit=1&offset=1')).body.map((response: { id: number }) => response.id)).toEqual([older]);
    expect((await reader.api.get(`/api/responses/?thread_id=${thread.id}&limit=1`)).body.map((response: { id: number }) => response.id)).toEqual([newer]);
    const everyone = await admin.api.get(`/api/responses/?agent_id=${agentId}`);
    expect(everyone.body.map((response: { id: number }) => response.id)).toContain(othersResponse);

    const one = await reader.api.get(`/api/responses/${older}/`);
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject({ id: older, thread_id: thread.id, model: 'test-model' });
    expect((await reader.api.get(`/api/responses/${othersResponse}/`)).status).toBe(404);
    expect((await foreigner.api.get(`/api/responses/${older}/`)).status).toBe(404);
    expect((await foreigner.api.get('/api/responses/')).body).toEqual([]);
  });

  it('deletes a thread for its owner or an admin, answering it as it was; it is gone from both generations', async () => {
    const thread = await createThread(owner, agentId);
    const responseId = await createResponse(t.app, thread);
    expect((await other.api.delete(`/api/threads/${thread.id}/`)).status).toBe(404);
    expect((await foreigner.api.delete(`/api/threads/${thread.id}/`)).status).toBe(404);
    const deleted = await owner.api.delete(`/api/threads/${thread.id}/`);
    expect(deleted.status).toBe(200);
    expect(deleted.body).toMatchObject({ id: thread.id, response_count: 1 });
    expect((await owner.api.get(`/api/threads/${thread.id}/`)).status).toBe(404);
    expect((await owner.api.get(`/api/v2/threads/${thread.id}`)).status).toBe(404);
    expect((await owner.api.get(`/api/responses/${responseId}/`)).status).toBe(404);
    const viaV2 = await createThread(owner, agentId);
    expect((await admin.api.delete(`/api/threads/${viaV2.id}/`)).status).toBe(200);
  });
});
