// Agent-to-agent (docs/a2a.md), driven by the official A2A SDK's client against the server listening on
// loopback, and by plain JSON-RPC for the protocol's 0.3 methods: each agent's card, a cited answer
// sent whole and streamed, a conversation continued by its contextId, the task read back, and what
// the door refuses (no credential, the flag off, another organization's agent, an agent of a team the
// caller is not in, a thread the caller does not own).
import { randomUUID } from 'node:crypto';
import { Role, TaskState, type Message, type Part, type StreamResponse, type Task } from '@a2a-js/sdk';
import { ClientFactory, DefaultAgentCardResolver, JsonRpcTransportFactory, type Client } from '@a2a-js/sdk/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { A2aCaller, newCallContext } from '../src/modules/a2a/a2a-caller.js';
import { AnswerChunks } from '../src/modules/a2a/task-events.js';
import { TransientTaskStore } from '../src/modules/a2a/transient-task-store.js';
import type { Actor } from '../src/modules/auth/actor.js';
import { agentWith, corpusWith, createModelConfiguration } from './support/ask.js';
import { startTestApp, type TestApp } from './support/app.js';
import { databaseKinds } from './support/databases.js';
import { createAgent, createOrganization, createUser, type TestUser } from './support/factories.js';
import { startFakeOpenAi, type FakeLlmServer } from './support/fake-openai.js';
import { addTeammate, createTeam } from './support/people.js';

const REFUNDS = 'Refunds are paid within 14 days of the parcel arriving back at the warehouse.';

/** fetch with the caller's credential, as a client configured with an API key sends it. */
const fetchAs = (token: string): typeof fetch => (input, init) => {
  const headers = new Headers(init?.headers);
  headers.set('authorization', `Bearer ${token}`);
  return fetch(input, { ...init, headers });
};

const userMessage = (text: string, contextId = ''): Message => ({
  messageId: randomUUID(),
  contextId,
  taskId: '',
  role: Role.ROLE_USER,
  parts: [{ content: { $case: 'text', value: text }, metadata: undefined, filename: '', mediaType: 'text/plain' }],
  metadata: undefined,
  extensions: [],
  referenceTaskIds: [],
});

const send = (client: Client, text: string, contextId = '') => client.sendMessage({ tenant: '', message: userMessage(text, contextId), configuration: undefined, metadata: undefined });

const textOf = (parts: Part[]) => parts.map((part) => (part.content?.$case === 'text' ? part.content.value : '')).join('');
const dataOf = (parts: Part[]) => parts.find((part) => part.content?.$case === 'data')?.content?.value as { response_id: number; thread_id: number; citations: { document_id: number }[] };

function asTask(result: Message | Task): Task {
  if (!('status' in result)) throw new Error(`expected a task, got a message: ${JSON.stringify(result)}`);
  return result;
}

describe.each(databaseKinds)('agent-to-agent (%s)', (kind) => {
  let t: TestApp;
  let fake: FakeLlmServer;
  let origin: string;
  let owner: TestUser;
  let member: TestUser;
  let stranger: TestUser;
  let agentId: number;
  let documentId: number;

  const endpoint = (agent: number | string) => `${origin}/api/v2/a2a/agents/${agent}`;
  const clientFor = (user: TestUser, agent: number | string = agentId) => {
    const fetchImpl = fetchAs(user.token);
    const factory = new ClientFactory({ transports: [new JsonRpcTransportFactory({ fetchImpl })], cardResolver: new DefaultAgentCardResolver({ fetchImpl }) });
    // The card is at <endpoint>/.well-known/agent-card.json: the base ends with a slash so that the path is added, not swapped.
    return factory.createFromUrl(`${endpoint(agent)}/`);
  };
  /** A JSON-RPC call as a client of A2A 0.3 makes it: no A2A-Version header. */
  const legacyCall = async (user: TestUser | undefined, agent: number, method: string, params: unknown) => {
    const response = await fetch(endpoint(agent), {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(user ? { authorization: `Bearer ${user.token}` } : {}) },
      body: JSON.stringify({ jsonrpc: '2.0', id: 7, method, params }),
    });
    return { status: response.status, headers: response.headers, body: (await response.json()) as any };
  };
  const legacyMessage = (text: string, contextId?: string) => ({ message: { kind: 'message', messageId: randomUUID(), role: 'user', parts: [{ kind: 'text', text }], ...(contextId ? { contextId } : {}) } });

  beforeAll(async () => {
    fake = await startFakeOpenAi();
    t = await startTestApp(kind, { EGRESS_ALLOWED_HOSTS: fake.host });
    origin = await t.app.listen({ host: '127.0.0.1', port: 0 });
    owner = await createUser(t.app, { role: 'owner' });
    member = await createUser(t.app, { role: 'member' });
    stranger = await createUser(t.app, { organizationId: await createOrganization(t.app), role: 'owner' });
    const configuration = await createModelConfiguration(owner, fake, { input_price_per_million: 1, output_price_per_million: 2 });
    const corpus = await corpusWith(owner, [REFUNDS]);
    documentId = corpus.documentIds[0]!;
    agentId = (await agentWith(owner, [corpus.corpusId], { name: `Refunds desk ${kind}`, description: 'Answers questions about refunds', llm_configuration_id: configuration.id })).id;
    expect((await owner.api.put('/api/v2/feature-flags/a2a', { enabled: true })).status).toBe(200);
  });
  afterAll(async () => {
    await t?.close();
    await fake?.close();
  });

  it('serves the agent’s card: A2A 1.0 to the SDK’s client, A2A 0.3 to a request that names no version', async () => {
    const client = await clientFor(owner);
    const card = await client.getAgentCard();
    expect(card.name).toBe(`Refunds desk ${kind}`);
    expect(card.description).toBe('Answers questions about refunds');
    expect(card.capabilities?.streaming).toBe(true);
    expect(card.supportedInterfaces.map((known) => [known.url, known.protocolVersion])).toEqual([
      [endpoint(agentId), '1.0'],
      [endpoint(agentId), '0.3'],
    ]);
    expect(card.skills).toHaveLength(1);
    expect(card.securitySchemes.bearer?.scheme?.$case).toBe('httpAuthSecurityScheme');

    const legacy = await fetch(`${endpoint(agentId)}/.well-known/agent-card.json`, { headers: { authorization: `Bearer ${owner.token}` } });
    expect(legacy.status).toBe(200);
    expect(legacy.headers.get('vary')).toContain('A2A-Version');
    const legacyCard = (await legacy.json()) as Record<string, any>;
    expect(legacyCard).toMatchObject({ url: endpoint(agentId), protocolVersion: '0.3', preferredTransport: 'JSONRPC', capabilities: { streaming: true } });
    expect(legacyCard.securitySchemes.bearer).toMatchObject({ type: 'http', scheme: 'bearer' });
  });

  it('answers SendMessage with a completed task: the cited answer as text, its citations as data, recorded as an agent response', async () => {
    fake.answer = 'Refunds are paid within 14 days [1].';
    const task = asTask(await send(await clientFor(owner), 'How long do refunds take?'));
    expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    const [artifact] = task.artifacts;
    expect(artifact?.artifactId).toBe('answer');
    expect(textOf(artifact!.parts)).toBe('Refunds are paid within 14 days [1].');
    const data = dataOf(artifact!.parts);
    expect(data.citations.map((citation) => citation.document_id)).toEqual([documentId]);
    expect(task.contextId).toBe(String(data.thread_id));

    // The same response the v2 route records: its thread, its answer, its cost.
    const recorded = (await owner.api.get(`/api/v2/responses/${data.response_id}`)).body.data;
    expect(recorded).toMatchObject({ id: data.response_id, thread_id: data.thread_id, agent_id: agentId, status: 'completed', answer: 'Refunds are paid within 14 days [1].' });
    expect(recorded.cost).not.toBeNull();

    // GetTask reads the task back for its caller, and for nobody else.
    expect((await (await clientFor(owner)).getTask({ tenant: '', id: task.id, historyLength: undefined })).status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    await expect((await clientFor(member)).getTask({ tenant: '', id: task.id, historyLength: undefined })).rejects.toThrow(/not found/i);
  });

  it('streams SendStreamingMessage: the task, the answer as it is generated, its citations, and the completed state last', async () => {
    fake.answer = 'Refunds take fourteen days after the parcel arrives [1].';
    const events: StreamResponse[] = [];
    for await (const event of (await clientFor(owner)).sendMessageStream({ tenant: '', message: userMessage('How long do refunds take?'), configuration: undefined, metadata: undefined })) {
      events.push(event);
    }
    const kinds = events.map((event) => event.payload?.$case);
    expect(kinds[0]).toBe('task');
    expect(kinds.at(-1)).toBe('statusUpdate');
    const last = events.at(-1)!.payload;
    expect(last?.$case === 'statusUpdate' && last.value.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);

    const updates = events.flatMap((event) => (event.payload?.$case === 'artifactUpdate' ? [event.payload.value] : []));
    const appended = updates.filter((update) => update.append || !update.lastChunk);
    expect(appended.length).toBeGreaterThan(1);
    expect(appended.map((update) => textOf(update.artifact!.parts)).join('')).toBe('Refunds take fourteen days after the parcel arrives [1].');
    const whole = updates.at(-1)!;
    expect(whole).toMatchObject({ append: false, lastChunk: true });
    expect(textOf(whole.artifact!.parts)).toBe('Refunds take fourteen days after the parcel arrives [1].');
    expect(dataOf(whole.artifact!.parts).citations).toHaveLength(1);
  });

  it('continues the conversation of a contextId: the model hears the earlier turn, in the same thread', async () => {
    fake.answer = 'Within 14 days [1].';
    const client = await clientFor(owner);
    const first = asTask(await send(client, 'How long do refunds take?'));
    fake.answer = 'Yes, by bank transfer.';
    const second = asTask(await send(client, 'Are they paid back to my bank?', first.contextId));
    expect(second.contextId).toBe(first.contextId);
    expect(dataOf(second.artifacts[0]!.parts).thread_id).toBe(Number(first.contextId));
    const heard = JSON.stringify(fake.chatRequests().at(-1)!.body);
    expect(heard).toContain('How long do refunds take?');
    expect(heard).toContain('Within 14 days [1].');
  });

  it('refuses a contextId that is no thread the caller owns with this agent, and records nothing', async () => {
    const owned = asTask(await send(await clientFor(owner), 'How long do refunds take?'));
    const before = fake.chatRequests().length;
    const client = await clientFor(member);
    await expect(send(client, 'And mine?', owned.contextId)).rejects.toThrow(/contextId/);
    await expect(send(client, 'And mine?', '999999999')).rejects.toThrow(/contextId/);
    await expect(send(client, 'And mine?', 'not-a-thread')).rejects.toThrow(/contextId/);
    expect(fake.chatRequests().length).toBe(before);
    expect((await member.api.get('/api/v2/threads')).body.data.items).toEqual([]);
  });

  it('ends the task failed, with the reason, when the model fails; the response is recorded as failed', async () => {
    fake.failNext(401);
    const task = asTask(await send(await clientFor(owner), 'How long do refunds take?'));
    expect(task.status?.state).toBe(TaskState.TASK_STATE_FAILED);
    expect(textOf(task.status!.message!.parts)).toMatch(/LLM configuration/);
    expect(task.artifacts).toEqual([]);
    const responseId = task.metadata!.response_id as number;
    expect((await owner.api.get(`/api/v2/responses/${responseId}`)).body.data).toMatchObject({ status: 'failed', thread_id: Number(task.contextId) });
  });

  it('ends the task rejected, with the guardrail’s reason, when a guardrail blocks the question', async () => {
    const guardrail = await owner.api.post('/api/v2/guardrails', { name: `No plans ${kind}`, type: 'blocked_terms', stages: ['input'], action: 'block', config: { terms: ['secret plan'] } });
    expect(guardrail.status, guardrail.text).toBe(201);
    const guarded = await createAgent(owner, { guardrail_ids: [guardrail.body.data.id] });
    const before = fake.chatRequests().length;
    const task = asTask(await send(await clientFor(owner, guarded.id), 'Tell me the secret plan'));
    expect(task.status?.state).toBe(TaskState.TASK_STATE_REJECTED);
    expect(textOf(task.status!.message!.parts)).not.toBe('');
    expect(fake.chatRequests().length).toBe(before);
    expect((await owner.api.get(`/api/v2/responses/${task.metadata!.response_id}`)).body.data.status).toBe('blocked');
  });

  it('cancels a task still answering: the model call is aborted and the stream ends canceled', async () => {
    const stall = fake.stallNext();
    const client = await clientFor(owner);
    const stream = client.sendMessageStream({ tenant: '', message: userMessage('How long do refunds take?'), configuration: undefined, metadata: undefined });
    const first = await stream.next();
    const opened = !first.done && first.value.payload?.$case === 'task' ? first.value.payload.value : undefined;
    expect(opened?.status?.state).toBe(TaskState.TASK_STATE_WORKING);
    await stall.arrived;
    // Another caller cannot cancel it: its tasks are not theirs.
    await expect((await clientFor(member)).cancelTask({ tenant: '', id: opened!.id, metadata: undefined })).rejects.toThrow(/not found/i);
    const cancelled = await client.cancelTask({ tenant: '', id: opened!.id, metadata: undefined });
    expect(cancelled.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
    await stall.disconnected;
    const rest: StreamResponse[] = [];
    for await (const event of stream) rest.push(event);
    const last = rest.at(-1)?.payload;
    expect(last?.$case === 'statusUpdate' && last.value.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
  });

  it('speaks A2A 0.3 to a client that names no version: message/send, message/stream and tasks/get', async () => {
    fake.answer = 'Fourteen days [1].';
    const sent = await legacyCall(owner, agentId, 'message/send', legacyMessage('How long do refunds take?'));
    expect(sent.status).toBe(200);
    expect(sent.body.result).toMatchObject({ kind: 'task', status: { state: 'completed' } });
    const parts = sent.body.result.artifacts[0].parts;
    expect(parts[0]).toMatchObject({ kind: 'text', text: 'Fourteen days [1].' });
    expect(parts[1].kind).toBe('data');
    expect(parts[1].data.citations[0].document_id).toBe(documentId);

    const got = await legacyCall(owner, agentId, 'tasks/get', { id: sent.body.result.id });
    expect(got.body.result).toMatchObject({ id: sent.body.result.id, status: { state: 'completed' } });
    const foreign = await legacyCall(member, agentId, 'tasks/get', { id: sent.body.result.id });
    expect(foreign.body.error.code).toBe(-32001);
    // A finished task cannot be cancelled.
    expect((await legacyCall(owner, agentId, 'tasks/cancel', { id: sent.body.result.id })).body.error.code).toBe(-32002);

    const streamed = await fetch(endpoint(agentId), {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${owner.token}` },
      body: JSON.stringify({ jsonrpc: '2.0', id: 8, method: 'message/stream', params: legacyMessage('And the shipping costs?', sent.body.result.contextId) }),
    });
    expect(streamed.headers.get('content-type')).toContain('text/event-stream');
    const events = (await streamed.text())
      .split('\n\n')
      .filter((block) => block.startsWith('data: '))
      .map((block) => JSON.parse(block.slice('data: '.length)).result);
    expect(events[0]).toMatchObject({ kind: 'task', contextId: sent.body.result.contextId });
    expect(events.at(-1)).toMatchObject({ kind: 'status-update', final: true, status: { state: 'completed' } });
  });

  it('answers 401 with WWW-Authenticate: Bearer without a credential, for the card and the endpoint', async () => {
    const card = await fetch(`${endpoint(agentId)}/.well-known/agent-card.json`);
    expect(card.status).toBe(401);
    expect(card.headers.get('www-authenticate')).toBe('Bearer');
    const call = await legacyCall(undefined, agentId, 'message/send', legacyMessage('Hello'));
    expect(call.status).toBe(401);
    expect(call.headers.get('www-authenticate')).toBe('Bearer');
    expect(call.body.error.code).toBe('unauthenticated');
  });

  it('answers 403 feature_disabled while the organization’s a2a flag is off', async () => {
    const own = await createAgent(stranger);
    const card = await fetch(`${endpoint(own.id)}/.well-known/agent-card.json`, { headers: { authorization: `Bearer ${stranger.token}` } });
    expect(card.status).toBe(403);
    expect(((await card.json()) as any).error.code).toBe('feature_disabled');
    const call = await legacyCall(stranger, own.id, 'message/send', legacyMessage('Hello'));
    expect(call.status).toBe(403);
    expect(call.body.error.code).toBe('feature_disabled');
    await expect(clientFor(stranger, own.id)).rejects.toThrow(/403/);
  });

  it('does not find another organization’s agent, nor an agent of a team the caller is not in', async () => {
    expect((await owner.api.put('/api/v2/feature-flags/a2a', { enabled: true })).status).toBe(200);
    expect((await stranger.api.put('/api/v2/feature-flags/a2a', { enabled: true })).status).toBe(200);
    const call = await legacyCall(stranger, agentId, 'message/send', legacyMessage('Hello'));
    expect(call.status).toBe(404);
    expect(call.body.error.code).toBe('not_found');
    expect(JSON.stringify(call.body)).not.toContain('Refunds desk');
    await expect(clientFor(stranger)).rejects.toThrow(/404/);

    const team = await createTeam(owner, { name: `A2A closed ${kind}` });
    const closed = await createAgent(owner, { team_id: team.id, alias: `closed-${kind}` });
    await expect(clientFor(member, closed.id)).rejects.toThrow(/404/);
    await expect(clientFor(member, `closed-${kind}`)).rejects.toThrow(/404/);
    expect((await legacyCall(member, closed.id, 'message/send', legacyMessage('Hello'))).status).toBe(404);
    await addTeammate(owner, team.id, member, 'viewer');
    expect((await (await clientFor(member, `closed-${kind}`)).getAgentCard()).name).toBe(closed.name);
  });
});

describe('the A2A door’s own pieces', () => {
  const contextOf = (userId: number, agentId = 1) => {
    const actor: Actor = { userId, organizationId: 1, email: `u${userId}@example.com`, role: 'member', credential: { kind: 'api_key', id: userId } };
    return newCallContext(new A2aCaller(actor, agentId), undefined, new AbortController().signal);
  };
  const taskOf = (id: string): Task => ({ id, contextId: '1', status: undefined, artifacts: [], history: [], metadata: undefined });

  it('keeps tasks for their owner only, at most so many and for so long', async () => {
    let clock = 0;
    const store = new TransientTaskStore({ maxTasks: 2, maxAgeMs: 1000 }, () => clock);
    const mine = contextOf(1);
    await store.save(taskOf('a'), mine);
    expect((await store.load('a', mine))?.id).toBe('a');
    expect(await store.load('a', contextOf(2))).toBeUndefined();
    expect(await store.load('a', contextOf(1, 2))).toBeUndefined();

    await store.save(taskOf('b'), mine);
    await store.save(taskOf('c'), mine);
    expect(await store.load('a', mine)).toBeUndefined();
    expect((await store.load('c', mine))?.id).toBe('c');

    clock = 1001;
    expect(await store.load('b', mine)).toBeUndefined();
    expect(await store.load('c', mine)).toBeUndefined();
  });

  it('gathers a streamed answer into chunks that grow with it: few, and whole once joined', () => {
    const sent: string[] = [];
    const chunks = new AnswerChunks((text) => sent.push(text));
    const answer = 'x'.repeat(40_000);
    for (const character of answer) chunks.push(character);
    chunks.flush();
    expect(sent.join('')).toBe(answer);
    expect(sent[0]).toBe('x');
    expect(sent.length).toBeLessThan(300);
    expect(Math.max(...sent.map((chunk) => chunk.length))).toBeLessThanOrEqual(256);
  });
});
