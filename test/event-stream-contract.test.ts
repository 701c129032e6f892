// Every text/event-stream answer of the OpenAPI document, driven for real (the fake model, a tool
// on loopback, a guardrail, documents that are processed and one that fails): each event the server
// writes, decoded as docs/api.md ("Event streams") says a client decodes it, is valid against the
// schema the document gives the stream, and every event name the document lists is seen.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readEventStream, type ServerSentEvent } from '../clients/typescript/src/event-stream.js';
import { startTestApp, type TestApp } from './support/app.js';
import { agentWith, corpusWith, createModelConfiguration } from './support/ask.js';
import { createCorpus, uploadFiles, uploadText } from './support/corpora.js';
import { databaseKinds } from './support/databases.js';
import { createUser, type TestUser } from './support/factories.js';
import { startFakeOpenAi, type FakeLlmServer } from './support/fake-openai.js';
import { startListener, type Listener } from './support/listeners.js';
import { fetchOpenApiDocument, operationsOf, schemaValidator, type OpenApiDocument } from './support/openapi-schemas.js';

interface DecodedEvent {
  event: string;
  id?: string;
  data: unknown;
}

/** As a client decodes an event: its data parsed from JSON, or the text itself where it is not JSON ([DONE]). */
function decode(raw: ServerSentEvent): DecodedEvent {
  let data: unknown;
  try {
    data = JSON.parse(raw.data);
  } catch {
    data = raw.data;
  }
  return { event: raw.event, data, ...(raw.id === undefined ? {} : { id: raw.id }) };
}

async function decodeAll(body: string): Promise<DecodedEvent[]> {
  const events: DecodedEvent[] = [];
  for await (const raw of readEventStream(new Response(body).body!)) events.push(decode(raw));
  return events;
}

describe.each(databaseKinds)('event streams against the OpenAPI document (%s)', (kind) => {
  let t: TestApp;
  let fake: FakeLlmServer;
  let weatherApi: Listener;
  let owner: TestUser;
  let agentId: number;
  let document: OpenApiDocument;
  let compile: ReturnType<typeof schemaValidator>;

  beforeAll(async () => {
    fake = await startFakeOpenAi();
    weatherApi = await startListener((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ city: 'Paris', forecast: 'sunny' }));
    });
    t = await startTestApp(kind, { EGRESS_ALLOWED_HOSTS: [fake.host, `127.0.0.1:${weatherApi.port}`].join(',') });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    owner = await createUser(t.app, { role: 'owner' });
    document = await fetchOpenApiDocument(t.app);
    compile = schemaValidator(document);

    // An agent with everything an answer can tell of: passages, a tool, a guardrail on the answer.
    const configuration = await createModelConfiguration(owner, fake);
    expect((await owner.api.put('/api/v2/feature-flags/api-tools', { enabled: true })).status).toBe(200);
    const tool = await owner.api.post(`/api/v2/organizations/${owner.organizationId}/tools/api`, {
      name: 'weather',
      description: 'The weather forecast of a city',
      config: { method: 'GET', url: `${weatherApi.origin}/forecast/{city}`, parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } },
    });
    expect(tool.status, tool.text).toBe(201);
    const guardrail = await owner.api.post('/api/v2/guardrails', { name: 'No e-mail addresses', type: 'pii', stages: ['output'], action: 'mask', config: { entities: ['EMAIL_ADDRESS'] } });
    expect(guardrail.status, guardrail.text).toBe(201);
    const { corpusId } = await corpusWith(owner, ['Refunds are paid within thirty days of the return; write to refunds@example.com.']);
    const agent = await agentWith(owner, [corpusId], {
      alias: `streams-${kind}`,
      llm_configuration_id: configuration.id,
      tool_ids: [tool.body.data.id],
      guardrail_ids: [guardrail.body.data.id],
    });
    agentId = agent.id;
  });
  afterAll(async () => {
    await t.close();
    await Promise.all([fake.close(), weatherApi.close()]);
  });

  /** The schema the document gives the 200 text/event-stream answer of an operation. */
  function streamSchema(operationId: string) {
    const operation = operationsOf(document).find(({ operation }) => operation.operationId === operationId)!.operation;
    return operation.responses['200'].content['text/event-stream'].schema as { $ref: string };
  }

  function expectValid(operationId: string, events: DecodedEvent[]) {
    const validate = compile(streamSchema(operationId));
    for (const event of events) expect(validate(event) ? [] : validate.errors, `${operationId}: ${JSON.stringify(event).slice(0, 300)}`).toEqual([]);
  }

  /** The event names a stream's schema lists: its discriminator's, or the one name of a single event. */
  function documentedNames(operationId: string): string[] {
    const schema = document.components.schemas[streamSchema(operationId).$ref.split('/').pop()!];
    return schema.discriminator ? Object.keys(schema.discriminator.mapping) : schema.properties.event.enum;
  }

  const ask = async (query: string) => {
    const reply = await t.app.inject({
      method: 'POST',
      url: `/api/v2/agents/${agentId}/responses`,
      headers: { authorization: `Bearer ${owner.token}`, 'content-type': 'application/json' },
      payload: JSON.stringify({ query, stream: true }),
    });
    expect(reply.statusCode, reply.body).toBe(200);
    return decodeAll(reply.body);
  };

  const complete = async (body: Record<string, unknown>) => {
    const reply = await t.app.inject({
      method: 'POST',
      url: '/api/v2/openai/chat/completions',
      headers: { authorization: `Bearer ${owner.token}`, 'content-type': 'application/json' },
      payload: JSON.stringify({ model: `streams-${kind}`, messages: [{ role: 'user', content: 'How are refunds paid?' }], stream: true, ...body }),
    });
    expect(reply.statusCode, reply.body).toBe(200);
    return decodeAll(reply.body);
  };

  it('describes every streaming operation the server has, and only those', () => {
    const streaming = operationsOf(document)
      .filter(({ operation }) => Object.values<any>(operation.responses).some((response) => response.content?.['text/event-stream']))
      .map(({ operation }) => operation.operationId);
    expect(streaming.sort()).toEqual(['askAgent', 'callA2aAgent', 'createOpenAiChatCompletion', 'createOpenAiResponse', 'streamCorpusEvents']);
    // The check has teeth: a known name with the data of another, or an unknown name, is refused.
    const validate = compile(streamSchema('askAgent'));
    expect(validate({ event: 'delta', id: '3', data: { id: 12, thread_id: 3 } })).toBe(false);
    expect(validate({ event: 'deltas', id: '3', data: { text: 'Hi' } })).toBe(false);
    expect(validate({ event: 'delta', id: '3', data: { text: 'Hi' } })).toBe(true);
  });

  it('askAgent: every event of an answer with passages, a tool call and a guardrail, and of a failed one', async () => {
    fake.toolCallNext('weather', { city: 'Paris' });
    fake.answer = 'Sunny in Paris. Refunds take thirty days [1]; write to refunds@example.com.';
    fake.chunks = ['Sunny in Paris. ', 'Refunds take thirty days [1]; ', 'write to refunds@', 'example.com.'];
    const answered = await ask('Weather in Paris, and how are refunds paid?');
    fake.failNext(401);
    const failed = await ask('How are refunds paid?');

    const events = [...answered, ...failed];
    expectValid('askAgent', events);
    expect(new Set(events.map((event) => event.event))).toEqual(new Set(documentedNames('askAgent')));
    expect(answered.at(-1)!.event).toBe('response.completed');
    expect(failed.at(-1)!.event).toBe('error');
  });

  it('createOpenAiChatCompletion: chunks, the usage chunk and [DONE], and an error mid-stream', async () => {
    fake.answer = 'Refunds take thirty days.';
    fake.chunks = ['Refunds take ', 'thirty days.'];
    const answered = await complete({ stream_options: { include_usage: true } });
    fake.chunks = ['This ', 'will ', 'break ', 'off.'];
    fake.cutNext(2);
    const failed = await complete({});

    expectValid('createOpenAiChatCompletion', [...answered, ...failed]);
    expect(documentedNames('createOpenAiChatCompletion')).toEqual(['message']);
    expect(answered.at(-1)!.data).toBe('[DONE]');
    expect(answered.at(-2)!.data).toMatchObject({ choices: [], usage: { total_tokens: expect.any(Number) } });
    expect(failed.at(-1)!.data).toMatchObject({ error: { code: expect.any(String) } });
  });

  it('createOpenAiResponse: a text answer, a call of the client’s tools, and a failed model', async () => {
    const respond = async (body: Record<string, unknown>) => {
      const reply = await t.app.inject({
        method: 'POST',
        url: '/api/v2/openai/responses',
        headers: { authorization: `Bearer ${owner.token}`, 'content-type': 'application/json' },
        payload: JSON.stringify({ model: `streams-${kind}`, input: 'How are refunds paid?', stream: true, ...body }),
      });
      expect(reply.statusCode, reply.body).toBe(200);
      return decodeAll(reply.body);
    };
    fake.answer = 'Refunds take thirty days [1].';
    fake.chunks = ['Refunds take ', 'thirty days [1].'];
    const answered = await respond({});
    fake.toolCallNext('lookup_order', { order: 'A-1' });
    const called = await respond({ tools: [{ type: 'function', name: 'lookup_order', parameters: { type: 'object', properties: { order: { type: 'string' } } } }] });
    fake.failNext(401);
    const failed = await respond({});

    const events = [...answered, ...called, ...failed];
    expectValid('createOpenAiResponse', events);
    const documented = documentedNames('createOpenAiResponse');
    for (const event of events) expect(documented).toContain(event.event);
    for (const event of events) expect((event.data as { type: string }).type).toBe(event.event);
    expect(answered.at(-1)!.event).toBe('response.completed');
    expect(called.map((event) => event.event)).toContain('response.function_call_arguments.done');
    expect(failed.at(-1)!.event).toBe('response.failed');
  });

  it('callA2aAgent: the task, the answer’s artifact updates and the final status, in A2A 1.0 and 0.3', async () => {
    expect((await owner.api.put('/api/v2/feature-flags/a2a', { enabled: true })).status).toBe(200);
    fake.answer = 'Refunds take thirty days [1].';
    fake.chunks = ['Refunds take ', 'thirty days [1].'];
    const message = { messageId: 'm-1', role: 'ROLE_USER', parts: [{ text: 'How are refunds paid?' }] };
    const streamed = async (version: string | undefined, method: string, params: unknown) => {
      const reply = await t.app.inject({
        method: 'POST',
        url: `/api/v2/a2a/agents/${agentId}`,
        headers: { authorization: `Bearer ${owner.token}`, 'content-type': 'application/json', ...(version ? { 'a2a-version': version } : {}) },
        payload: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
      });
      expect(reply.statusCode, reply.body).toBe(200);
      expect(reply.headers['content-type']).toContain('text/event-stream');
      return decodeAll(reply.body);
    };
    const current = await streamed('1.0', 'SendStreamingMessage', { message });
    const legacy = await streamed(undefined, 'message/stream', { message: { kind: 'message', messageId: 'm-2', role: 'user', parts: [{ kind: 'text', text: 'How are refunds paid?' }] } });

    expectValid('callA2aAgent', [...current, ...legacy]);
    expect(current.at(-1)!.data).toMatchObject({ result: { statusUpdate: { status: { state: 'TASK_STATE_COMPLETED' } } } });
    expect(legacy.at(-1)!.data).toMatchObject({ result: { kind: 'status-update', status: { state: 'completed' } } });
  });

  it('streamCorpusEvents: the steps of a document processed and of one that fails', async () => {
    const corpus = await createCorpus(owner);
    const { port } = t.app.server.address() as { port: number };
    const following = new AbortController();
    // Read until both documents have ended; the reader, told to stop, cancels the stream (the stream never ends by itself).
    const response = await fetch(`http://127.0.0.1:${port}/api/v2/corpora/${corpus.id}/events`, { headers: { authorization: `Bearer ${owner.token}` } });
    expect(response.status).toBe(200);

    const indexed = await uploadText(owner, corpus.id, 'Chairs may stay outside all winter under a cover.');
    const broken = (await uploadFiles(t.app, owner, corpus.id, [{ name: 'broken.pdf', bytes: Buffer.from('%PDF-1.4\nnot really a pdf') }])).body.data.items[0].id;
    const events: DecodedEvent[] = [];
    const ended = new Set<number>();
    for await (const raw of readEventStream(response.body!, following.signal)) {
      const event = decode(raw);
      events.push(event);
      const data = event.data as { document_id: number; step: string; is_failed: boolean };
      if ((data.document_id === indexed.id && data.step === 'indexed') || (data.document_id === broken && data.is_failed)) ended.add(data.document_id);
      if (ended.size === 2) following.abort();
    }

    expectValid('streamCorpusEvents', events);
    expect(documentedNames('streamCorpusEvents')).toEqual(['document']);
    expect(events.some((event) => (event.data as { is_failed: boolean }).is_failed)).toBe(true);
  });
});
