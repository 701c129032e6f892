// The builder's conversation starters: the prompt asks the model for 2 to 5, the draft's validation
// takes exactly that range (an answer outside it goes through the repair round), the rule-based
// drafter gives at least 2 too, and the OpenAPI document says so.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './support/app.js';
import { createModelConfiguration } from './support/ask.js';
import { databaseKinds } from './support/databases.js';
import { createOrganization, createUser, type TestUser } from './support/factories.js';
import { startFakeOpenAi, type FakeLlmServer } from './support/fake-openai.js';

const starters = (count: number) => Array.from({ length: count }, (_, i) => `Starter question number ${i + 1}?`);
const modelDraft = (count: number) =>
  JSON.stringify({ name: 'Travel helper', description: 'Travel rules', instructions: 'Answer about travel.', conversation_starters: starters(count), corpus_ids: [], tool_ids: [], guardrail_ids: [] });

describe.each(databaseKinds)('conversation starters of the agent builder (%s)', (kind) => {
  let t: TestApp;
  let fake: FakeLlmServer;
  let owner: TestUser;

  const draft = (user: TestUser, description = 'A helper for travel rules') => user.api.post('/api/v2/agents/builder', { description });

  beforeAll(async () => {
    fake = await startFakeOpenAi();
    t = await startTestApp(kind, { EGRESS_ALLOWED_HOSTS: fake.host, LIMIT_LLM_TIMEOUT_MS: '5000' });
    owner = await createUser(t.app, { role: 'owner' });
    await createModelConfiguration(owner, fake);
  });
  afterAll(async () => {
    await t?.close();
    await fake?.close();
  });

  it('keeps every starter of a model answering 2 to 5, as its prompt asks, and repairs an answer with fewer or more', async () => {
    for (const count of [2, 5]) {
      fake.answerNext(modelDraft(count));
      const reply = await draft(owner);
      expect(reply.status, reply.text).toBe(200);
      expect(reply.body.data.draft.conversation_starters).toEqual(starters(count));
      expect(reply.body.data.usage.model_calls).toBe(1);
      expect(fake.chatRequests().at(-1)!.body.messages[0].content).toContain('"conversation_starters": array of 2 to 5 strings (each at most 500 characters)');
    }
    for (const [wrong, right] of [
      [6, 4],
      [1, 2],
    ] as const) {
      fake.answerNext(modelDraft(wrong));
      fake.answerNext(modelDraft(right));
      const reply = await draft(owner);
      expect(reply.status, reply.text).toBe(200);
      expect(reply.body.data.usage.model_calls).toBe(2);
      expect(reply.body.data.draft.conversation_starters).toEqual(starters(right));
      expect(fake.chatRequests().at(-1)!.body.messages[3].content).toContain('/conversation_starters');
    }
  });

  it('gives at least two starters by the rules, even for a description without keywords', async () => {
    const other = await createUser(t.app, { organizationId: await createOrganization(t.app), role: 'owner' });
    const reply = await draft(other, 'An assistant that can help me');
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body.data.drafted_by).toBe('rules');
    expect(reply.body.data.draft.conversation_starters.length).toBeGreaterThanOrEqual(2);
  });

  it('documents the range in the OpenAPI document', async () => {
    const schema = (await owner.api.get('/openapi.json')).body.components.schemas.AgentDraft.properties.conversation_starters;
    expect(schema).toMatchObject({ minItems: 2, maxItems: 5 });
  });
});
