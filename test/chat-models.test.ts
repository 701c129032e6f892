// The chat models of LLM configurations, run for real against the fake OpenAI-compatible and
// Anthropic servers on loopback, through the egress client: streaming, usage, cancellation, retries
// only before the first piece of the answer, deadlines, error classes, the address rules, and the key
// kept out of every message. Models come from the service that answers agents (both databases) and,
// where a test needs settings of its own, from createChatModel directly.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEgressClient, type EgressClient } from '../src/net/egress.js';
import type { ChatEvent, ChatModel } from '../src/providers/chat/chat-model.js';
import { ModelCallError } from '../src/providers/chat/chat-model.js';
import { createChatModel, type ChatModelSettings } from '../src/providers/chat/create-chat-model.js';
import { startTestApp, type TestApp } from './support/app.js';
import { databaseKinds } from './support/databases.js';
import { startFakeAnthropic } from './support/fake-anthropic.js';
import { FAKE_LLM_KEY, startFakeOpenAi, type FakeLlmServer } from './support/fake-openai.js';
import { createUser, firstOrganizationId, type TestUser } from './support/factories.js';

const ask = (signal = new AbortController().signal) => ({ messages: [{ role: 'system' as const, content: 'Be brief.' }, { role: 'user' as const, content: 'Say hello' }], temperature: 0.2, maxTokens: 100, signal });

async function collect(model: ChatModel, signal?: AbortSignal, streamed?: boolean): Promise<ChatEvent[]> {
  const events: ChatEvent[] = [];
  for await (const event of model.stream({ ...ask(signal), ...(streamed === undefined ? {} : { streamed }) })) events.push(event);
  return events;
}

async function failureOf(model: ChatModel, signal?: AbortSignal): Promise<{ error: unknown; events: ChatEvent[] }> {
  const events: ChatEvent[] = [];
  try {
    for await (const event of model.stream(ask(signal))) events.push(event);
  } catch (error) {
    return { error, events };
  }
  throw new Error('the call did not fail');
}

const textOf = (events: ChatEvent[]) => events.flatMap((event) => (event.type === 'delta' ? [event.text] : [])).join('');
const usageOf = (events: ChatEvent[]) => events.find((event) => event.type === 'usage');

const PROVIDERS = [
  { provider: 'openai' as const, start: startFakeOpenAi },
  { provider: 'openai_compatible' as const, start: startFakeOpenAi },
  { provider: 'anthropic' as const, start: startFakeAnthropic },
];

describe.each(databaseKinds)('chat models (%s)', (kind) => {
  let t: TestApp;
  let owner: TestUser;
  let orgId: number;
  let egress: EgressClient;
  const fakes: Record<string, FakeLlmServer> = {};

  beforeAll(async () => {
    for (const { provider, start } of PROVIDERS) fakes[provider] = await start();
    const hosts = Object.values(fakes).map((fake) => fake.host);
    t = await startTestApp(kind, { EGRESS_ALLOWED_HOSTS: hosts.join(',') });
    orgId = await firstOrganizationId(t.app);
    owner = await createUser(t.app, { organizationId: orgId, role: 'owner' });
    egress = createEgressClient({ allowedHosts: hosts });
  });
  afterAll(async () => {
    egress?.close();
    await t?.close();
    await Promise.all(Object.values(fakes).map((fake) => fake.close()));
  });

  const settingsFor = (provider: (typeof PROVIDERS)[number]['provider'], overrides: Partial<ChatModelSettings> = {}): ChatModelSettings => ({
    provider,
    model: provider === 'anthropic' ? 'claude-fake' : 'fake-model',
    baseUrl: fakes[provider]!.baseUrl,
    apiVersion: null,
    apiKey: FAKE_LLM_KEY,
    timeoutMs: 10_000,
    maxRetries: 2,
    retryBaseMs: 10,
    ...overrides,
  });

  describe.each(PROVIDERS)('$provider', ({ provider }) => {
    const fake = () => fakes[provider]!;
    const reset = () => {
      fake().answer = 'Hello from the fake model.';
      fake().chunks = undefined;
      fake().usage = true;
    };

    it('streams the answer through the service that answers agents: deltas joined are the text, usage as counted', async () => {
      reset();
      fake().chunks = ['Hel', 'lo, ', 'wor', 'ld!'];
      const made = await owner.api.post(`/api/v2/organizations/${orgId}/llm-configurations`, {
        name: `Streaming ${provider}`,
        provider,
        model: 'fake-model',
        base_url: fake().baseUrl,
        api_key: FAKE_LLM_KEY,
      });
      expect(made.status).toBe(201);
      const resolved = await t.app.services.llm.resolveForAnswering(orgId, made.body.data.id);
      const events = await collect(resolved!.chatModel);
      expect(events.filter((event) => event.type === 'delta').map((event) => (event as { text: string }).text)).toEqual(['Hel', 'lo, ', 'wor', 'ld!']);
      expect(usageOf(events)).toEqual({ type: 'usage', usage: { prompt: 11, completion: 7 } });
      expect(events.at(-1)?.type).toBe('usage');
      const sent = fake().chatRequests().at(-1)!;
      expect(sent.body.stream).toBe(true);
      expect(sent.body.model).toBe('fake-model');
      expect(JSON.stringify(sent.body.messages ?? [])).toContain('Say hello');
      if (provider === 'anthropic') expect(sent.headers['x-api-key']).toBe(FAKE_LLM_KEY);
      else expect(sent.headers.authorization).toBe(`Bearer ${FAKE_LLM_KEY}`);
    });

    it('asks for an answer nobody reads as it is written whole: its text as one piece, its tool calls and usage, retried and scrubbed as a stream is', async () => {
      reset();
      fake().chunks = ['Hel', 'lo, ', 'wor', 'ld!'];
      const model = createChatModel(settingsFor(provider), egress);
      const events = await collect(model, undefined, false);
      expect(events).toEqual([
        { type: 'delta', text: 'Hello, world!' },
        { type: 'usage', usage: { prompt: 11, completion: 7 } },
      ]);
      expect(fake().chatRequests().at(-1)!.body.stream).toBeFalsy();

      fake().toolCallNext('search', { query: 'handbook' });
      const called = await collect(model, undefined, false);
      expect(called.filter((event) => event.type !== 'usage')).toMatchObject([{ type: 'tool_call', call: { name: 'search', arguments: { query: 'handbook' } } }]);

      const before = fake().chatRequests().length;
      fake().failNext(500);
      expect(textOf(await collect(model, undefined, false))).toBe('Hello, world!');
      expect(fake().chatRequests().length - before).toBe(2);

      fake().failNext(401, { message: `Incorrect API key provided: ${FAKE_LLM_KEY}` });
      let failure: unknown;
      await collect(model, undefined, false).catch((error: unknown) => (failure = error));
      expect((failure as ModelCallError).errorClass).toBe('auth');
      expect((failure as Error).message).not.toContain(FAKE_LLM_KEY);
    });

    it('stops a whole answer’s call when the caller goes away, and gives up on one past the deadline', async () => {
      reset();
      const caller = new AbortController();
      const stall = fake().stallNext();
      const leaving = collect(createChatModel(settingsFor(provider), egress), caller.signal, false);
      await stall.arrived;
      caller.abort(new Error('the client went away'));
      await expect(leaving).rejects.toThrow('the client went away');
      await stall.disconnected;

      const stalled = fake().stallNext();
      const late = await collect(createChatModel(settingsFor(provider, { timeoutMs: 300 }), egress), undefined, false).catch((error: unknown) => error);
      expect((late as ModelCallError).errorClass).toBe('timeout');
      await stalled.disconnected;
    });

    // Anthropic always counts tokens; OpenAI-style servers may not.
    it.skipIf(provider === 'anthropic')('gives no usage event when the provider counts no tokens', async () => {
      reset();
      fake().usage = false;
      const events = await collect(createChatModel(settingsFor(provider), egress));
      expect(textOf(events)).toBe('Hello from the fake model.');
      expect(usageOf(events)).toBeUndefined();
    });

    it('sends no key header when the configuration has no key', async () => {
      reset();
      await collect(createChatModel(settingsFor(provider, { apiKey: null }), egress));
      const sent = fake().chatRequests().at(-1)!;
      expect(sent.headers.authorization).toBeUndefined();
      expect(sent.headers['x-api-key']).toBeUndefined();
    });

    it('stops the provider call when the caller goes away: the fake sees the disconnect', async () => {
      reset();
      const stall = fake().stallNext({ afterChunks: 2 });
      const caller = new AbortController();
      const model = createChatModel(settingsFor(provider), egress);
      const received: ChatEvent[] = [];
      const run = (async () => {
        for await (const event of model.stream(ask(caller.signal))) {
          received.push(event);
          if (received.length === 2) caller.abort(new Error('the client went away'));
        }
      })();
      await expect(run).rejects.toThrow('the client went away');
      await stall.disconnected;
      expect(textOf(received)).toBe('Hello from ');
    });

    it('closes the provider call when the caller stops reading early', async () => {
      reset();
      const stall = fake().stallNext({ afterChunks: 2 });
      for await (const event of createChatModel(settingsFor(provider), egress).stream(ask())) {
        expect(event).toEqual({ type: 'delta', text: 'Hello ' });
        break;
      }
      await stall.disconnected;
    });

    it('retries a failure before the first piece of the answer, and then answers', async () => {
      reset();
      const before = fake().chatRequests().length;
      fake().failNext(500);
      const events = await collect(createChatModel(settingsFor(provider), egress));
      expect(textOf(events)).toBe('Hello from the fake model.');
      expect(fake().chatRequests().length - before).toBe(2);
    });

    it('honours Retry-After on a 429 and gives up with rate_limited after its retries', async () => {
      reset();
      const before = fake().chatRequests().length;
      fake().failNext(429, { times: 3, retryAfter: '0' });
      const { error } = await failureOf(createChatModel(settingsFor(provider, { maxRetries: 2 }), egress));
      expect(error).toBeInstanceOf(ModelCallError);
      expect((error as ModelCallError).errorClass).toBe('rate_limited');
      expect(fake().chatRequests().length - before).toBe(3);
    });

    it('never retries once part of the answer went out: a stream cut midway is bad_response', async () => {
      reset();
      const before = fake().chatRequests().length;
      fake().cutNext(2);
      const { error, events } = await failureOf(createChatModel(settingsFor(provider), egress));
      expect((error as ModelCallError).errorClass).toBe('bad_response');
      expect((error as ModelCallError).status).toBe(502);
      expect(textOf(events)).toBe('Hello from ');
      expect(fake().chatRequests().length - before).toBe(1);
    });

    it('fails with bad_response on an answer that cannot be read, and leaves nothing behind when it gives up on it', async () => {
      reset();
      fake().malformedNext();
      const { error } = await failureOf(createChatModel(settingsFor(provider, { maxRetries: 0 }), egress));
      expect((error as ModelCallError).errorClass).toBe('bad_response');
    });

    it('fails with auth on a 401, at once and without the key in the message', async () => {
      reset();
      const before = fake().chatRequests().length;
      fake().failNext(401, { message: `Incorrect API key provided: ${FAKE_LLM_KEY}` });
      const { error } = await failureOf(createChatModel(settingsFor(provider), egress));
      expect((error as ModelCallError).errorClass).toBe('auth');
      expect((error as Error).message).not.toContain(FAKE_LLM_KEY);
      expect((error as Error).message).toContain('[redacted]');
      expect(fake().chatRequests().length - before).toBe(1);
    });

    it('fails with timeout when the provider stalls past the deadline', async () => {
      reset();
      const stall = fake().stallNext();
      const { error } = await failureOf(createChatModel(settingsFor(provider, { timeoutMs: 300 }), egress));
      expect((error as ModelCallError).errorClass).toBe('timeout');
      expect((error as ModelCallError).status).toBe(504);
      await stall.disconnected;
    });

    it('asks for a tool call without breaking the stream', async () => {
      reset();
      fake().toolCallNext('search', { query: 'handbook' });
      const events = await collect(createChatModel(settingsFor(provider), egress));
      expect(textOf(events)).toBe('');
    });

    it('offers tools, hands their calls back, and sends their results in the next call', async () => {
      reset();
      const model = createChatModel(settingsFor(provider), egress);
      const tools = [{ name: 'search', description: 'Searches the handbook', parameters: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] } }];
      fake().toolCallNext('search', { query: 'handbook' });
      const events: ChatEvent[] = [];
      for await (const event of model.stream({ ...ask(), tools })) events.push(event);
      const offered = fake().chatRequests().at(-1)!.body.tools as any[];
      expect(JSON.stringify(offered)).toContain('Searches the handbook');
      const call = events.find((event) => event.type === 'tool_call');
      expect(call).toMatchObject({ type: 'tool_call', call: { name: 'search', arguments: { query: 'handbook' } } });
      const { call: asked } = call as Extract<ChatEvent, { type: 'tool_call' }>;

      const messages = [
        ...ask().messages,
        { role: 'assistant' as const, content: '', toolCalls: [asked] },
        { role: 'tool' as const, content: 'Page 4: the handbook says hello.', toolCallId: asked.id, toolName: 'search' },
      ];
      const answer: ChatEvent[] = [];
      for await (const event of model.stream({ ...ask(), messages, tools })) answer.push(event);
      expect(textOf(answer)).toBe('Hello from the fake model.');
      const sent = JSON.stringify(fake().chatRequests().at(-1)!.body.messages);
      expect(sent).toContain('Page 4: the handbook says hello.');
      expect(sent).toContain(asked.id);
    });
  });

  it('reaches Azure OpenAI by deployment URL with the api-version, and by the v1 API without one', async () => {
    const fake = fakes.openai!;
    await collect(createChatModel({ ...settingsFor('openai'), provider: 'azure_openai', model: 'my-deployment', baseUrl: `${fake.origin}/openai`, apiVersion: '2024-10-21' }, egress));
    const byDeployment = fake.chatRequests().at(-1)!;
    expect(byDeployment.url).toBe('/openai/deployments/my-deployment/chat/completions?api-version=2024-10-21');
    expect(byDeployment.headers['api-key']).toBe(FAKE_LLM_KEY);
    await collect(createChatModel({ ...settingsFor('openai'), provider: 'azure_openai', model: 'my-deployment', baseUrl: `${fake.origin}/openai`, apiVersion: null }, egress));
    // A base URL that is not an *.openai.azure.com one is taken as a gateway: {base}/chat/completions.
    expect(fake.chatRequests().at(-1)!.url.split('?')[0]).toBe('/openai/chat/completions');
    fake.answer = 'Hello from the fake model.';
    fake.chunks = undefined;
    const whole = await collect(createChatModel({ ...settingsFor('openai'), provider: 'azure_openai', model: 'my-deployment', baseUrl: `${fake.origin}/openai`, apiVersion: '2024-10-21' }, egress), undefined, false);
    expect(whole[0]).toEqual({ type: 'delta', text: 'Hello from the fake model.' });
    expect(fake.chatRequests().at(-1)!.body.stream).toBeFalsy();
    expect(fake.chatRequests().at(-1)!.url).toBe('/openai/deployments/my-deployment/chat/completions?api-version=2024-10-21');
  });

  it('refuses a loopback base URL outside EGRESS_ALLOWED_HOSTS: unreachable, and nothing is sent', async () => {
    const outsider = await startFakeOpenAi();
    try {
      const { error } = await failureOf(createChatModel({ ...settingsFor('openai_compatible'), baseUrl: outsider.baseUrl }, egress));
      expect((error as ModelCallError).errorClass).toBe('unreachable');
      expect(outsider.listener.connections()).toBe(0);
    } finally {
      await outsider.close();
    }
  });

  it('says unreachable when nothing listens at an allowed address', async () => {
    const gone = await startFakeOpenAi();
    const { host, baseUrl } = gone;
    await gone.close();
    const allowing = createEgressClient({ allowedHosts: [host] });
    try {
      const { error } = await failureOf(createChatModel({ ...settingsFor('openai_compatible'), baseUrl, maxRetries: 0 }, allowing));
      expect((error as ModelCallError).errorClass).toBe('unreachable');
    } finally {
      allowing.close();
    }
  });

  it('says not_found for a model the provider does not know', async () => {
    fakes.openai!.failNext(404, { message: 'The model `nope` does not exist' });
    const { error } = await failureOf(createChatModel(settingsFor('openai'), egress));
    expect((error as ModelCallError).errorClass).toBe('not_found');
    expect((error as Error).message).toContain('does not exist');
  });
});
