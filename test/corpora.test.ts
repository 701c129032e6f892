import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './support/app.js';
import { createCorpus, uploadText, waitForProcessing } from './support/corpora.js';
import { databaseKinds } from './support/databases.js';
import { createAgent, createOrganization, createUser, type TestUser } from './support/factories.js';

describe.each(databaseKinds)('corpora (%s)', (kind) => {
  let t: TestApp;
  let admin: TestUser;
  let member: TestUser;
  let other: TestUser;
  let viewer: TestUser;

  beforeAll(async () => {
    t = await startTestApp(kind);
    admin = await createUser(t.app, { role: 'admin' });
    member = await createUser(t.app, { role: 'member' });
    other = await createUser(t.app, { role: 'member' });
    viewer = await createUser(t.app, { role: 'viewer' });
  });
  afterAll(() => t.close());

  it('creates a corpus the creator manages, with counts and retrieval mode', async () => {
    const reply = await member.api.post('/api/v2/corpora', { name: 'Handbook', description: 'HR', conversation_starters: ['Holidays?'] });
    expect(reply.status).toBe(201);
    expect(reply.body.data).toMatchObject({
      name: 'Handbook',
      description: 'HR',
      conversation_starters: ['Holidays?'],
      permission: 'manage',
      retrieval_mode: 'full_text',
      default_agent_id: null,
      document_counts: { total: 0, queued: 0, extracting: 0, chunking: 0, embedding: 0, indexed: 0, failed: 0 },
      created_by: member.email,
    });
    expect((await member.api.post('/api/v2/corpora', { name: 'Handbook' })).status).toBe(409);
    expect((await member.api.post('/api/v2/corpora', {})).status).toBe(400);
    expect((await viewer.api.post('/api/v2/corpora', { name: 'Nope' })).status).toBe(403);
  });

  it('counts documents per step and failures', async () => {
    const corpus = await createCorpus(member);
    const doc = await uploadText(member, corpus.id, 'The moon orbits the earth.');
    await waitForProcessing(member, corpus.id, [doc.id]);
    const counts = (await member.api.get(`/api/v2/corpora/${corpus.id}`)).body.data.document_counts;
    expect(counts).toMatchObject({ total: 1, indexed: 1, failed: 0 });
  });

  it('a corpus is invisible (404) to members without a permission, and visible to admins', async () => {
    const corpus = await createCorpus(member);
    expect((await other.api.get(`/api/v2/corpora/${corpus.id}`)).status).toBe(404);
    expect((await other.api.get('/api/v2/corpora')).body.data.items.map((c: { id: number }) => c.id)).not.toContain(corpus.id);
    expect((await admin.api.get(`/api/v2/corpora/${corpus.id}`)).body.data.permission).toBe('manage');
    expect((await admin.api.get('/api/v2/corpora?page_size=100')).body.data.items.map((c: { id: number }) => c.id)).toContain(corpus.id);
  });

  it('grants read, write and manage, each allowing what it says', async () => {
    const corpus = await createCorpus(member);
    const url = `/api/v2/corpora/${corpus.id}`;
    expect((await member.api.post(`${url}/permissions`, { user_id: other.id, permission: 'read' })).body.data).toMatchObject({
      user_id: other.id,
      email: other.email,
      permission: 'read',
    });
    expect((await other.api.get(url)).body.data.permission).toBe('read');
    expect((await other.api.post(`${url}/documents`, { upload_from: 'text', text: 'x' })).status).toBe(403);
    expect((await other.api.put(url, { name: 'Mine' })).status).toBe(403);

    await member.api.post(`${url}/permissions`, { user_id: other.id, permission: 'write' });
    expect((await other.api.post(`${url}/documents`, { upload_from: 'text', text: 'written by other' })).status).toBe(201);
    expect((await other.api.put(url, { name: 'Mine' })).status).toBe(403);
    expect((await other.api.get(`${url}/permissions`)).status).toBe(403);

    await member.api.post(`${url}/permissions`, { user_id: other.id, permission: 'manage' });
    expect((await other.api.put(url, { description: 'now mine too' })).status).toBe(200);
    const listed = (await other.api.get(`${url}/permissions`)).body.data.items;
    expect(listed.map((p: { user_id: number; permission: string }) => [p.user_id, p.permission])).toEqual(
      expect.arrayContaining([
        [member.id, 'manage'],
        [other.id, 'manage'],
      ]),
    );

    expect((await member.api.delete(`${url}/permissions/${other.id}`)).status).toBe(200);
    expect((await other.api.get(url)).status).toBe(404);
    expect((await member.api.delete(`${url}/permissions/${other.id}`)).status).toBe(404);
  });

  it('refuses to grant to a user of another organization (404), or an unknown permission (400)', async () => {
    const corpus = await createCorpus(member);
    const stranger = await createUser(t.app, { organizationId: await createOrganization(t.app) });
    expect((await member.api.post(`/api/v2/corpora/${corpus.id}/permissions`, { user_id: stranger.id, permission: 'read' })).status).toBe(404);
    expect((await member.api.post(`/api/v2/corpora/${corpus.id}/permissions`, { user_id: other.id, permission: 'own' })).status).toBe(400);
    expect((await stranger.api.get(`/api/v2/corpora/${corpus.id}`)).status).toBe(404);
  });

  it('updates and deletes a corpus with its documents', async () => {
    const corpus = await createCorpus(member);
    expect((await member.api.put(`/api/v2/corpora/${corpus.id}`, { name: 'Renamed' })).body.data.name).toBe('Renamed');
    const doc = await uploadText(member, corpus.id, 'Deleted with its corpus.');
    await waitForProcessing(member, corpus.id, [doc.id]);
    expect((await member.api.delete(`/api/v2/corpora/${corpus.id}`)).status).toBe(200);
    expect((await member.api.get(`/api/v2/corpora/${corpus.id}`)).status).toBe(404);
    expect((await member.api.get(`/api/v2/corpora/${corpus.id}/documents/${doc.id}`)).status).toBe(404);
    const leftover = await t.app.database.db.selectFrom('chunks').select('id').where('document_id', '=', doc.id).execute();
    expect(leftover).toEqual([]);
  });

  it('connects agents, sets a default agent, and the agent’s status lists the corpus', async () => {
    const corpus = await createCorpus(member);
    const agent = await createAgent(member);
    const url = `/api/v2/corpora/${corpus.id}`;
    const connected = await member.api.post(`${url}/agents`, { agent_id: agent.id });
    expect(connected.status).toBe(200);
    expect(connected.body.data.items.map((a: { id: number }) => a.id)).toEqual([agent.id]);
    expect((await member.api.post(`${url}/agents`, { agent_id: agent.id })).status).toBe(200);
    expect((await member.api.get(`${url}/agents`)).body.data.items).toHaveLength(1);
    const status = (await member.api.get(`/api/v2/agents/${agent.id}/status`)).body.data;
    expect(status.corpora).toEqual([{ corpus_id: corpus.id, name: corpus.name, status: 'empty' }]);

    expect((await member.api.put(`${url}/default-agent`, { agent_id: agent.id })).body.data).toEqual({ agent_id: agent.id, name: agent.name });
    expect((await member.api.get(`${url}/default-agent`)).body.data.agent_id).toBe(agent.id);
    expect((await member.api.put(`${url}/default-agent`, { agent_id: null })).body.data).toEqual({ agent_id: null, name: null });

    expect((await member.api.delete(`${url}/agents/${agent.id}`)).status).toBe(200);
    expect((await member.api.delete(`${url}/agents/${agent.id}`)).status).toBe(404);
    expect((await member.api.post(`${url}/agents`, { agent_id: 99999999 })).status).toBe(404);
  });

  it('another organization’s agent cannot be connected or made default (404)', async () => {
    const corpus = await createCorpus(member);
    const stranger = await createUser(t.app, { role: 'owner', organizationId: await createOrganization(t.app) });
    const foreign = await createAgent(stranger);
    expect((await member.api.post(`/api/v2/corpora/${corpus.id}/agents`, { agent_id: foreign.id })).status).toBe(404);
    expect((await member.api.put(`/api/v2/corpora/${corpus.id}/default-agent`, { agent_id: foreign.id })).status).toBe(404);
  });

  it('keeps conversation starters set by hand, and proposes some from the documents', async () => {
    const corpus = await createCorpus(member);
    const url = `/api/v2/corpora/${corpus.id}/conversation-starters`;
    expect((await member.api.put(url, { conversation_starters: ['How do I apply?'] })).body.data.conversation_starters).toEqual(['How do I apply?']);
    expect((await member.api.get(url)).body.data.conversation_starters).toEqual(['How do I apply?']);
    const doc = await uploadText(member, corpus.id, '# Travel policy\n\n## Booking flights\n\nBook economy.\n\n## Hotels\n\nStay near the office.', { name: 'travel.md' });
    await waitForProcessing(member, corpus.id, [doc.id]);
    const proposed = await member.api.post(`${url}/generate`, { count: 3 });
    expect(proposed.status).toBe(200);
    expect(proposed.body.data.conversation_starters.length).toBeGreaterThan(0);
    expect(proposed.body.data.conversation_starters.join(' ')).toMatch(/Booking flights|Hotels|Travel policy/);
    expect((await member.api.get(url)).body.data.conversation_starters).toEqual(['How do I apply?']);
    expect((await member.api.put(url, { conversation_starters: 'nope' })).status).toBe(400);
  });
});
