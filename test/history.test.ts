import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './support/app.js';
import { databaseKinds } from './support/databases.js';
import { createAgent, createUser, type TestUser } from './support/factories.js';

describe.each(databaseKinds)('agent history (%s)', (kind) => {
  let t: TestApp;
  let member: TestUser;
  let viewer: TestUser;

  beforeAll(async () => {
    t = await startTestApp(kind);
    member = await createUser(t.app, { role: 'member' });
    viewer = await createUser(t.app, { role: 'viewer' });
  });
  afterAll(() => t.close());

  it('lists records newest first, paginated', async () => {
    const agent = await createAgent(member);
    for (let i = 1; i <= 4; i++) await member.api.put(`/api/v2/agents/${agent.id}`, { description: `edit ${i}` });
    const first = await viewer.api.get(`/api/v2/agents/${agent.id}/history?page_size=2`);
    expect(first.status).toBe(200);
    expect(first.body.data).toMatchObject({ page: 1, page_size: 2, total: 5 });
    expect(first.body.data.items.map((r: { version: number }) => r.version)).toEqual([5, 4]);
    const last = await viewer.api.get(`/api/v2/agents/${agent.id}/history?page_size=2&page=3`);
    expect(last.body.data.items.map((r: { version: number }) => r.version)).toEqual([1]);
    const record = first.body.data.items[0];
    expect(Object.keys(record).sort()).toEqual(
      ['agent_id', 'checkpoint_name', 'created_by', 'created_on', 'description', 'history_id', 'kind', 'restored_from_history_id', 'version'].sort(),
    );
  });

  it('saves a named checkpoint without changing the agent', async () => {
    const agent = await createAgent(member);
    const reply = await member.api.post(`/api/v2/agents/${agent.id}/history`, { checkpoint_name: 'Before launch', checkpoint_description: 'Approved by legal' });
    expect(reply.status).toBe(201);
    expect(reply.body.data).toMatchObject({ kind: 'checkpoint', checkpoint_name: 'Before launch', description: 'Approved by legal', version: 1 });
    expect((await member.api.get(`/api/v2/agents/${agent.id}`)).body.data.version).toBe(1);
    expect((await member.api.post(`/api/v2/agents/${agent.id}/history`, {})).status).toBe(400);
    expect((await member.api.post(`/api/v2/agents/${agent.id}/history`, { checkpoint_name: ' ' })).status).toBe(400);
    expect((await viewer.api.post(`/api/v2/agents/${agent.id}/history`, { checkpoint_name: 'x' })).status).toBe(403);
    expect((await member.api.post('/api/v2/agents/6666666/history', { checkpoint_name: 'x' })).status).toBe(404);
  });

  it('shows one record with its snapshot and its differences from the current configuration', async () => {
    const agent = await createAgent(member, { instructions: 'v1', conversation_starters: ['a'] });
    const created = (await member.api.get(`/api/v2/agents/${agent.id}/history`)).body.data.items[0];
    const same = await member.api.get(`/api/v2/agents/${agent.id}/history/${created.history_id}`);
    expect(same.status).toBe(200);
    expect(same.body.data.is_current).toBe(true);
    expect(same.body.data.differences).toEqual([]);
    await member.api.put(`/api/v2/agents/${agent.id}`, { instructions: 'v2', max_tokens: 10 });
    const detail = (await member.api.get(`/api/v2/agents/${agent.id}/history/${created.history_id}`)).body.data;
    expect(detail.snapshot).toMatchObject({ name: agent.name, instructions: 'v1', conversation_starters: ['a'], max_tokens: 1024, status: 'draft' });
    expect(detail.is_current).toBe(false);
    expect(detail.differences).toEqual([
      { field: 'instructions', record: 'v1', current: 'v2' },
      { field: 'max_tokens', record: 1024, current: 10 },
    ]);
  });

  it('404 for a record of another agent, an unknown record or agent; 400 for bad ids', async () => {
    const a = await createAgent(member);
    const b = await createAgent(member);
    const recordOfA = (await member.api.get(`/api/v2/agents/${a.id}/history`)).body.data.items[0].history_id;
    expect((await member.api.get(`/api/v2/agents/${b.id}/history/${recordOfA}`)).status).toBe(404);
    expect((await member.api.get(`/api/v2/agents/${a.id}/history/99999999`)).status).toBe(404);
    expect((await member.api.get(`/api/v2/agents/99999999/history/${recordOfA}`)).status).toBe(404);
    expect((await member.api.get('/api/v2/agents/99999999/history')).status).toBe(404);
    expect((await member.api.get(`/api/v2/agents/${a.id}/history/x`)).status).toBe(400);
    expect((await member.api.get(`/api/v2/agents/${a.id}/history?page_size=1000`)).status).toBe(400);
  });

  it('prompt history lists each distinct version of the instructions, newest first', async () => {
    const agent = await createAgent(member, { instructions: 'alpha' });
    await member.api.put(`/api/v2/agents/${agent.id}`, { instructions: 'beta' });
    await member.api.put(`/api/v2/agents/${agent.id}`, { description: 'no prompt change' });
    await member.api.put(`/api/v2/agents/${agent.id}`, { instructions: 'gamma' });
    await member.api.put(`/api/v2/agents/${agent.id}`, { instructions: 'alpha' });
    const reply = await viewer.api.get(`/api/v2/agents/${agent.id}/prompt-history`);
    expect(reply.status).toBe(200);
    expect(reply.body.data.items.map((p: { instructions: string; version: number }) => [p.instructions, p.version])).toEqual([
      ['alpha', 5],
      ['gamma', 4],
      ['beta', 3],
    ]);
    expect(reply.body.data.total).toBe(3);
    expect(reply.body.data.items[0].created_by).toBe(member.email);
    const paged = await viewer.api.get(`/api/v2/agents/${agent.id}/prompt-history?page=2&page_size=2`);
    expect(paged.body.data.items.map((p: { instructions: string }) => p.instructions)).toEqual(['beta']);
    expect((await viewer.api.get('/api/v2/agents/99999999/prompt-history')).status).toBe(404);
  });
});
