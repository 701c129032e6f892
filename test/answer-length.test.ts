// The most tokens of an answer (an LLM configuration's max_answer_tokens, 4096 unless set): sent to
// the provider as its max tokens, and held by the server against a provider that ignores it — a
// model streaming 10 MB without usage has its answer cut at the limit, the stream let go of, the
// answer kept, stored and billed only up to there, finish_reason length, on every door.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHARACTERS_PER_TOKEN } from '../src/modules/runtime/answer-length.js';
import { startTestApp, type TestApp } from './support/app.js';
import { agentWith, askStreaming } from './support/ask.js';
import { databaseKinds } from './support/databases.js';
import { createUser, type TestUser } from './support/factories.js';
import { startFakeEndlessOpenAi, type FakeEndlessOpenAi } from './support/fake-endless-openai.js';
import { FAKE_LLM_KEY } from './support/fake-openai.js';

const TEN_MB = 10 * 1024 * 1024;
const LIMIT = 100;
const PRICES = { input_price_per_million: 3, output_price_per_million: 15 };
/** LIMIT_ANSWER_COST_USD left at its default. */
const ANSWER_COST_CAP_USD = 1;

describe.each(databaseKinds)('the most tokens of an answer (%s)', (kind) => {
  let t: TestApp;
  let fake: FakeEndlessOpenAi;
  let owner: TestUser;
  let member: TestUser;
  let path: string;
  let configurationId: number;
  let agentId: number;

  beforeAll(async () => {
    fake = await startFakeEndlessOpenAi();
    t = await startTestApp(kind, { EGRESS_ALLOWED_HOSTS: fake.host });
    owner = await createUser(t.app, { role: 'owner' });
    member = await createUser(t.app, { role: 'member' });
    path = `/api/v2/organizations/${owner.organizationId}/llm-configurations`;
    const made = await owner.api.post(path, { name: 'Endless', provider: 'openai', model: 'fake-model', base_url: fake.baseUrl, api_key: FAKE_LLM_KEY, ...PRICES, max_answer_tokens: LIMIT });
    expect(made.status, made.text).toBe(201);
    configurationId = made.body.data.id;
    agentId = (await agentWith(owner, [], { llm_configuration_id: configurationId, alias: `long-${kind}`, status: 'active' })).id;
  });
  afterAll(async () => {
    await t?.close();
    await fake?.close();
  });

  const row = (id: number) => t.app.database.db.selectFrom('agent_responses').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const sentMaxTokens = () => {
    const body = fake.lastAnswer().body;
    return body.max_completion_tokens ?? body.max_tokens;
  };

  /** The answer was cut at the limit and the provider's stream let go of, long before its 10 MB. */
  async function expectCutAnswer(response: any, tokens = LIMIT) {
    expect(response).toMatchObject({ status: 'completed', finish_reason: 'length', error: null });
    expect(response.answer).toHaveLength(tokens * CHARACTERS_PER_TOKEN);
    expect(response.answer.startsWith('All work and no play')).toBe(true);
    expect(response.tokens.estimated).toBe(true);
    expect(response.tokens.completion).toBeGreaterThan(0);
    expect(response.tokens.completion).toBeLessThanOrEqual(tokens);
    const billed = (response.tokens.prompt * PRICES.input_price_per_million + tokens * PRICES.output_price_per_million) / 1e6;
    expect(response.cost).toBeGreaterThan(0);
    expect(response.cost).toBeLessThanOrEqual(billed);
    expect(response.cost).toBeLessThan(ANSWER_COST_CAP_USD);
    const stored = await row(response.id);
    expect(stored).toMatchObject({ answer: response.answer, finish_reason: 'length', completion_tokens: response.tokens.completion, cost: response.cost });
    expect(sentMaxTokens()).toBe(tokens);
    const sent = await fake.lastAnswer().ended;
    expect(sent.letGo).toBe(true);
    expect(sent.characters).toBeLessThan(TEN_MB);
  }

  it('defaults to 4096 tokens, shows the field to members too, and refuses what is not a positive integer within 200,000', async () => {
    const plain = await owner.api.post(path, { name: `Plain ${kind}`, provider: 'openai', model: 'm', api_key: FAKE_LLM_KEY });
    expect(plain.status, plain.text).toBe(201);
    expect(plain.body.data.max_answer_tokens).toBe(4096);
    expect((await member.api.get(`${path}/${plain.body.data.id}`)).body.data.max_answer_tokens).toBe(4096);
    const changed = await owner.api.put(`${path}/${plain.body.data.id}`, { max_answer_tokens: 200_000 });
    expect(changed.status, changed.text).toBe(200);
    expect(changed.body.data.max_answer_tokens).toBe(200_000);
    for (const bad of [0, -1, 1.5, 200_001, '100', null]) {
      const reply = await owner.api.put(`${path}/${plain.body.data.id}`, { max_answer_tokens: bad });
      expect(reply.status, `${JSON.stringify(bad)}: ${reply.text}`).toBe(400);
      expect(reply.body.error.details.map((detail: { pointer: string }) => detail.pointer)).toContain('/body/max_answer_tokens');
    }
    const schema = (await owner.api.get('/openapi.json')).body.components.schemas.LlmConfiguration.properties.max_answer_tokens;
    expect(schema).toMatchObject({ type: 'integer', minimum: 1, maximum: 200_000 });
  });

  it('cuts a 10 MB streamed answer without usage at the limit, ends the event stream, stores and bills only what was kept', async () => {
    fake.answerCharacters = TEN_MB;
    const { status, events } = await askStreaming(t.app, owner, agentId, { query: 'Tell me everything.' });
    expect(status).toBe(200);
    expect(events.at(-1)!.event).toBe('response.completed');
    const completed = events.at(-1)!.data;
    expect(events.filter((e) => e.event === 'delta').map((e) => e.data.text).join('')).toBe(completed.answer);
    await expectCutAnswer(completed);
  });

  it('cuts it the same way when asked without a stream: the whole answer is let go of at its byte cap and asked for again streamed', async () => {
    const before = fake.answers.length;
    const reply = await owner.api.post(`/api/v2/agents/${agentId}/responses`, { query: 'Tell me everything.' });
    expect(reply.status, reply.text.slice(0, 500)).toBe(201);
    await expectCutAnswer(reply.body.data);
    const [whole, streamed, ...more] = fake.answers.slice(before);
    expect(more).toEqual([]);
    expect(whole!.streamed).toBe(false);
    const wholeSent = await whole!.ended;
    expect(wholeSent.letGo).toBe(true);
    expect(wholeSent.characters).toBeLessThan(TEN_MB);
    expect(streamed!.streamed).toBe(true);

    // The provider ignores max tokens: its model's later answers are streamed at once.
    const again = await owner.api.post(`/api/v2/agents/${agentId}/responses`, { query: 'Tell me everything.' });
    await expectCutAnswer(again.body.data);
    expect(fake.answers.slice(before + 2).map((answer) => answer.streamed)).toEqual([true]);
  });

  it('asks a provider that keeps to its max tokens for a whole answer whole, and says length when it cut it', async () => {
    const made = await owner.api.post(path, { name: `Keeps to it ${kind}`, provider: 'openai', model: 'fake-model', base_url: fake.baseUrl, api_key: FAKE_LLM_KEY, ...PRICES, max_answer_tokens: LIMIT });
    const agent = await agentWith(owner, [], { llm_configuration_id: made.body.data.id, status: 'active' });
    fake.answerCharacters = 120;
    fake.finishReason = 'length';
    const reply = await owner.api.post(`/api/v2/agents/${agent.id}/responses`, { query: 'Briefly.' });
    expect(reply.body.data).toMatchObject({ status: 'completed', finish_reason: 'length' });
    expect(reply.body.data.answer).toHaveLength(120);
    expect(fake.lastAnswer().streamed).toBe(false);
    expect(await fake.lastAnswer().ended).toEqual({ characters: 120, letGo: false });
    fake.finishReason = 'stop';
    fake.answerCharacters = TEN_MB;
  });

  it('says length to OpenAI clients, whole and streamed', async () => {
    const whole = await owner.api.post('/api/v2/openai/chat/completions', { model: `long-${kind}`, messages: [{ role: 'user', content: 'Everything.' }] });
    expect(whole.status, whole.text.slice(0, 500)).toBe(200);
    expect(whole.body.choices[0].finish_reason).toBe('length');
    expect(whole.body.choices[0].message.content).toHaveLength(LIMIT * CHARACTERS_PER_TOKEN);
    await expectCutAnswer((await owner.api.get(`/api/v2/responses/${whole.body.agent_response_id}`)).body.data);

    const streamed = await owner.api.post('/api/v2/openai/chat/completions', { model: `long-${kind}`, stream: true, messages: [{ role: 'user', content: 'Everything.' }] });
    expect(streamed.status).toBe(200);
    const data = streamed.text.split('\n\n').filter((block) => block.startsWith('data: ')).map((block) => block.slice('data: '.length));
    expect(data.at(-1)).toBe('[DONE]');
    const chunks = data.slice(0, -1).map((text) => JSON.parse(text));
    expect(chunks.at(-1).choices[0].finish_reason).toBe('length');
    expect(chunks.map((chunk) => chunk.choices[0]?.delta?.content ?? '').join('')).toHaveLength(LIMIT * CHARACTERS_PER_TOKEN);
    await fake.lastAnswer().ended;
  });

  it('takes the agent’s max_tokens where lower', async () => {
    const agent = await agentWith(owner, [], { llm_configuration_id: configurationId, max_tokens: 30 });
    const reply = await owner.api.post(`/api/v2/agents/${agent.id}/responses`, { query: 'Tell me everything.' });
    expect(reply.status).toBe(201);
    await expectCutAnswer(reply.body.data, 30);
  });

  it('reads and bills a builder draft no further than its own max tokens', async () => {
    fake.answerCharacters = TEN_MB;
    const before = fake.answers.length;
    const reply = await owner.api.post('/api/v2/agents/builder', { description: 'A travel helper' });
    // A cut draft is not JSON: the repair round is cut too, and the draft fails.
    expect(reply.status, reply.text.slice(0, 500)).toBe(502);
    const drafts = fake.answers.slice(before);
    expect(drafts).toHaveLength(2);
    for (const answer of drafts) {
      expect(answer.body.max_completion_tokens ?? answer.body.max_tokens).toBe(4000);
      const sent = await answer.ended;
      expect(sent.letGo).toBe(true);
      expect(sent.characters).toBeLessThan(TEN_MB);
    }
    const event = await t.app.database.db.selectFrom('usage_events').selectAll().where('response_id', 'is', null).where('user_id', '=', owner.id).executeTakeFirstOrThrow();
    expect(event.completion_tokens).toBeGreaterThan(0);
    expect(event.completion_tokens).toBeLessThanOrEqual(2 * 4000);
    expect(Number(event.cost_nano_usd) / 1e9).toBeLessThan(ANSWER_COST_CAP_USD);
  });

  it('finishes with stop when the answer fits, and with length when the provider says it cut the answer', async () => {
    fake.answerCharacters = 120;
    const fits = await owner.api.post(`/api/v2/agents/${agentId}/responses`, { query: 'Briefly.' });
    expect(fits.body.data).toMatchObject({ status: 'completed', finish_reason: 'stop' });
    expect(fits.body.data.answer).toHaveLength(120);
    expect((await fake.lastAnswer().ended).letGo).toBe(false);

    fake.finishReason = 'length';
    const cutThere = await owner.api.post(`/api/v2/agents/${agentId}/responses`, { query: 'Briefly.' });
    expect(cutThere.body.data).toMatchObject({ status: 'completed', finish_reason: 'length' });
    expect(cutThere.body.data.answer).toHaveLength(120);
    fake.finishReason = 'stop';
    fake.answerCharacters = TEN_MB;
  });
});
