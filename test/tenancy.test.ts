// Another organization's agents and history records answer 404 on every route, and nothing of
// theirs changes, whatever the caller's role in their own organization.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './support/app.js';
import { databaseKinds } from './support/databases.js';
import { createAgent, createOrganization, createUser, type TestUser } from './support/factories.js';

describe.each(databaseKinds)('organizations are isolated (%s)', (kind) => {
  let t: TestApp;
  let victim: TestUser;
  let intruder: TestUser;
  let agent: { id: number; name: string };
  let historyId: number;

  beforeAll(async () => {
    t = await startTestApp(kind);
    victim = await createUser(t.app, { role: 'owner' });
    intruder = await createUser(t.app, { role: 'owner', organizationId: await createOrganization(t.app) });
    agent = await createAgent(victim, { name: 'Private agent', instructions: 'secret' });
    historyId = (await victim.api.get(`/api/v2/agents/${agent.id}/history`)).body.data.items[0].history_id;
  });
  afterAll(() => t.close());

  const routes = (): [string, string, unknown?][] => [
    ['GET', `/api/v2/agents/${agent.id}`],
    ['PUT', `/api/v2/agents/${agent.id}`, { name: 'Owned' }],
    ['DELETE', `/api/v2/agents/${agent.id}`],
    ['POST', `/api/v2/agents/${agent.id}/activate`],
    ['POST', `/api/v2/agents/${agent.id}/deactivate`],
    ['GET', `/api/v2/agents/${agent.id}/status`],
    ['GET', `/api/v2/agents/${agent.id}/history`],
    ['POST', `/api/v2/agents/${agent.id}/history`, { checkpoint_name: 'mine' }],
    ['PUT', `/api/v2/agents/${agent.id}/history`, { history_id: historyId }],
    ['GET', `/api/v2/agents/${agent.id}/history/${historyId}`],
    ['GET', `/api/v2/agents/${agent.id}/prompt-history`],
    ['POST', '/api/v2/agents/recent', { agent_id: agent.id }],
    ['POST', '/api/v2/agents/starred', { agent_id: agent.id }],
    ['DELETE', `/api/v2/agents/recent/${agent.id}`],
    ['DELETE', `/api/v2/agents/starred/${agent.id}`],
  ];

  it('every agent route answers 404 to another organization', async () => {
    for (const [method, url, body] of routes()) {
      const reply = await intruder.api[method.toLowerCase() as 'get'](url, body as never);
      expect(reply.status, `${method} ${url}`).toBe(404);
      expect(reply.body.error.code).toBe('not_found');
      expect(reply.text).not.toContain('secret');
    }
  });

  it('the intruder’s history record cannot be restored onto the victim’s agent, nor the reverse', async () => {
    const own = await createAgent(intruder);
    const ownHistory = (await intruder.api.get(`/api/v2/agents/${own.id}/history`)).body.data.items[0].history_id;
    expect((await victim.api.put(`/api/v2/agents/${agent.id}/history`, { history_id: ownHistory })).status).toBe(404);
    expect((await intruder.api.put(`/api/v2/agents/${own.id}/history`, { history_id: historyId })).status).toBe(404);
    expect((await intruder.api.get(`/api/v2/agents/${own.id}/history/${historyId}`)).status).toBe(404);
  });

  it('lists, filters and favourites show nothing of the other organization', async () => {
    const list = await intruder.api.get('/api/v2/agents?q=Private');
    expect(list.body.data.total).toBe(0);
    const filter = await intruder.api.post('/api/v2/agents/filter', { ids: [agent.id] });
    expect(filter.body.data.total).toBe(0);
    for (const favourites of ['recent', 'starred']) {
      expect((await intruder.api.get(`/api/v2/agents/${favourites}`)).body.data.total).toBe(0);
    }
  });

  it('the victim’s agent is unchanged after all of it', async () => {
    const reply = await victim.api.get(`/api/v2/agents/${agent.id}`);
    expect(reply.status).toBe(200);
    expect(reply.body.data).toMatchObject({ name: 'Private agent', instructions: 'secret', version: 1, status: 'draft' });
    expect((await victim.api.get(`/api/v2/agents/${agent.id}/history`)).body.data.total).toBe(1);
  });

  it('the same name may exist in two organizations', async () => {
    expect((await intruder.api.post('/api/v2/agents', { name: 'Private agent' })).status).toBe(201);
  });
});
