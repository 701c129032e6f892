// PUT /api/v2/agents/{agent_id}/history, exactly as API.md §2.1 fixes it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './support/app.js';
import { databaseKinds } from './support/databases.js';
import { createAgent, createUser, type TestUser } from './support/factories.js';

const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe.each(databaseKinds)('restore a checkpoint (%s)', (kind) => {
  let t: TestApp;
  let owner: TestUser;
  let editor: TestUser;

  beforeAll(async () => {
    t = await startTestApp(kind);
    owner = await createUser(t.app, { role: 'owner' });
    editor = await createUser(t.app, { role: 'member' });
  });
  afterAll(() => t.close());

  async function agentWithHistory() {
    const agent = await createAgent(owner, { instructions: 'first' });
    await owner.api.put(`/api/v2/agents/${agent.id}`, { instructions: 'second', temperature: 0.1 });
    await owner.api.put(`/api/v2/agents/${agent.id}`, { instructions: 'third' });
    const history = await owner.api.get(`/api/v2/agents/${agent.id}/history`);
    const records = history.body.data.items as { history_id: number; kind: string; checkpoint_name: string }[];
    return { agent, records, created: records.at(-1)! };
  }

  it('answers 200 with exactly history_id, checkpoint_name, created_on and created_by of the record restored to', async () => {
    const { agent, created } = await agentWithHistory();
    const reply = await editor.api.put(`/api/v2/agents/${agent.id}/history`, { history_id: created.history_id });
    expect(reply.status).toBe(200);
    expect(Object.keys(reply.body).sort()).toEqual(['data', 'message', 'success']);
    expect(reply.body.success).toBe(true);
    expect(typeof reply.body.message).toBe('string');
    const data = reply.body.data;
    expect(Object.keys(data).sort()).toEqual(['checkpoint_name', 'created_by', 'created_on', 'history_id']);
    expect(data.history_id).toBe(created.history_id);
    expect(Number.isInteger(data.history_id)).toBe(true);
    expect(data.checkpoint_name).toBe(created.checkpoint_name);
    expect(typeof data.checkpoint_name).toBe('string');
    expect(data.created_on).toMatch(ISO_MS);
    // The record restored to was written by the owner, whoever restores it.
    expect(data.created_by).toBe(owner.email);
  });

  it('copies the snapshot back onto the agent and appends a record carrying checkpoint_description', async () => {
    const { agent, created } = await agentWithHistory();
    const before = await owner.api.get(`/api/v2/agents/${agent.id}`);
    const reply = await editor.api.put(`/api/v2/agents/${agent.id}/history`, {
      history_id: created.history_id,
      checkpoint_description: 'Back to the first prompt',
    });
    expect(reply.status).toBe(200);
    const after = (await owner.api.get(`/api/v2/agents/${agent.id}`)).body.data;
    expect(after.instructions).toBe('first');
    expect(after.temperature).toBe(0.7);
    expect(after.version).toBe(before.body.data.version + 1);
    expect(after.modified_by).toBe(editor.email);

    const newest = (await owner.api.get(`/api/v2/agents/${agent.id}/history?page_size=1`)).body.data.items[0];
    expect(newest.kind).toBe('restore');
    expect(newest.description).toBe('Back to the first prompt');
    expect(newest.restored_from_history_id).toBe(created.history_id);
    expect(newest.version).toBe(after.version);
    expect(newest.created_by).toBe(editor.email);
  });

  it('never rewrites history: earlier records keep their snapshots', async () => {
    const { agent, records } = await agentWithHistory();
    const detailsBefore = await Promise.all(records.map((r) => owner.api.get(`/api/v2/agents/${agent.id}/history/${r.history_id}`)));
    await owner.api.put(`/api/v2/agents/${agent.id}/history`, { history_id: records.at(-1)!.history_id });
    for (const [index, record] of records.entries()) {
      const detail = await owner.api.get(`/api/v2/agents/${agent.id}/history/${record.history_id}`);
      expect(detail.body.data.snapshot).toEqual(detailsBefore[index]!.body.data.snapshot);
    }
    const all = (await owner.api.get(`/api/v2/agents/${agent.id}/history`)).body.data;
    expect(all.total).toBe(records.length + 1);
  });

  it('restoring to the state the agent already has succeeds and is recorded', async () => {
    const { agent, records } = await agentWithHistory();
    const latest = records[0]!;
    const reply = await owner.api.put(`/api/v2/agents/${agent.id}/history`, { history_id: latest.history_id });
    expect(reply.status).toBe(200);
    expect(reply.body.data.history_id).toBe(latest.history_id);
    const all = (await owner.api.get(`/api/v2/agents/${agent.id}/history`)).body.data;
    expect(all.total).toBe(records.length + 1);
    expect(all.items[0].kind).toBe('restore');
  });

  it('leaves the status as it is: a restore is of configuration', async () => {
    const { agent, created } = await agentWithHistory();
    await owner.api.post(`/api/v2/agents/${agent.id}/activate`);
    await owner.api.put(`/api/v2/agents/${agent.id}/history`, { history_id: created.history_id });
    expect((await owner.api.get(`/api/v2/agents/${agent.id}`)).body.data.status).toBe('active');
  });

  it('ignores unknown body fields', async () => {
    const { agent, created } = await agentWithHistory();
    const reply = await owner.api.put(`/api/v2/agents/${agent.id}/history`, { history_id: created.history_id, version: 99, extra: true });
    expect(reply.status).toBe(200);
  });

  describe('400', () => {
    it.each([
      ['an empty JSON object', {}],
      ['only a description', { checkpoint_description: 'x' }],
    ])('without history_id: %s', async (_label, body) => {
      const { agent } = await agentWithHistory();
      const reply = await owner.api.put(`/api/v2/agents/${agent.id}/history`, body);
      expect(reply.status).toBe(400);
      expect(reply.body.error.code).toBe('bad_request');
      expect(reply.body.message).toContain('history_id');
      expect(reply.body.error.details).toEqual([{ pointer: '/body/history_id', message: 'is required' }]);
    });

    it('with an empty body', async () => {
      const { agent } = await agentWithHistory();
      for (const headers of [{}, { 'content-type': 'application/json' }] as Record<string, string>[]) {
        const reply = await owner.api.put(`/api/v2/agents/${agent.id}/history`, undefined, { headers, raw: '' });
        expect(reply.status).toBe(400);
        expect(reply.body.message).toContain('history_id');
      }
    });

    it.each([['"5"'], ['0'], ['-3'], ['1.5'], ['null'], ['true'], ['"abc"']])('history_id %s is not a positive integer', async (value) => {
      const { agent } = await agentWithHistory();
      const reply = await owner.api.put(`/api/v2/agents/${agent.id}/history`, undefined, {
        raw: `{"history_id": ${value}}`,
        headers: { 'content-type': 'application/json' },
      });
      expect(reply.status).toBe(400);
      expect(reply.body.error.details[0].pointer).toBe('/body/history_id');
    });

    it.each([['abc'], ['0'], ['-1'], ['1.5'], ['99999999999999999999']])('agent_id %s is not a positive integer', async (agentId) => {
      const reply = await owner.api.put(`/api/v2/agents/${agentId}/history`, { history_id: 1 });
      expect(reply.status).toBe(400);
      expect(reply.body.error.details[0].pointer).toBe('/params/agent_id');
    });

    it('a body that is not JSON, or of another content type', async () => {
      const { agent, created } = await agentWithHistory();
      const url = `/api/v2/agents/${agent.id}/history`;
      const notJson = await owner.api.put(url, undefined, { raw: '{history_id: 1', headers: { 'content-type': 'application/json' } });
      expect(notJson.status).toBe(400);
      const text = await owner.api.put(url, undefined, { raw: `history_id=${created.history_id}`, headers: { 'content-type': 'application/x-www-form-urlencoded' } });
      expect(text.status).toBe(400);
      const plain = await owner.api.put(url, undefined, { raw: `{"history_id": ${created.history_id}}`, headers: { 'content-type': 'text/plain' } });
      expect(plain.status).toBe(400);
      for (const reply of [notJson, text, plain]) expect(reply.body.error.code).toBe('bad_request');
      // Nothing changed.
      expect((await owner.api.get(`/api/v2/agents/${agent.id}`)).body.data.instructions).toBe('third');
    });
  });

  describe('404 ("Record Not Found")', () => {
    it('an unknown agent', async () => {
      const reply = await owner.api.put('/api/v2/agents/987654/history', { history_id: 1 });
      expect(reply.status).toBe(404);
      expect(reply.body.error.code).toBe('not_found');
    });

    it('a history_id that is not a record of this agent', async () => {
      const first = await agentWithHistory();
      const second = await agentWithHistory();
      const reply = await owner.api.put(`/api/v2/agents/${second.agent.id}/history`, { history_id: first.created.history_id });
      expect(reply.status).toBe(404);
      expect((await owner.api.get(`/api/v2/agents/${second.agent.id}`)).body.data.instructions).toBe('third');
    });

    it('an unknown history_id', async () => {
      const { agent } = await agentWithHistory();
      expect((await owner.api.put(`/api/v2/agents/${agent.id}/history`, { history_id: 99999999 })).status).toBe(404);
    });

    it('a deleted agent', async () => {
      const { agent, created } = await agentWithHistory();
      await owner.api.delete(`/api/v2/agents/${agent.id}`);
      expect((await owner.api.put(`/api/v2/agents/${agent.id}/history`, { history_id: created.history_id })).status).toBe(404);
    });
  });

  it('401 without credentials', async () => {
    const { agent, created } = await agentWithHistory();
    const reply = await t.app.inject({ method: 'PUT', url: `/api/v2/agents/${agent.id}/history`, payload: { history_id: created.history_id } });
    expect(reply.statusCode).toBe(401);
  });

  it('403 for a viewer, and nothing changes', async () => {
    const { agent, created } = await agentWithHistory();
    const viewer = await createUser(t.app, { role: 'viewer' });
    const reply = await viewer.api.put(`/api/v2/agents/${agent.id}/history`, { history_id: created.history_id });
    expect(reply.status).toBe(403);
    expect(reply.body.error.code).toBe('forbidden');
    expect((await owner.api.get(`/api/v2/agents/${agent.id}`)).body.data.instructions).toBe('third');
  });
});

describe.each(databaseKinds)('restore and names (%s)', (kind) => {
  let t: TestApp;
  let owner: TestUser;
  beforeAll(async () => {
    t = await startTestApp(kind);
    owner = await createUser(t.app, { role: 'owner' });
  });
  afterAll(() => t.close());

  it('409 when the record’s name now belongs to another agent, and nothing changes', async () => {
    const agent = await createAgent(owner, { name: 'Original' });
    const created = (await owner.api.get(`/api/v2/agents/${agent.id}/history`)).body.data.items[0];
    await owner.api.put(`/api/v2/agents/${agent.id}`, { name: 'Renamed' });
    await createAgent(owner, { name: 'Original' });
    const reply = await owner.api.put(`/api/v2/agents/${agent.id}/history`, { history_id: created.history_id });
    expect(reply.status).toBe(409);
    const after = (await owner.api.get(`/api/v2/agents/${agent.id}`)).body.data;
    expect(after).toMatchObject({ name: 'Renamed', version: 2 });
    expect((await owner.api.get(`/api/v2/agents/${agent.id}/history`)).body.data.total).toBe(2);
  });
});
