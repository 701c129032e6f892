// Asking an agent with no model configured: the offline answerer quotes the documents with their
// citations; who may ask, which thread, and bad asks that change nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './support/app.js';
import { createCorpus, uploadText, waitForProcessing } from './support/corpora.js';
import { databaseKinds } from './support/databases.js';
import { createAgent, createOrganization, createUser, type TestUser } from './support/factories.js';
import { request } from './support/http.js';

const HANDBOOK = 'The travel handbook says that train tickets are refunded within thirty days when the journey is cancelled.';

describe.each(databaseKinds)('asking an agent offline (%s)', (kind) => {
  let t: TestApp;
  let owner: TestUser;
  let member: TestUser;
  let agentId: number;
  let documentId: number;
  let corpusId: number;

  beforeAll(async () => {
    t = await startTestApp(kind);
    owner = await createUser(t.app, { role: 'owner' });
    member = await createUser(t.app, { role: 'member' });
    const corpus = await createCorpus(owner);
    corpusId = corpus.id;
    documentId = (await uploadText(owner, corpus.id, HANDBOOK, { source: 'handbook.txt' })).id;
    await waitForProcessing(owner, corpus.id, [documentId]);
    agentId = (await createAgent(owner)).id;
    expect((await owner.api.post(`/api/v2/corpora/${corpus.id}/agents`, { agent_id: agentId })).status).toBe(200);
  });
  afterAll(() => t.close());

  const ask = (user: TestUser, body: Record<string, unknown>, id = agentId) => user.api.post(`/api/v2/agents/${id}/responses`, body);

  it('answers 201 with the response of §8, citing the document it quotes', async () => {
    const reply = await ask(owner, { query: 'When are train tickets refunded?' });
    expect(reply.status).toBe(201);
    const response = reply.body.data;
    expect(response).toMatchObject({ agent_id: agentId, status: 'completed', error: null, model: 'offline', llm_configuration_id: null, cost: 0 });
    expect(response.answer).toContain('No language model is configured');
    expect(response.answer).toContain('refunded within thirty days');
    expect(response.answer).toContain('[1]');
    expect(response.citations).toEqual([
      expect.objectContaining({ number: 1, document_id: documentId, corpus_id: corpusId, page: null, passage: expect.stringContaining('thirty days') }),
    ]);
    expect(response.tokens.estimated).toBe(true);
    expect(response.tokens.prompt).toBeGreaterThan(0);
    expect(response.tokens.completion).toBeGreaterThan(0);
    expect(response.tokens.total).toBe(response.tokens.prompt + response.tokens.completion);
    expect(response.latency_ms).toBeGreaterThanOrEqual(response.first_token_ms);
    expect(response.created_by).toBe(owner.email);
    const history = (await owner.api.get(`/api/v2/agents/${agentId}/history`)).body.data.items;
    expect(response.history_id).toBe(history[0].history_id);
  });

  it('says it found nothing when no passage matches', async () => {
    const reply = await ask(owner, { query: 'zeppelin xylophone' });
    expect(reply.status).toBe(201);
    expect(reply.body.data.answer).toContain('nothing in the agent');
    expect(reply.body.data.citations).toEqual([]);
  });

  it('opens a thread per new question and continues one given', async () => {
    const first = (await ask(owner, { query: 'When are train tickets refunded?' })).body.data;
    const second = await ask(owner, { query: 'And plane tickets?', thread_id: first.thread_id });
    expect(second.status).toBe(201);
    expect(second.body.data.thread_id).toBe(first.thread_id);
    const other = (await ask(owner, { query: 'When are train tickets refunded?' })).body.data;
    expect(other.thread_id).not.toBe(first.thread_id);
  });

  it('answers a draft agent (builders try them) and refuses an inactive one with 409, recording nothing', async () => {
    const draft = await createAgent(owner);
    expect(draft.status).toBe('draft');
    expect((await ask(owner, { query: 'hello' }, draft.id)).status).toBe(201);
    const inactive = await createAgent(owner);
    expect((await owner.api.post(`/api/v2/agents/${inactive.id}/deactivate`)).status).toBe(200);
    const refused = await ask(owner, { query: 'hello' }, inactive.id);
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe('conflict');
    expect(await t.app.database.db.selectFrom('agent_responses').select('id').where('agent_id', '=', inactive.id).execute()).toEqual([]);
  });

  it('answers 404 for an unknown thread, another agent\'s thread and another user\'s thread', async () => {
    const mine = (await ask(owner, { query: 'When are train tickets refunded?' })).body.data;
    expect((await ask(owner, { query: 'again', thread_id: 999_999 })).status).toBe(404);
    const otherAgent = await createAgent(owner);
    expect((await ask(owner, { query: 'again', thread_id: mine.thread_id }, otherAgent.id)).status).toBe(404);
    const reply = await ask(member, { query: 'again', thread_id: mine.thread_id });
    expect(reply.status).toBe(404);
    expect(reply.body.error.code).toBe('not_found');
  });

  it('refuses a query over 32,000 characters, an empty one and a missing one with 400, recording nothing', async () => {
    const before = await t.app.database.db.selectFrom('agent_responses').select('id').execute();
    for (const body of [{ query: 'x'.repeat(32_001) }, { query: '' }, { query: '   ' }, {}, { query: 'fine', thread_id: 0 }]) {
      const reply = await ask(owner, body);
      expect(reply.status, JSON.stringify(body).slice(0, 40)).toBe(400);
      expect(reply.body.error.code).toBe('bad_request');
    }
    expect(await t.app.database.db.selectFrom('agent_responses').select('id').execute()).toEqual(before);
    expect((await ask(owner, { query: 'y'.repeat(32_000) })).status).toBe(201);
  });

  it("answers 404 to another organization's caller for the agent and for the thread", async () => {
    const intruder = await createUser(t.app, { organizationId: await createOrganization(t.app), role: 'owner' });
    const mine = (await ask(owner, { query: 'When are train tickets refunded?' })).body.data;
    expect((await ask(intruder, { query: 'When are train tickets refunded?' })).status).toBe(404);
    const ownAgent = await createAgent(intruder);
    const reply = await ask(intruder, { query: 'hello', thread_id: mine.thread_id }, ownAgent.id);
    expect(reply.status).toBe(404);
    expect(reply.text).not.toContain('thirty days');
  });

  it('counts answers, tokens and times in the Prometheus metrics', async () => {
    expect((await ask(owner, { query: 'When are train tickets refunded?' })).status).toBe(201);
    const metrics = (await request(t.app, 'GET', '/metrics')).text;
    expect(metrics).toMatch(/agent_platform_model_calls_total\{provider="offline",outcome="completed"\} [1-9]/);
    expect(metrics).toMatch(/agent_platform_model_tokens_total\{provider="offline",kind="completion"\} [1-9]/);
    expect(metrics).toMatch(/agent_platform_answer_seconds_count\{provider="offline"\} [1-9]/);
    expect(metrics).toMatch(/agent_platform_answer_first_token_seconds_count\{provider="offline"\} [1-9]/);
  });

  it('answers the legacy POST /api/responses/ with the bare response', async () => {
    const reply = await request(t.app, 'POST', '/api/responses/', { agent_id: agentId, query: 'When are train tickets refunded?' }, { token: owner.token });
    expect(reply.status).toBe(201);
    expect(reply.body).toMatchObject({ agent_id: agentId, status: 'completed', model: 'offline' });
    expect(reply.body.citations[0].document_id).toBe(documentId);
    const missing = await request(t.app, 'POST', '/api/responses/', { agent_id: 999_999, query: 'x' }, { token: owner.token });
    expect(missing.status).toBe(404);
  });
});
