// The agent builder: a description gives a draft that always validates against the create-agent
// schema and names only corpora, tools and guardrails the caller may use (whatever the model says),
// one repair round then 502, the rule-based drafter with no model, the flag, cost and usage events.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './support/app.js';
import { createModelConfiguration } from './support/ask.js';
import { createCorpus } from './support/corpora.js';
import { databaseKinds } from './support/databases.js';
import { createOrganization, createUser, type TestUser } from './support/factories.js';
import { startFakeOpenAi, type FakeLlmServer } from './support/fake-openai.js';

describe.each(databaseKinds)('the agent builder (%s)', (kind) => {
  let t: TestApp;
  let fake: FakeLlmServer;
  let owner: TestUser;
  let member: TestUser;
  let viewer: TestUser;
  let stranger: TestUser;
  let handbook: number;
  let payroll: number;
  let enabledTool: number;
  let disabledTool: number;
  let guardrail: number;
  let theirCorpus: number;

  const draft = (user: TestUser, description: string) => user.api.post('/api/v2/agents/builder', { description });
  const modelDraft = (extra: Record<string, unknown> = {}) =>
    JSON.stringify({
      name: 'HR handbook helper',
      description: 'Answers questions about the HR handbook',
      instructions: 'Answer from the handbook and cite it.',
      conversation_starters: ['How many holidays do I have?', 'How do I report sickness?'],
      corpus_ids: [handbook, payroll, theirCorpus, 999_999],
      tool_ids: [enabledTool, disabledTool, 888_888],
      guardrail_ids: [guardrail, 777_777],
      ...extra,
    });

  beforeAll(async () => {
    fake = await startFakeOpenAi();
    t = await startTestApp(kind, { EGRESS_ALLOWED_HOSTS: fake.host, LIMIT_LLM_TIMEOUT_MS: '5000' });
    owner = await createUser(t.app, { role: 'owner' });
    member = await createUser(t.app, { role: 'member' });
    viewer = await createUser(t.app, { role: 'viewer' });
    stranger = await createUser(t.app, { organizationId: await createOrganization(t.app), role: 'owner' });
    handbook = (await createCorpus(owner, { name: 'HR handbook', description: 'Holidays, sickness and expenses' })).id;
    payroll = (await createCorpus(owner, { name: 'Payroll secrets', description: 'Salaries of everyone' })).id;
    expect((await owner.api.post(`/api/v2/corpora/${handbook}/permissions`, { user_id: member.id, permission: 'read' })).status).toBe(200);
    theirCorpus = (await createCorpus(stranger, { name: 'Their handbook' })).id;
    const tools = `/api/v2/organizations/${owner.organizationId}/tools`;
    enabledTool = (await owner.api.post(`${tools}/attachment`, { name: 'handbook_files', description: 'Reads files about holidays', config: {} })).body.data.id;
    disabledTool = (await owner.api.post(`${tools}/attachment`, { name: 'old_files', description: 'Old holidays reader', config: {}, enabled: false })).body.data.id;
    const made = await owner.api.post('/api/v2/guardrails', { name: 'Holiday length', type: 'length', stages: ['input'], action: 'block', config: { max_characters: 2000 } });
    expect(made.status, made.text).toBe(201);
    guardrail = made.body.data.id;
  });
  afterAll(async () => {
    await t?.close();
    await fake?.close();
  });
  beforeEach(() => {
    fake.answer = modelDraft();
  });

  /** The draft is a valid create-agent body: sending it as it is creates the agent. */
  async function expectCreatable(user: TestUser, body: Record<string, unknown>) {
    const created = await user.api.post('/api/v2/agents', { ...body, name: `${body.name} ${Math.random().toString(36).slice(2, 8)}` });
    expect(created.status, created.text).toBe(201);
  }

  it('drafts with the rule-based drafter when no model is configured, matching corpora, tools and guardrails by keywords', async () => {
    const reply = await draft(owner, 'Answers questions about holidays and sickness from the HR handbook');
    expect(reply.status, reply.text).toBe(200);
    const result = reply.body.data;
    expect(result).toMatchObject({ drafted_by: 'rules', usage: null, dropped_references: 0 });
    expect(result.draft.name).toBe('Holidays Sickness HR assistant');
    expect(result.draft.instructions).toContain('holidays, sickness, HR');
    expect(result.draft.conversation_starters.length).toBeGreaterThanOrEqual(2);
    expect(result.draft.corpus_ids).toEqual([handbook]);
    expect(result.draft.tool_ids).toEqual([enabledTool]);
    expect(result.draft.guardrail_ids).toEqual([guardrail]);
    await expectCreatable(owner, result.draft);
    // The same description gives the same draft.
    expect((await draft(owner, 'Answers questions about holidays and sickness from the HR handbook')).body.data).toEqual(result);
  });

  it('never offers a member a corpus they may not read, even by the rules', async () => {
    const reply = await draft(member, 'Salaries and payroll of everyone, holidays too');
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body.data.draft.corpus_ids).toEqual([handbook]);
  });

  describe('with a model', () => {
    let configurationId: number;
    beforeAll(async () => {
      configurationId = (await createModelConfiguration(owner, fake, { input_price_per_million: 2, output_price_per_million: 10 })).id;
    });

    it('drafts with the default model and drops every id the caller may not use, never showing them', async () => {
      fake.tokens = { prompt: 1000, completion: 200 };
      const reply = await draft(member, 'An HR handbook helper');
      expect(reply.status, reply.text).toBe(200);
      const result = reply.body.data;
      expect(result.drafted_by).toBe('model');
      expect(result.draft).toMatchObject({ name: 'HR handbook helper', corpus_ids: [handbook], tool_ids: [enabledTool], guardrail_ids: [guardrail] });
      expect(result.dropped_references).toBe(6);
      for (const hidden of [payroll, theirCorpus, 999_999, disabledTool, 888_888, 777_777]) expect(JSON.stringify(result.draft)).not.toMatch(new RegExp(`\\b${hidden}\\b`));
      expect(result.usage).toEqual({ model: 'fake-model', llm_configuration_id: configurationId, prompt_tokens: 1000, completion_tokens: 200, tokens_estimated: false, cost: 0.004, model_calls: 1 });
      await expectCreatable(member, result.draft);
      // What the model was offered: the caller's candidates only, the description as the user's message.
      const messages = fake.chatRequests().at(-1)!.body.messages;
      expect(messages[1]).toEqual({ role: 'user', content: 'An HR handbook helper' });
      expect(messages[0].content).toContain(`${handbook}: HR handbook`);
      expect(messages[0].content).not.toContain('Payroll secrets');
      expect(messages[0].content).not.toContain('old_files');
      const event = await t.app.database.db.selectFrom('usage_events').selectAll().where('user_id', '=', member.id).executeTakeFirstOrThrow();
      expect(event).toMatchObject({ kind: 'answer', status: 'completed', prompt_tokens: 1000, completion_tokens: 200, agent_id: null, response_id: null });
    });

    it('accepts a fenced answer, and repairs an invalid one once, sending the problems back', async () => {
      fake.answerNext(modelDraft({ name: '', conversation_starters: 'not a list' }));
      fake.answerNext('```json\n' + modelDraft() + '\n```');
      const before = fake.chatRequests().length;
      const reply = await draft(owner, 'An HR handbook helper');
      expect(reply.status, reply.text).toBe(200);
      expect(reply.body.data.usage.model_calls).toBe(2);
      const repair = fake.chatRequests()[before + 1]!.body.messages;
      expect(repair).toHaveLength(4);
      expect(repair[3].content).toContain('/name');
      expect(repair[3].content).toContain('/conversation_starters');
    });

    it('answers 502 when the repaired answer is still not a valid draft, recording the cost', async () => {
      fake.answer = 'I would call it Handbook Helper.';
      const reply = await draft(owner, 'An HR handbook helper');
      expect(reply.status, reply.text).toBe(502);
      expect(reply.body.error.code).toBe('upstream_error');
      expect(reply.body.message).toContain('repair round');
      const failed = await t.app.database.db.selectFrom('usage_events').select('status').where('user_id', '=', owner.id).where('status', '=', 'failed').execute();
      expect(failed.length).toBeGreaterThan(0);
    });

    it('answers 502 when the model fails', async () => {
      fake.failNext(401);
      const reply = await draft(owner, 'An HR handbook helper');
      expect(reply.status).toBe(502);
      expect(reply.text).not.toContain('sk-');
    });
  });

  it('refuses viewers, bad bodies and the flag turned off', async () => {
    expect((await draft(viewer, 'anything')).status).toBe(403);
    expect((await owner.api.post('/api/v2/agents/builder', {})).status).toBe(400);
    expect((await owner.api.post('/api/v2/agents/builder', { description: '   ' })).status).toBe(400);
    expect((await owner.api.post('/api/v2/agents/builder', { description: 'x'.repeat(4001) })).status).toBe(400);
    expect((await owner.api.put('/api/v2/feature-flags/chat-agent-creation', { enabled: false })).status).toBe(200);
    try {
      const reply = await draft(owner, 'anything');
      expect(reply.status).toBe(403);
      expect(reply.body.error.code).toBe('feature_disabled');
    } finally {
      await owner.api.put('/api/v2/feature-flags/chat-agent-creation', { enabled: true });
    }
  });
});
