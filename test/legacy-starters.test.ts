// The legacy conversation starters route: a corpus's or an agent's starters as a bare array, the
// same as /api/v2 shows them; exactly one of corpus_id and agent_id; what the caller may not see is 404.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './support/app.js';
import { createCorpus } from './support/corpora.js';
import { databaseKinds } from './support/databases.js';
import { createAgent, createOrganization, createUser, type TestUser } from './support/factories.js';

describe.each(databaseKinds)('legacy conversation starters (%s)', (kind) => {
  let t: TestApp;
  let owner: TestUser;
  let member: TestUser;
  let stranger: TestUser;

  beforeAll(async () => {
    t = await startTestApp(kind);
    owner = await createUser(t.app, { role: 'owner' });
    member = await createUser(t.app, { role: 'member' });
    stranger = await createUser(t.app, { organizationId: await createOrganization(t.app), role: 'owner' });
  });
  afterAll(async () => t?.close());

  it("answers a corpus's starters as a bare array, as set through /api/v2", async () => {
    const corpus = await createCorpus(owner);
    expect((await owner.api.put(`/api/v2/corpora/${corpus.id}/conversation-starters`, { conversation_starters: ['Where is the handbook?', 'Who approves leave?'] })).status).toBe(200);
    const reply = await owner.api.get(`/api/conversation-starters/?corpus_id=${corpus.id}`);
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body).toEqual(['Where is the handbook?', 'Who approves leave?']);
    // A member without a permission on the corpus, and another organization: 404.
    expect((await member.api.get(`/api/conversation-starters/?corpus_id=${corpus.id}`)).status).toBe(404);
    expect((await stranger.api.get(`/api/conversation-starters/?corpus_id=${corpus.id}`)).status).toBe(404);
  });

  it("answers an agent's starters, and 404 for another organization's agent", async () => {
    const agent = await createAgent(owner, { conversation_starters: ['Hello?'] });
    expect((await member.api.get(`/api/conversation-starters/?agent_id=${agent.id}`)).body).toEqual(['Hello?']);
    expect((await owner.api.put(`/api/v2/agents/${agent.id}`, { conversation_starters: [] })).status).toBe(200);
    expect((await owner.api.get(`/api/conversation-starters/?agent_id=${agent.id}`)).body).toEqual([]);
    expect((await stranger.api.get(`/api/conversation-starters/?agent_id=${agent.id}`)).status).toBe(404);
  });

  it('needs exactly one of corpus_id and agent_id, each a positive integer', async () => {
    for (const query of ['', '?corpus_id=1&agent_id=1', '?corpus_id=abc', '?agent_id=0']) {
      const reply = await owner.api.get(`/api/conversation-starters/${query}`);
      expect(reply.status, query).toBe(400);
      expect(reply.body.error.code).toBe('bad_request');
    }
    expect((await owner.api.get('/api/conversation-starters/?agent_id=999999')).status).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: '/api/conversation-starters/?agent_id=1' })).statusCode).toBe(401);
  });
});
