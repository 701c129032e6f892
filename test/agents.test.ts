import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './support/app.js';
import { databaseKinds } from './support/databases.js';
import { createAgent, createUser, type TestUser } from './support/factories.js';

describe.each(databaseKinds)('agents (%s)', (kind) => {
  let t: TestApp;
  let owner: TestUser;
  let member: TestUser;
  let viewer: TestUser;

  beforeAll(async () => {
    t = await startTestApp(kind);
    owner = await createUser(t.app, { role: 'owner' });
    member = await createUser(t.app, { role: 'member' });
    viewer = await createUser(t.app, { role: 'viewer' });
  });
  afterAll(() => t.close());

  describe('create', () => {
    it('creates with defaults, version 1, an ETag and a first history record', async () => {
      const reply = await member.api.post('/api/v2/agents', { name: 'Helpdesk', instructions: 'Be kind.' });
      expect(reply.status).toBe(201);
      expect(reply.headers.etag).toBe('"1"');
      const agent = reply.body.data;
      expect(agent).toMatchObject({
        name: 'Helpdesk',
        instructions: 'Be kind.',
        description: '',
        model_name: null,
        temperature: 0.7,
        max_tokens: 1024,
        conversation_starters: [],
        alias: null,
        status: 'draft',
        version: 1,
        created_by: member.email,
        modified_by: member.email,
        organization_id: member.organizationId,
      });
      const history = await member.api.get(`/api/v2/agents/${agent.id}/history`);
      expect(history.body.data.items).toHaveLength(1);
      expect(history.body.data.items[0]).toMatchObject({ kind: 'create', version: 1, checkpoint_name: 'Created', created_by: member.email });
    });

    it('ignores fields the client may not set', async () => {
      const reply = await member.api.post('/api/v2/agents', {
        name: 'Sneaky',
        id: 424242,
        organization_id: 999,
        version: 77,
        created_by: 'someone@else.com',
        created_on: '2000-01-01T00:00:00.000Z',
        deleted_on: '2000-01-01T00:00:00.000Z',
      });
      expect(reply.status).toBe(201);
      const agent = reply.body.data;
      expect(agent.id).not.toBe(424242);
      expect(agent.organization_id).toBe(member.organizationId);
      expect(agent.version).toBe(1);
      expect(agent.created_by).toBe(member.email);
      expect(agent.created_on.startsWith('2000')).toBe(false);
      expect((await member.api.get(`/api/v2/agents/${agent.id}`)).status).toBe(200);
    });

    it('400 with one detail per problem', async () => {
      const reply = await member.api.post('/api/v2/agents', { name: '', temperature: 5, max_tokens: 'many', alias: 'Not An Alias' });
      expect(reply.status).toBe(400);
      const pointers = reply.body.error.details.map((detail: { pointer: string }) => detail.pointer);
      expect(pointers).toEqual(expect.arrayContaining(['/body/name', '/body/temperature', '/body/max_tokens', '/body/alias']));
    });

    it('400 without a name, and for a blank one', async () => {
      expect((await member.api.post('/api/v2/agents', {})).body.error.details).toEqual([{ pointer: '/body/name', message: 'is required' }]);
      expect((await member.api.post('/api/v2/agents', { name: '   ' })).status).toBe(400);
    });

    it('409 for a name another agent of the organization has', async () => {
      await createAgent(member, { name: 'Twin' });
      const reply = await member.api.post('/api/v2/agents', { name: 'Twin' });
      expect(reply.status).toBe(409);
      expect(reply.body.error.code).toBe('conflict');
    });

    it('a deleted agent frees its name', async () => {
      const agent = await createAgent(member, { name: 'Phoenix' });
      await member.api.delete(`/api/v2/agents/${agent.id}`);
      expect((await member.api.post('/api/v2/agents', { name: 'Phoenix' })).status).toBe(201);
    });

    it('403 for a viewer', async () => {
      const reply = await viewer.api.post('/api/v2/agents', { name: 'Nope' });
      expect(reply.status).toBe(403);
      expect(reply.body.error.code).toBe('forbidden');
    });
  });

  describe('get', () => {
    it('returns the agent with an ETag that begins with its version, which If-Match takes', async () => {
      const agent = await createAgent(member);
      const reply = await viewer.api.get(`/api/v2/agents/${agent.id}`);
      expect(reply.status).toBe(200);
      expect(reply.headers.etag).toMatch(/^"1-[\w-]+"$/);
      expect(reply.body.data.id).toBe(agent.id);
      const updated = await member.api.put(`/api/v2/agents/${agent.id}`, { description: 'by tag' }, { headers: { 'if-match': reply.headers.etag as string } });
      expect(updated.status).toBe(200);
      const stale = await member.api.put(`/api/v2/agents/${agent.id}`, { description: 'stale' }, { headers: { 'if-match': reply.headers.etag as string } });
      expect(stale.status).toBe(412);
    });

    it('404 for an unknown agent, 400 for a bad id', async () => {
      expect((await member.api.get('/api/v2/agents/9999999')).status).toBe(404);
      expect((await member.api.get('/api/v2/agents/nine')).status).toBe(400);
    });
  });

  describe('update', () => {
    it('changes only the fields sent, increments version and appends a record', async () => {
      const agent = await createAgent(member, { description: 'kept' });
      const reply = await member.api.put(`/api/v2/agents/${agent.id}`, { instructions: 'New prompt', conversation_starters: ['Hi?'] });
      expect(reply.status).toBe(200);
      expect(reply.headers.etag).toBe('"2"');
      expect(reply.body.data).toMatchObject({ instructions: 'New prompt', description: 'kept', conversation_starters: ['Hi?'], version: 2 });
      const history = (await member.api.get(`/api/v2/agents/${agent.id}/history`)).body.data;
      expect(history.total).toBe(2);
      expect(history.items[0]).toMatchObject({ kind: 'update', version: 2 });
    });

    it('ignores server-owned fields', async () => {
      const agent = await createAgent(member);
      const reply = await member.api.put(`/api/v2/agents/${agent.id}`, { version: 50, id: 1, organization_id: 77, status: 'active', created_by: 'x@y.z' });
      expect(reply.status).toBe(200);
      expect(reply.body.data).toMatchObject({ id: agent.id, version: 2, organization_id: member.organizationId, status: 'draft', created_by: member.email });
    });

    it('honours If-Match: the current version passes, a stale one is 412 and changes nothing', async () => {
      const agent = await createAgent(member);
      const ok = await member.api.put(`/api/v2/agents/${agent.id}`, { description: 'one' }, { headers: { 'if-match': '"1"' } });
      expect(ok.status).toBe(200);
      const stale = await member.api.put(`/api/v2/agents/${agent.id}`, { description: 'two' }, { headers: { 'if-match': '"1"' } });
      expect(stale.status).toBe(412);
      expect(stale.body.error.code).toBe('precondition_failed');
      const weak = await member.api.put(`/api/v2/agents/${agent.id}`, { description: 'three' }, { headers: { 'if-match': 'W/"2"' } });
      expect(weak.status).toBe(200);
      const any = await member.api.put(`/api/v2/agents/${agent.id}`, { description: 'four' }, { headers: { 'if-match': '*' } });
      expect(any.status).toBe(200);
      expect((await member.api.get(`/api/v2/agents/${agent.id}/history`)).body.data.total).toBe(4);
    });

    it('400 for an If-Match that is not a version', async () => {
      const agent = await createAgent(member);
      const reply = await member.api.put(`/api/v2/agents/${agent.id}`, { description: 'x' }, { headers: { 'if-match': 'banana' } });
      expect(reply.status).toBe(400);
    });

    it('404 for an unknown agent even with If-Match', async () => {
      expect((await member.api.put('/api/v2/agents/8888888', { description: 'x' }, { headers: { 'if-match': '"1"' } })).status).toBe(404);
    });

    it('409 when renaming to a taken name', async () => {
      await createAgent(member, { name: 'Taken' });
      const agent = await createAgent(member);
      expect((await member.api.put(`/api/v2/agents/${agent.id}`, { name: 'Taken' })).status).toBe(409);
    });

    it('403 for a viewer, and nothing changes', async () => {
      const agent = await createAgent(member);
      expect((await viewer.api.put(`/api/v2/agents/${agent.id}`, { name: 'Hijacked' })).status).toBe(403);
      expect((await member.api.get(`/api/v2/agents/${agent.id}`)).body.data.name).toBe(agent.name);
    });
  });

  describe('activate, deactivate, status', () => {
    it('moves draft → active → inactive, recording each change once', async () => {
      const agent = await createAgent(member);
      expect((await member.api.get(`/api/v2/agents/${agent.id}/status`)).body.data).toEqual({
        agent_id: agent.id,
        status: 'draft',
        version: 1,
        is_available: false,
        corpora: [],
      });
      const active = await member.api.post(`/api/v2/agents/${agent.id}/activate`);
      expect(active.body.data).toMatchObject({ status: 'active', version: 2 });
      const again = await member.api.post(`/api/v2/agents/${agent.id}/activate`);
      expect(again.body.data).toMatchObject({ status: 'active', version: 2 });
      expect((await member.api.get(`/api/v2/agents/${agent.id}/status`)).body.data.is_available).toBe(true);
      const inactive = await member.api.post(`/api/v2/agents/${agent.id}/deactivate`);
      expect(inactive.body.data).toMatchObject({ status: 'inactive', version: 3 });
      const kinds = (await member.api.get(`/api/v2/agents/${agent.id}/history`)).body.data.items.map((r: { kind: string }) => r.kind);
      expect(kinds).toEqual(['deactivate', 'activate', 'create']);
    });

    it('403 for a viewer, 404 for an unknown agent', async () => {
      const agent = await createAgent(member);
      expect((await viewer.api.post(`/api/v2/agents/${agent.id}/activate`)).status).toBe(403);
      expect((await viewer.api.post(`/api/v2/agents/${agent.id}/deactivate`)).status).toBe(403);
      expect((await member.api.post('/api/v2/agents/7777777/activate')).status).toBe(404);
      expect((await member.api.get('/api/v2/agents/7777777/status')).status).toBe(404);
    });
  });

  describe('delete', () => {
    it('the creator deletes; the agent is gone from get, list and history', async () => {
      const agent = await createAgent(member);
      const reply = await member.api.delete(`/api/v2/agents/${agent.id}`);
      expect(reply.status).toBe(200);
      expect(reply.body.data).toEqual({ id: agent.id });
      expect((await member.api.get(`/api/v2/agents/${agent.id}`)).status).toBe(404);
      expect((await member.api.get(`/api/v2/agents/${agent.id}/history`)).status).toBe(404);
      expect((await member.api.delete(`/api/v2/agents/${agent.id}`)).status).toBe(404);
      const listed = await member.api.post('/api/v2/agents/filter', { ids: [agent.id] });
      expect(listed.body.data.total).toBe(0);
    });

    it('another member may not delete it (403); an admin may', async () => {
      const agent = await createAgent(member);
      const otherMember = await createUser(t.app, { role: 'member' });
      expect((await otherMember.api.delete(`/api/v2/agents/${agent.id}`)).status).toBe(403);
      expect((await viewer.api.delete(`/api/v2/agents/${agent.id}`)).status).toBe(403);
      const admin = await createUser(t.app, { role: 'admin' });
      expect((await admin.api.delete(`/api/v2/agents/${agent.id}`)).status).toBe(200);
    });
  });

  describe('list and filter', () => {
    let marker: string;
    beforeAll(async () => {
      marker = `zeta${Date.now()}`;
      for (let i = 0; i < 5; i++) await createAgent(member, { name: `${marker} ${i}`, description: i === 4 ? 'the SPECIAL one' : '' });
      const last = (await member.api.post('/api/v2/agents/filter', { q: `${marker} 4` })).body.data.items[0];
      await member.api.post(`/api/v2/agents/${last.id}/activate`);
    });

    it('paginates with page, page_size and total', async () => {
      const first = await member.api.get(`/api/v2/agents?q=${marker}&page_size=2&sort=name`);
      expect(first.status).toBe(200);
      expect(first.body.data).toMatchObject({ page: 1, page_size: 2, total: 5 });
      expect(first.body.data.items.map((a: { name: string }) => a.name)).toEqual([`${marker} 0`, `${marker} 1`]);
      const third = await member.api.get(`/api/v2/agents?q=${marker}&page_size=2&page=3&sort=name`);
      expect(third.body.data.items.map((a: { name: string }) => a.name)).toEqual([`${marker} 4`]);
      const beyond = await member.api.get(`/api/v2/agents?q=${marker}&page_size=2&page=9`);
      expect(beyond.body.data).toMatchObject({ items: [], total: 5 });
    });

    it('q matches name or description ignoring case, and is literal', async () => {
      expect((await member.api.get(`/api/v2/agents?q=${marker.toUpperCase()}`)).body.data.total).toBe(5);
      expect((await member.api.get('/api/v2/agents?q=special ONE')).body.data.total).toBeGreaterThanOrEqual(1);
      expect((await member.api.get(`/api/v2/agents?q=${marker}%25`)).body.data.total).toBe(0);
      expect((await member.api.get(`/api/v2/agents?q=${marker.slice(0, 3)}_`)).body.data.total).toBe(0);
    });

    it('filters by status and sorts descending', async () => {
      const active = await member.api.get(`/api/v2/agents?q=${marker}&status=active`);
      expect(active.body.data.items.map((a: { name: string }) => a.name)).toEqual([`${marker} 4`]);
      const sorted = await member.api.get(`/api/v2/agents?q=${marker}&sort=-name`);
      expect(sorted.body.data.items[0].name).toBe(`${marker} 4`);
    });

    it('400 for page_size over the limit, page 0, an unknown status or sort', async () => {
      for (const query of ['page_size=101', 'page_size=0', 'page=0', 'status=gone', 'sort=secret']) {
        const reply = await member.api.get(`/api/v2/agents?${query}`);
        expect(reply.status, query).toBe(400);
      }
    });

    it('filter takes a structured body', async () => {
      const all = (await member.api.post('/api/v2/agents/filter', { q: marker, sort: 'name' })).body.data.items as { id: number }[];
      const reply = await member.api.post('/api/v2/agents/filter', {
        ids: all.slice(0, 3).map((a) => a.id),
        status: ['draft'],
        created_by: [member.id],
        created_after: '2000-01-01T00:00:00.000Z',
        sort: 'id',
        page_size: 2,
      });
      expect(reply.status).toBe(200);
      expect(reply.body.data.total).toBe(3);
      expect(reply.body.data.items).toHaveLength(2);
      expect((await member.api.post('/api/v2/agents/filter', { created_before: '2000-01-01T00:00:00.000Z', q: marker })).body.data.total).toBe(0);
      expect((await member.api.post('/api/v2/agents/filter', { status: ['nope'] })).status).toBe(400);
      expect((await member.api.post('/api/v2/agents/filter', { created_after: 'yesterday' })).status).toBe(400);
    });
  });
});
