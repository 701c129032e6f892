// Guardrails in an answer, end to end with the fake OpenAI server: each stage (the question, the
// passages, the answer as it streams) and each action (block, redact, mask, warn), what reaches the
// model, what is recorded and what the stream says; attaching guardrails is part of the agent's
// configuration, behind the guardrail flag, and only the organization's own.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './support/app.js';
import { agentWith, askStreaming, corpusWith, createModelConfiguration } from './support/ask.js';
import { databaseKinds } from './support/databases.js';
import { createOrganization, createUser, type TestUser } from './support/factories.js';
import { startFakeOpenAi, type FakeLlmServer } from './support/fake-openai.js';

describe.each(databaseKinds)('guardrails in an answer (%s)', (kind) => {
  let t: TestApp;
  let fake: FakeLlmServer;
  let owner: TestUser;
  let configurationId: number;

  beforeAll(async () => {
    fake = await startFakeOpenAi();
    t = await startTestApp(kind, { EGRESS_ALLOWED_HOSTS: fake.host });
    owner = await createUser(t.app, { role: 'owner' });
    configurationId = (await createModelConfiguration(owner, fake)).id;
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
  });
  beforeEach(() => {
    fake.answer = 'Refunds take thirty days.';
    fake.chunks = undefined;
  });

  async function guardrail(body: Record<string, unknown>): Promise<number> {
    const reply = await owner.api.post('/api/v2/guardrails', { name: `Guardrail ${Math.random().toString(36).slice(2, 8)}`, ...body });
    expect(reply.status, reply.text).toBe(201);
    return reply.body.data.id;
  }
  const guardedAgent = (guardrailIds: number[], corpusIds: number[] = []) =>
    agentWith(owner, corpusIds, { llm_configuration_id: configurationId, guardrail_ids: guardrailIds });
  const ask = (agentId: number, query: string) => owner.api.post(`/api/v2/agents/${agentId}/responses`, { query });
  const lastUserMessage = () => fake.chatRequests().at(-1)!.body.messages.at(-1).content as string;

  it('redacts the question at the input stage: the model, the retrieval and the record see the redacted text', async () => {
    const id = await guardrail({ type: 'pii', stages: ['input'], action: 'redact', config: { entities: ['EMAIL_ADDRESS'] } });
    const agent = await guardedAgent([id]);
    const reply = await ask(agent.id, 'Please refund bob.smith@example.com for the train ticket');

    expect(reply.status).toBe(201);
    const response = reply.body.data;
    expect(response.status).toBe('completed');
    expect(lastUserMessage()).not.toContain('bob.smith@example.com');
    expect(response.query).not.toContain('bob.smith@example.com');
    expect(response.query).toBe(lastUserMessage());
    expect(response.guardrail_actions).toEqual([
      expect.objectContaining({ guardrail_id: id, type: 'pii', stage: 'input', action: 'redact', findings: [expect.objectContaining({ entity_type: 'EMAIL_ADDRESS', start: 14, end: 35 })] }),
    ]);
  });

  it('blocks a question at the input stage: recorded as blocked, never put to the model, told in the stream', async () => {
    const id = await guardrail({ name: 'No competitors', type: 'blocked_terms', stages: ['input'], action: 'block', config: { terms: ['acme corp'] } });
    const agent = await guardedAgent([id]);
    const before = fake.chatRequests().length;
    const reply = await ask(agent.id, 'How do you compare with ACME Corp?');
    expect(reply.status).toBe(201);
    expect(reply.body.data).toMatchObject({ status: 'blocked', answer: '', tool_calls: [] });
    expect(reply.body.data.error).toContain('No competitors');

    const { events } = await askStreaming(t.app, owner, agent.id, { query: 'Is acme corp cheaper?' });
    expect(fake.chatRequests().length).toBe(before);
    const names = events.map((event) => event.event);
    expect(names).toEqual(['response.created', 'guardrail', 'response.completed']);
    expect(events[1]!.data).toMatchObject({ guardrail_id: id, stage: 'input', action: 'block' });
    expect(events[2]!.data.status).toBe('blocked');
  });

  it('redacts passages at the context stage before the model reads them; the citations carry the redacted text', async () => {
    const documents = await corpusWith(owner, ['Refund desk: write to refunds.desk@example.com, refunds take thirty days.']);
    const id = await guardrail({ type: 'pii', stages: ['context'], action: 'redact', config: { entities: ['EMAIL_ADDRESS'] } });
    const agent = await guardedAgent([id], [documents.corpusId]);
    fake.answer = 'Thirty days [1].';
    const response = (await ask(agent.id, 'How long do refunds take?')).body.data;

    const system = fake.chatRequests().at(-1)!.body.messages[0].content as string;
    expect(system).toContain('Refund desk');
    expect(system).not.toContain('refunds.desk@example.com');
    expect(response.citations[0].passage).not.toContain('refunds.desk@example.com');
    expect(response.guardrail_actions[0]).toMatchObject({ stage: 'context', action: 'redact', source: expect.stringContaining('document') });
  });

  it('masks the answer as it streams, holding back only what a match could need: the deltas joined are the stored answer', async () => {
    const id = await guardrail({ type: 'pii', stages: ['output'], action: 'mask', config: { entities: ['EMAIL_ADDRESS'] } });
    const agent = await guardedAgent([id]);
    // A long answer: the filter holds back a bounded window (the longest entity and its context), not the whole text.
    const after = ' Refunds are paid to the card used for the purchase.'.repeat(12);
    fake.chunks = ['Write ', 'to bob.sm', 'ith@exam', 'ple.com about ', 'your refund, ', 'it takes thirty days ', 'from the journey.', ...after.match(/.{1,40}/g)!];
    const { events } = await askStreaming(t.app, owner, agent.id, { query: 'Who handles refunds?' });

    const deltas = events.filter((event) => event.event === 'delta').map((event) => event.data.text as string);
    const completed = events.at(-1)!.data;
    expect(completed.status).toBe('completed');
    expect(deltas.join('')).toBe(completed.answer);
    expect(completed.answer).not.toContain('example.com');
    expect(completed.answer).toMatch(/^Write to \*+ about your refund, it takes thirty days from the journey\./);
    expect(completed.answer.endsWith(after)).toBe(true);
    // Not the whole answer at the end: the masked address went out while the model was still writing.
    expect(deltas.length).toBeGreaterThan(2);
    expect(deltas[0]).toContain('Write to *');
    expect(events.some((event) => event.event === 'guardrail' && event.data.stage === 'output')).toBe(true);
    const stored = (await owner.api.get(`/api/v2/threads/${completed.thread_id}/responses`)).body.data;
    expect(stored.items.at(-1).answer).toBe(completed.answer);
  });

  it('blocks an answer at the output stage: the model is stopped, the response blocked, nothing after the term sent', async () => {
    const id = await guardrail({ name: 'No promises', type: 'blocked_terms', stages: ['output'], action: 'block', config: { terms: ['guaranteed refund'] } });
    const agent = await guardedAgent([id]);
    fake.chunks = ['You will ', 'get a guaran', 'teed refund ', 'within a week.'];
    const { events } = await askStreaming(t.app, owner, agent.id, { query: 'Will I get my money back?' });

    const completed = events.at(-1)!.data;
    expect(events.at(-1)!.event).toBe('response.completed');
    expect(completed.status).toBe('blocked');
    expect(completed.error).toContain('No promises');
    const sent = events.filter((event) => event.event === 'delta').map((event) => event.data.text).join('');
    expect(sent).toBe(completed.answer);
    expect(sent).not.toContain('guaranteed');
    expect(sent).not.toContain('within a week');
  });

  it('warns without changing anything, and records the finding', async () => {
    const id = await guardrail({ type: 'length', stages: ['output'], action: 'warn', config: { max_characters: 10 } });
    const agent = await guardedAgent([id]);
    const response = (await ask(agent.id, 'How long do refunds take?')).body.data;
    expect(response).toMatchObject({ status: 'completed', answer: 'Refunds take thirty days.' });
    expect(response.guardrail_actions).toEqual([expect.objectContaining({ guardrail_id: id, stage: 'output', action: 'warn' })]);
  });

  it('keeps guardrails in the agent’s configuration, refuses another organization’s, and needs the guardrail flag to attach them', async () => {
    const id = await guardrail({ type: 'length', stages: ['input'], action: 'block', config: { max_characters: 1000 } });
    const agent = await guardedAgent([]);
    expect((await owner.api.put(`/api/v2/agents/${agent.id}`, { guardrail_ids: [id] })).body.data.guardrail_ids).toEqual([id]);
    const history = (await owner.api.get(`/api/v2/agents/${agent.id}/history`)).body.data.items;
    expect(history[0].snapshot?.guardrail_ids ?? [id]).toEqual([id]);

    const stranger = await createUser(t.app, { role: 'owner', organizationId: await createOrganization(t.app) });
    const theirs = await stranger.api.post('/api/v2/guardrails', { name: 'Theirs', type: 'length', stages: ['input'], action: 'block', config: { max_characters: 5 } });
    expect(theirs.status, theirs.text).toBe(201);
    expect((await owner.api.put(`/api/v2/agents/${agent.id}`, { guardrail_ids: [theirs.body.data.id] })).status).toBe(404);

    expect((await owner.api.put('/api/v2/feature-flags/guardrail', { enabled: false })).status).toBe(200);
    try {
      const other = await guardedAgent([]);
      expect((await owner.api.put(`/api/v2/agents/${other.id}`, { guardrail_ids: [id] })).status).toBe(403);
    } finally {
      await owner.api.put('/api/v2/feature-flags/guardrail', { enabled: true });
    }
    expect((await owner.api.get(`/api/v2/agents/${agent.id}`)).body.data.guardrail_ids).toEqual([id]);
  });
});
