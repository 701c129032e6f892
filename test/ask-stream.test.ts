// Asking with stream: true — the events of API.md §8 in order, each with an id, the deltas joined
// being the answer; a failing model as an error event; a client that goes away cancels the call.
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './support/app.js';
import { agentWith, askStreaming, corpusWith, createModelConfiguration, parseEvents } from './support/ask.js';
import { databaseKinds } from './support/databases.js';
import { createOrganization, createUser, type TestUser } from './support/factories.js';
import { startFakeOpenAi, type FakeLlmServer } from './support/fake-openai.js';

const HANDBOOK = 'The travel handbook says that train tickets are refunded within thirty days when the journey is cancelled.';

describe.each(databaseKinds)('asking with a stream of events (%s)', (kind) => {
  let t: TestApp;
  let fake: FakeLlmServer;
  let owner: TestUser;
  let agentId: number;

  beforeAll(async () => {
    fake = await startFakeOpenAi();
    t = await startTestApp(kind, { EGRESS_ALLOWED_HOSTS: fake.host });
    owner = await createUser(t.app, { role: 'owner' });
    const configuration = await createModelConfiguration(owner, fake);
    const { corpusId } = await corpusWith(owner, [HANDBOOK]);
    agentId = (await agentWith(owner, [corpusId], { llm_configuration_id: configuration.id })).id;
    // A real port, for clients that go away.
    await t.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
  });

  const names = (events: { event: string }[]) => events.map((e) => e.event);
  const row = (id: number) => t.app.database.db.selectFrom('agent_responses').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

  it('sends response.created, citations, the deltas and response.completed, with increasing ids; the deltas joined are the answer', async () => {
    fake.answer = 'Tickets are refunded within thirty days [1]. Unknown [4].';
    fake.chunks = ['Tickets are ', 'refunded within ', 'thirty days [', '1]. Unknown [', '4].'];
    const { status, headers, events } = await askStreaming(t.app, owner, agentId, { query: 'When are train tickets refunded?' });
    expect(status).toBe(200);
    expect(headers['content-type']).toMatch(/^text\/event-stream/);
    expect(names(events)[0]).toBe('response.created');
    expect(names(events)[1]).toBe('citations');
    expect(names(events).at(-1)).toBe('response.completed');
    expect(new Set(names(events).slice(2, -1))).toEqual(new Set(['delta']));
    expect(events.map((e) => e.id)).toEqual(events.map((_, i) => i + 1));

    const completed = events.at(-1)!.data;
    const deltas = events.filter((e) => e.event === 'delta').map((e) => e.data.text as string);
    expect(deltas.join('')).toBe(completed.answer);
    expect(completed.answer).toBe('Tickets are refunded within thirty days [1]. Unknown .');
    expect(events[0]!.data).toEqual({ id: completed.id, thread_id: completed.thread_id });
    expect(events[1]!.data.map((c: { number: number }) => c.number)).toEqual([1]);
    expect(completed.citations.map((c: { number: number }) => c.number)).toEqual([1]);
    expect(completed.first_token_ms).toBeLessThanOrEqual(completed.latency_ms);
    expect((await row(completed.id)).answer).toBe(completed.answer);
  });

  it('streams the offline answerer the same way where no model is configured', async () => {
    const other = await createUser(t.app, { organizationId: await createOrganization(t.app), role: 'owner' });
    const { corpusId } = await corpusWith(other, [HANDBOOK]);
    const agent = await agentWith(other, [corpusId]);
    const { events } = await askStreaming(t.app, other, agent.id, { query: 'When are train tickets refunded?' });
    expect(names(events).slice(0, 2)).toEqual(['response.created', 'citations']);
    expect(names(events).at(-1)).toBe('response.completed');
    const completed = events.at(-1)!.data;
    expect(completed.model).toBe('offline');
    expect(events.filter((e) => e.event === 'delta').length).toBeGreaterThan(1);
    expect(events.filter((e) => e.event === 'delta').map((e) => e.data.text).join('')).toBe(completed.answer);
  });

  it('ends with an error event when the model fails, and records the response as failed', async () => {
    fake.failNext(401);
    const { status, events } = await askStreaming(t.app, owner, agentId, { query: 'When are train tickets refunded?' });
    expect(status).toBe(200);
    expect(names(events)).toEqual(['response.created', 'citations', 'error']);
    expect(events[2]!.data).toMatchObject({ code: 'upstream_error', response_id: events[0]!.data.id });
    expect((await row(events[0]!.data.id)).status).toBe('failed');
  });

  it('answers errors of the ask itself before any stream: 404 and 400 as JSON', async () => {
    const missing = await askStreaming(t.app, owner, 999_999, { query: 'hello' });
    expect(missing.status).toBe(404);
    expect(JSON.parse(missing.text).error.code).toBe('not_found');
    expect((await askStreaming(t.app, owner, agentId, { query: '' })).status).toBe(400);
  });

  it('cancels the model call when the client goes away, and records the response as cancelled by the client', async () => {
    const { port } = t.app.server.address() as AddressInfo;
    fake.answer = 'One two three four five six.';
    fake.chunks = undefined;
    const stall = fake.stallNext({ afterChunks: 2 });
    const client = httpRequest({
      host: '127.0.0.1',
      port,
      method: 'POST',
      path: `/api/v2/agents/${agentId}/responses`,
      headers: { authorization: `Bearer ${owner.token}`, 'content-type': 'application/json' },
    });
    client.end(JSON.stringify({ query: 'Count to six', stream: true }));
    const response = await new Promise<import('node:http').IncomingMessage>((resolve) => client.on('response', resolve));
    let text = '';
    // Read until both streamed pieces have arrived, then go away.
    for await (const chunk of response) {
      text += String(chunk);
      if (parseEvents(text.slice(0, text.lastIndexOf('\n\n') + 2)).filter((e) => e.event === 'delta').length === 2) break;
    }
    client.destroy();
    await stall.disconnected;
    await t.app.services.asks.settle();
    const created = parseEvents(text.slice(0, text.lastIndexOf('\n\n') + 2))[0]!;
    const recorded = await row(created.data.id);
    expect(recorded).toMatchObject({ status: 'failed', error: 'cancelled by the client', answer: 'One two ' });
  });

  it('cancels the model call of an ask without stream too, when its client goes away', async () => {
    const { port } = t.app.server.address() as AddressInfo;
    const stall = fake.stallNext();
    const client = httpRequest({
      host: '127.0.0.1',
      port,
      method: 'POST',
      path: `/api/v2/agents/${agentId}/responses`,
      headers: { authorization: `Bearer ${owner.token}`, 'content-type': 'application/json' },
    });
    client.on('error', () => undefined);
    client.end(JSON.stringify({ query: 'Wait for it' }));
    await stall.arrived;
    client.destroy();
    await stall.disconnected;
    await t.app.services.asks.settle();
    const last = await t.app.database.db.selectFrom('agent_responses').selectAll().where('query', '=', 'Wait for it').executeTakeFirstOrThrow();
    expect(last).toMatchObject({ status: 'failed', error: 'cancelled by the client', answer: '' });
  });
});
