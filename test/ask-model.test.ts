// Asking an agent that answers with a model (a fake OpenAI server on loopback): what reaches the
// model (only readable passages, the thread within the context window), citation markers, tokens
// and cost, and each way a provider fails.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './support/app.js';
import { agentWith, askStreaming, corpusWith, createModelConfiguration } from './support/ask.js';
import { databaseKinds } from './support/databases.js';
import { createUser, type TestUser } from './support/factories.js';
import { startFakeAnthropic } from './support/fake-anthropic.js';
import { FAKE_LLM_KEY, startFakeOpenAi, type FakeLlmServer } from './support/fake-openai.js';

const ALPHA = 'Alpha policy: the refund window for train tickets is thirty days from the journey.';
const BRAVO = 'Bravo confidential: the refund window for executive tickets is ninety days from the journey.';

describe.each(databaseKinds)('asking an agent with a model (%s)', (kind) => {
  let t: TestApp;
  let fake: FakeLlmServer;
  let anthropic: FakeLlmServer;
  let owner: TestUser;
  let member: TestUser;
  let configurationId: number;
  let agentId: number;
  let alpha: { corpusId: number; documentIds: number[] };
  let bravo: { corpusId: number; documentIds: number[] };

  beforeAll(async () => {
    fake = await startFakeOpenAi();
    anthropic = await startFakeAnthropic();
    t = await startTestApp(kind, { EGRESS_ALLOWED_HOSTS: `${fake.host},${anthropic.host}`, LIMIT_LLM_TIMEOUT_MS: '2000' });
    owner = await createUser(t.app, { role: 'owner' });
    member = await createUser(t.app, { role: 'member' });
    configurationId = (await createModelConfiguration(owner, fake, { input_price_per_million: 2.5, output_price_per_million: 10 })).id;
    alpha = await corpusWith(owner, [ALPHA]);
    bravo = await corpusWith(owner, [BRAVO]);
    expect((await owner.api.post(`/api/v2/corpora/${alpha.corpusId}/permissions`, { user_id: member.id, permission: 'read' })).status).toBe(200);
    agentId = (await agentWith(owner, [alpha.corpusId, bravo.corpusId], { llm_configuration_id: configurationId })).id;
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
    await anthropic.close();
  });
  beforeEach(() => {
    fake.answer = 'Train tickets are refunded within thirty days [1].';
    fake.chunks = undefined;
    fake.usage = true;
    fake.tokens = { prompt: 11, completion: 7 };
  });

  const ask = (user: TestUser, body: Record<string, unknown>, id = agentId) => user.api.post(`/api/v2/agents/${id}/responses`, body);
  const lastPrompt = () => JSON.stringify(fake.chatRequests().at(-1)!.body.messages);

  it('answers with the model, its instructions and the numbered passages, and records the configuration that answered', async () => {
    const reply = await ask(owner, { query: 'What is the refund window for tickets?' });
    expect(reply.status).toBe(201);
    const response = reply.body.data;
    expect(response).toMatchObject({ status: 'completed', model: 'fake-model', llm_configuration_id: configurationId, answer: fake.answer });
    const messages = fake.chatRequests().at(-1)!.body.messages;
    expect(messages[0].role).toBe('system');
    expect(messages[0].content).toContain('Answer from the documents.');
    expect(messages[0].content).toMatch(/\[1\] \(/);
    expect(messages.at(-1)).toEqual({ role: 'user', content: 'What is the refund window for tickets?' });
    expect(fake.chatRequests().at(-1)!.headers.authorization).toBe(`Bearer ${FAKE_LLM_KEY}`);
  });

  it('asks the model for the answer whole when it is sent whole, and streamed when it is streamed, with the same text and usage', async () => {
    fake.chunks = ['Train tickets ', 'are refunded ', 'within thirty days [1].'];
    const whole = (await ask(owner, { query: 'What is the refund window?' })).body.data;
    expect(fake.chatRequests().at(-1)!.body.stream).toBeFalsy();
    const { events } = await askStreaming(t.app, owner, agentId, { query: 'What is the refund window?' });
    expect(fake.chatRequests().at(-1)!.body.stream).toBe(true);
    const streamed = events.at(-1)!.data;
    expect(events.filter((event) => event.event === 'delta').map((event) => event.data.text)).toEqual(fake.chunks);
    for (const answer of [whole, streamed]) {
      expect(answer).toMatchObject({ status: 'completed', finish_reason: 'stop', answer: fake.answer, tokens: { prompt: 11, completion: 7, estimated: false } });
      expect(answer.citations.map((citation: { corpus_id: number }) => citation.corpus_id)).toEqual([alpha.corpusId]);
    }
    expect(whole.cost).toBe(streamed.cost);
  });

  it('answers with an Anthropic model the same way, its instructions as the system prompt and its usage taken', async () => {
    const claude = await createModelConfiguration(owner, anthropic, { provider: 'anthropic', model: 'claude-fake', input_price_per_million: 3, output_price_per_million: 15 });
    const agent = await agentWith(owner, [alpha.corpusId], { llm_configuration_id: claude.id });
    anthropic.answer = 'Thirty days [1].';
    anthropic.tokens = { prompt: 100, completion: 10 };
    const response = (await ask(owner, { query: 'What is the refund window?' }, agent.id)).body.data;
    expect(response).toMatchObject({ status: 'completed', model: 'claude-fake', answer: 'Thirty days [1].', tokens: { prompt: 100, completion: 10, estimated: false } });
    expect(response.cost).toBeCloseTo((100 / 1e6) * 3 + (10 / 1e6) * 15, 10);
    expect(response.citations[0].corpus_id).toBe(alpha.corpusId);
    const sent = anthropic.chatRequests().at(-1)!.body;
    expect(JSON.stringify(sent.system)).toContain('Answer from the documents.');
    expect(JSON.stringify(sent.system)).toContain('Alpha policy');
  });

  it('never puts a passage of a corpus the caller may not read before the model, in the answer or in a citation', async () => {
    fake.answer = 'See [1] and [2].';
    const reply = await ask(member, { query: 'What is the refund window for tickets?' });
    expect(reply.status).toBe(201);
    expect(lastPrompt()).toContain('Alpha policy');
    expect(lastPrompt()).not.toContain('Bravo');
    expect(reply.text).not.toContain('Bravo');
    expect(reply.body.data.citations.map((c: { corpus_id: number }) => c.corpus_id)).toEqual([alpha.corpusId]);
    // [2] names no passage the member's prompt held: dropped, not cited.
    expect(reply.body.data.answer).toBe('See [1] and .');

    const admin = await createUser(t.app, { role: 'admin' });
    const adminReply = await ask(admin, { query: 'What is the refund window for tickets?' });
    expect(lastPrompt()).toContain('Bravo confidential');
    expect(adminReply.body.data.citations.map((c: { corpus_id: number }) => c.corpus_id).sort()).toEqual([alpha.corpusId, bravo.corpusId].sort());
  });

  it('drops markers that name no passage, keeps the others, and cites in order of first use', async () => {
    fake.answer = 'Executive tickets [2]. Train tickets [1, 9]. Invented [7]. Again [2].';
    fake.chunks = ['Executive tickets [', '2]. Train tickets [1', ', 9]. Inv', 'ented [7', ']. Again [2].'];
    const response = (await ask(owner, { query: 'What is the refund window for tickets?' })).body.data;
    expect(response.answer).toBe('Executive tickets [2]. Train tickets [1]. Invented . Again [2].');
    expect(response.citations.map((c: { number: number }) => c.number)).toEqual([2, 1]);
    expect(response.citations.every((c: { passage: string }) => c.passage.includes('refund window'))).toBe(true);
  });

  it('takes the provider’s usage, or counts the tokens and says so; the cost is the copied prices applied to them', async () => {
    fake.tokens = { prompt: 1_234, completion: 567 };
    const counted = (await ask(owner, { query: 'What is the refund window?' })).body.data;
    expect(counted.tokens).toEqual({ prompt: 1_234, completion: 567, total: 1_801, estimated: false });
    expect(counted.cost).toBeCloseTo((1_234 / 1e6) * 2.5 + (567 / 1e6) * 10, 10);

    fake.usage = false;
    const estimated = (await ask(owner, { query: 'What is the refund window?' })).body.data;
    expect(estimated.tokens.estimated).toBe(true);
    expect(estimated.tokens.prompt).toBeGreaterThan(20);
    expect(estimated.tokens.completion).toBeGreaterThan(5);
    expect(estimated.cost).toBeCloseTo((estimated.tokens.prompt / 1e6) * 2.5 + (estimated.tokens.completion / 1e6) * 10, 10);

    // Prices changed later do not rewrite a past response's cost.
    const repriced = await owner.api.put(`/api/v2/organizations/${owner.organizationId}/llm-configurations/${configurationId}`, { input_price_per_million: 100 });
    expect(repriced.status).toBe(200);
    const row = await t.app.database.db.selectFrom('agent_responses').selectAll().where('id', '=', counted.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ cost: counted.cost, input_price_per_million: 2.5, output_price_per_million: 10 });
    await owner.api.put(`/api/v2/organizations/${owner.organizationId}/llm-configurations/${configurationId}`, { input_price_per_million: 2.5 });
  });

  it('records a null cost when a price is unknown, never a guess', async () => {
    const unpriced = await createModelConfiguration(owner, fake, { input_price_per_million: 3 });
    const agent = await agentWith(owner, [], { llm_configuration_id: unpriced.id });
    const response = (await ask(owner, { query: 'hello' }, agent.id)).body.data;
    expect(response.status).toBe('completed');
    expect(response.cost).toBeNull();
  });

  it('sends the thread so far, dropping the oldest turns first to fit the context window', async () => {
    const small = await createModelConfiguration(owner, fake, { context_window: 700 });
    const agent = await agentWith(owner, [], { llm_configuration_id: small.id, max_tokens: 200 });
    const long = (n: number) => `Answer number ${n}: ${'the refund window is described at length here '.repeat(10)}`;
    let threadId: number | undefined;
    for (let n = 1; n <= 5; n++) {
      fake.answer = long(n);
      const reply = await ask(owner, { query: `Question number ${n}?`, ...(threadId ? { thread_id: threadId } : {}) }, agent.id);
      expect(reply.status).toBe(201);
      threadId = reply.body.data.thread_id;
    }
    fake.answer = 'Last.';
    expect((await ask(owner, { query: 'Question number 6?', thread_id: threadId }, agent.id)).status).toBe(201);
    const messages: { role: string; content: string }[] = fake.chatRequests().at(-1)!.body.messages;
    const sent = messages.map((m) => m.content).join('\n');
    expect(sent).toContain('Question number 5?');
    expect(sent).toContain('Answer number 5');
    expect(sent).not.toContain('Question number 1?');
    expect(sent).not.toContain('Answer number 1');
    // Turns come whole and in order: user, assistant, …, then the question.
    expect(messages.map((m) => m.role).slice(1, -1)).toEqual(Array.from({ length: messages.length - 2 }, (_, i) => (i % 2 === 0 ? 'user' : 'assistant')));
    expect(messages.at(-1)!.content).toBe('Question number 6?');
  });

  it('refuses with 400 a question that does not fit the context window, recording nothing', async () => {
    const tiny = await createModelConfiguration(owner, fake, { context_window: 300 });
    const agent = await agentWith(owner, [], { llm_configuration_id: tiny.id, max_tokens: 100 });
    const before = fake.chatRequests().length;
    const reply = await ask(owner, { query: 'word '.repeat(400) }, agent.id);
    expect(reply.status).toBe(400);
    expect(reply.body.message).toContain('context window');
    expect(fake.chatRequests().length).toBe(before);
    expect(await t.app.database.db.selectFrom('agent_responses').select('id').where('agent_id', '=', agent.id).execute()).toEqual([]);
  });

  describe('a provider that fails', () => {
    const failedRow = async (agent: number) =>
      (await t.app.database.db.selectFrom('agent_responses').selectAll().where('agent_id', '=', agent).orderBy('id', 'desc').executeTakeFirstOrThrow());

    it.each([
      [401, 1],
      [500, 3],
      [429, 3],
    ])('answers 502 for HTTP %i (tried %i times), records the response as failed, and never shows the key', async (status, times) => {
      const agent = await agentWith(owner, [alpha.corpusId], { llm_configuration_id: configurationId });
      fake.failNext(status, { times, retryAfter: '0', message: `Scripted failure for key ${FAKE_LLM_KEY}` });
      const before = fake.chatRequests().length;
      const reply = await ask(owner, { query: 'What is the refund window?' }, agent.id);
      expect(reply.status).toBe(502);
      expect(reply.body.error.code).toBe('upstream_error');
      expect(reply.body.message).toContain(`LLM configuration "`);
      expect(reply.text).not.toContain(FAKE_LLM_KEY);
      expect(fake.chatRequests().length - before).toBe(times);
      const row = await failedRow(agent.id);
      expect(row.status).toBe('failed');
      expect(row.error).toContain(`(${configurationId})`);
      expect(row.error).not.toContain(FAKE_LLM_KEY);
    });

    it('ends a streamed answer with upstream_error for a stream cut mid-answer, keeping what was streamed', async () => {
      const agent = await agentWith(owner, [], { llm_configuration_id: configurationId });
      fake.answer = 'One two three four five.';
      fake.cutNext(2);
      const before = fake.chatRequests().length;
      const { events } = await askStreaming(t.app, owner, agent.id, { query: 'Count' });
      expect(events.at(-1)).toMatchObject({ event: 'error', data: { code: 'upstream_error' } });
      // Something had been streamed: not tried again.
      expect(fake.chatRequests().length - before).toBe(1);
      const row = await failedRow(agent.id);
      expect(row.status).toBe('failed');
      expect(row.answer).toBe('One two ');
    });

    it('answers 504 when the model stalls past LIMIT_LLM_TIMEOUT_MS, and the provider’s request is closed', async () => {
      const agent = await agentWith(owner, [], { llm_configuration_id: configurationId });
      const stall = fake.stallNext();
      const reply = await ask(owner, { query: 'Are you there?' }, agent.id);
      expect(reply.status).toBe(504);
      expect(reply.body.error.code).toBe('upstream_timeout');
      await stall.disconnected;
      const row = await failedRow(agent.id);
      expect(row.status).toBe('failed');
      expect(row.error).toMatch(/within 2000 ms/);
    });

    it('ends a streamed answer with upstream_timeout when the model stalls mid-answer, keeping what was streamed, without trying again', async () => {
      const agent = await agentWith(owner, [], { llm_configuration_id: configurationId });
      fake.answer = 'One two three four.';
      const stall = fake.stallNext({ afterChunks: 1 });
      const before = fake.chatRequests().length;
      const { events } = await askStreaming(t.app, owner, agent.id, { query: 'Count slowly' });
      expect(events.at(-1)).toMatchObject({ event: 'error', data: { code: 'upstream_timeout' } });
      await stall.disconnected;
      expect(fake.chatRequests().length - before).toBe(1);
      expect(await failedRow(agent.id)).toMatchObject({ status: 'failed', answer: 'One ' });
    });
  });
});
