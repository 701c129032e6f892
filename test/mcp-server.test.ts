// The MCP server at /mcp (API.md §9, docs/mcp.md), driven by the official SDK's client over real HTTP
// to the app listening on loopback: tools and resources listed, an agent asked through the one asking
// pipeline (a fake model, citations of a corpus's document, the response stored), a corpus searched;
// every call is the caller's own, so a corpus without a grant and another organization's agent give
// nothing. Then what is refused before MCP is spoken: no credential, the session cookie, a foreign
// Origin or Host.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CallToolResultSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { OWNER_EMAIL, OWNER_PASSWORD, startTestApp, type TestApp } from './support/app.js';
import { agentWith, corpusWith, createModelConfiguration } from './support/ask.js';
import { databaseKinds } from './support/databases.js';
import { createAgent, createOrganization, createUser, type TestUser } from './support/factories.js';
import { startFakeOpenAi, type FakeLlmServer } from './support/fake-openai.js';
import { request } from './support/http.js';

const HANDBOOK = 'The travel handbook says that train tickets are refunded within thirty days when the journey is cancelled.';

interface AskOutput {
  answer: string;
  citations: { index: number; document_id: number; source: string; corpus_id: number; text: string }[];
  thread_id: number;
  response_id: number;
}

describe.each(databaseKinds)('the MCP server (%s)', (kind) => {
  let t: TestApp;
  let fake: FakeLlmServer;
  let url: URL;
  let owner: TestUser;
  let member: TestUser;
  let stranger: TestUser;
  let corpusId: number;
  let documentId: number;
  let agent: { id: number; name: string };
  const clients: Client[] = [];

  async function connect(user: TestUser): Promise<Client> {
    const client = new Client({ name: 'mcp-server-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers: { Authorization: `Bearer ${user.token}` } } }));
    clients.push(client);
    return client;
  }
  const call = async (client: Client, name: string, args: Record<string, unknown>) => (await client.callTool({ name, arguments: args })) as CallToolResult;
  const textOf = (result: CallToolResult) => result.content.map((part) => (part.type === 'text' ? part.text : '')).join('');

  beforeAll(async () => {
    fake = await startFakeOpenAi();
    t = await startTestApp(kind, { EGRESS_ALLOWED_HOSTS: fake.host });
    url = new URL(`${await t.app.listen({ host: '127.0.0.1', port: 0 })}/mcp`);
    owner = await createUser(t.app, { role: 'owner' });
    member = await createUser(t.app, { role: 'member' });
    stranger = await createUser(t.app, { organizationId: await createOrganization(t.app), role: 'owner' });
    expect((await owner.api.put('/api/v2/feature-flags/agent-alias', { enabled: true })).status).toBe(200);
    const configuration = await createModelConfiguration(owner, fake, { input_price_per_million: 1, output_price_per_million: 2 });
    const corpus = await corpusWith(owner, [HANDBOOK]);
    corpusId = corpus.corpusId;
    documentId = corpus.documentIds[0]!;
    agent = await agentWith(owner, [corpusId], { name: `Travel desk ${kind}`, alias: `travel-${kind}`, llm_configuration_id: configuration.id, status: 'active' });
  });
  afterAll(async () => {
    for (const client of clients) await client.close();
    await t.close();
    await fake.close();
  });
  beforeEach(() => {
    fake.answer = 'Train tickets are refunded within thirty days [1].';
    fake.chunks = undefined;
  });

  it('lists its two tools, with their input and output schemas', async () => {
    const client = await connect(owner);
    expect(client.getServerVersion()).toMatchObject({ name: 'agent-platform' });
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(['ask_agent', 'search_corpus']);
    const ask = tools.find((tool) => tool.name === 'ask_agent')!;
    expect(ask.inputSchema.required).toEqual(expect.arrayContaining(['agent', 'question']));
    expect(Object.keys(ask.outputSchema!.properties!)).toEqual(['answer', 'citations', 'thread_id', 'response_id']);
  });

  it('asks an agent named by alias: the answer with its sources by file name, its citations, the stored response', async () => {
    const client = await connect(owner);
    const result = await call(client, 'ask_agent', { agent: `travel-${kind}`, question: 'When are train tickets refunded?' });
    expect(result.isError).toBeFalsy();
    const output = result.structuredContent as unknown as AskOutput;
    expect(output.answer).toBe('Train tickets are refunded within thirty days [1].');
    expect(output.citations).toEqual([{ index: 1, document_id: documentId, source: expect.any(String), corpus_id: corpusId, text: expect.stringContaining('thirty days') }]);
    expect(textOf(result)).toBe(`${output.answer}\n\nSources:\n[1] ${output.citations[0]!.source}`);

    const stored = (await owner.api.get(`/api/v2/responses/${output.response_id}`)).body.data;
    expect(stored).toMatchObject({ id: output.response_id, thread_id: output.thread_id, agent_id: agent.id, status: 'completed', created_by: owner.email });
    expect(stored.cost).toBeGreaterThan(0);
  });

  it('continues a thread, and names an agent by id or by name', async () => {
    const client = await connect(owner);
    const first = (await call(client, 'ask_agent', { agent: agent.id, question: 'When are train tickets refunded?' })).structuredContent as unknown as AskOutput;
    fake.answer = 'Yes, within thirty days.';
    const before = fake.chatRequests().length;
    const second = await call(client, 'ask_agent', { agent: agent.name.toUpperCase(), question: 'Even for night trains?', thread_id: first.thread_id });
    expect((second.structuredContent as unknown as AskOutput).thread_id).toBe(first.thread_id);
    const sent = JSON.stringify(fake.chatRequests()[before]!.body);
    expect(sent).toContain('When are train tickets refunded?');
    expect(sent).toContain('Train tickets are refunded within thirty days');
  });

  it('streams the answer as Server-Sent Events, with progress for a client that asks for it', async () => {
    fake.chunks = ['Train tickets ', 'are refunded ', 'within thirty days [1].'];
    const client = await connect(owner);
    const progress: number[] = [];
    const result = await client.callTool({ name: 'ask_agent', arguments: { agent: `travel-${kind}`, question: 'Refunds?' } }, CallToolResultSchema, {
      onprogress: (notification) => progress.push(notification.progress),
    });
    expect((result.structuredContent as unknown as AskOutput).answer).toBe('Train tickets are refunded within thirty days [1].');
    expect(progress.length).toBeGreaterThan(0);
    expect(progress.at(-1)).toBe('Train tickets are refunded within thirty days [1].'.length);

    const raw = await fetch(url, {
      method: 'POST',
      headers: { authorization: `Bearer ${member.token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/list', params: {} }),
    });
    expect(raw.status).toBe(200);
    expect(raw.headers.get('content-type')).toContain('text/event-stream');
    expect(raw.headers.get('x-request-id')).toBeTruthy();
    const data = (await raw.text()).split('\n').find((line) => line.startsWith('data: '))!;
    expect(JSON.parse(data.slice(6))).toMatchObject({ jsonrpc: '2.0', id: 7, result: { tools: expect.any(Array) } });
  });

  it('answers a guardrail’s refusal and an unknown agent as tool errors, not protocol errors', async () => {
    const rule = { name: 'No competitors', type: 'blocked_terms', stages: ['input'], action: 'block', config: { terms: ['acme corp'] } };
    const guardrail = await owner.api.post('/api/v2/guardrails', rule);
    expect(guardrail.status).toBe(201);
    const guarded = await createAgent(owner, { guardrail_ids: [guardrail.body.data.id] });
    const client = await connect(owner);
    const before = fake.chatRequests().length;
    const blocked = await call(client, 'ask_agent', { agent: guarded.id, question: 'How do you compare with ACME Corp?' });
    expect(blocked.isError).toBe(true);
    expect(textOf(blocked)).toContain('No competitors');
    expect(fake.chatRequests().length).toBe(before);

    const unknown = await call(client, 'ask_agent', { agent: 'no-such-agent', question: 'Hello?' });
    expect(unknown).toMatchObject({ isError: true });
    expect(textOf(unknown)).toMatch(/not found/);
    const badThread = await call(client, 'ask_agent', { agent: agent.id, question: 'Hello?', thread_id: 999_999 });
    expect(textOf(badThread)).toBe('Thread 999999 not found');
  });

  it('searches a corpus named by id or name, through the retrieval service', async () => {
    const client = await connect(owner);
    const result = await call(client, 'search_corpus', { corpus: corpusId, query: 'train tickets refunded', limit: 3 });
    expect(result.isError).toBeFalsy();
    const output = result.structuredContent as { corpus_id: number; retrieval_mode: string; passages: { document_id: number; score: number; text: string }[] };
    expect(output.corpus_id).toBe(corpusId);
    expect(output.retrieval_mode).toBe('full_text');
    expect(output.passages[0]).toMatchObject({ document_id: documentId, text: expect.stringContaining('thirty days') });
    expect(textOf(result)).toContain('thirty days');

    const corpus = (await owner.api.get(`/api/v2/corpora/${corpusId}`)).body.data;
    const byName = await call(client, 'search_corpus', { corpus: corpus.name, query: 'train' });
    expect((byName.structuredContent as { corpus_id: number }).corpus_id).toBe(corpusId);
  });

  it('lists and reads the agents and corpora the caller may see', async () => {
    const client = await connect(owner);
    const { resources } = await client.listResources();
    const agentUri = `agent-platform://agents/${agent.id}`;
    const corpusUri = `agent-platform://corpora/${corpusId}`;
    expect(resources).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ uri: agentUri, name: `travel-${kind}`, title: agent.name, mimeType: 'application/json' }),
        expect.objectContaining({ uri: corpusUri, mimeType: 'application/json' }),
      ]),
    );
    const read = await client.readResource({ uri: agentUri });
    expect(JSON.parse((read.contents[0] as { text: string }).text)).toMatchObject({ id: agent.id, name: agent.name, alias: `travel-${kind}` });
    const corpus = await client.readResource({ uri: corpusUri });
    expect(JSON.parse((corpus.contents[0] as { text: string }).text)).toMatchObject({ id: corpusId });
  });

  it('gives a caller without a grant on a corpus nothing of it: no search, no resource, no passage in an answer', async () => {
    const client = await connect(member);
    const search = await call(client, 'search_corpus', { corpus: corpusId, query: 'train tickets refunded' });
    expect(search.isError).toBe(true);
    expect(textOf(search)).toBe(`Corpus ${corpusId} not found`);
    expect(JSON.stringify(search)).not.toContain('thirty days');
    const api = await member.api.post(`/api/v2/corpora/${corpusId}/search`, { query: 'train tickets refunded' });
    expect(api.status).toBe(404);

    const { resources } = await client.listResources();
    expect(resources.map((resource) => resource.uri)).not.toContain(`agent-platform://corpora/${corpusId}`);
    await expect(client.readResource({ uri: `agent-platform://corpora/${corpusId}` })).rejects.toThrow(`Corpus ${corpusId} not found`);

    const before = fake.chatRequests().length;
    const answer = await call(client, 'ask_agent', { agent: agent.id, question: 'When are train tickets refunded?' });
    expect((answer.structuredContent as unknown as AskOutput).citations).toEqual([]);
    expect(JSON.stringify(fake.chatRequests()[before]!.body)).not.toContain('thirty days');
  });

  it('does not reach another organization’s agents or corpora', async () => {
    const client = await connect(stranger);
    for (const reference of [agent.id, `travel-${kind}`, agent.name, `agent-${agent.id}`]) {
      const result = await call(client, 'ask_agent', { agent: reference, question: 'When are train tickets refunded?' });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toMatch(/not found/);
    }
    const { resources } = await client.listResources();
    expect(resources.map((resource) => resource.uri)).not.toContain(`agent-platform://agents/${agent.id}`);
    await expect(client.readResource({ uri: `agent-platform://agents/${agent.id}` })).rejects.toThrow(`Agent ${agent.id} not found`);
    expect((await call(client, 'search_corpus', { corpus: corpusId, query: 'train' })).isError).toBe(true);
  });

  describe('refusals before MCP is spoken', () => {
    const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'probe', version: '1' } } };
    const post = (headers: Record<string, string>) =>
      request(t.app, 'POST', '/mcp', initialize, { headers: { host: url.host, accept: 'application/json, text/event-stream', ...headers } });

    it('answers 401 with WWW-Authenticate: Bearer without a credential, and advertises no protected-resource metadata', async () => {
      const reply = await post({});
      expect(reply.status).toBe(401);
      expect(reply.headers['www-authenticate']).toBe('Bearer');
      expect(reply.body.error.code).toBe('unauthenticated');
      expect((await request(t.app, 'GET', '/.well-known/oauth-protected-resource')).status).toBe(404);
      expect((await post({ authorization: 'Bearer ap_key_not_a_real_one' })).status).toBe(401);
    });

    it('refuses the session cookie, which authenticates the API', async () => {
      const login = await request(t.app, 'POST', '/api/v2/auth/login', { email: OWNER_EMAIL, password: OWNER_PASSWORD, session: 'cookie' });
      const cookies = ([] as string[]).concat(login.headers['set-cookie'] as string | string[]).map((line) => line.split(';')[0]!);
      const cookie = cookies.join('; ');
      const csrf = cookies.find((line) => line.startsWith('ap_csrf='))!.slice('ap_csrf='.length);
      expect((await request(t.app, 'GET', '/api/v2/agents', undefined, { headers: { cookie } })).status).toBe(200);
      const reply = await post({ cookie, 'x-csrf-token': csrf });
      expect(reply.status).toBe(401);
      expect(reply.body.message).toContain('session cookie does not authenticate /mcp');
    });

    it('refuses a foreign Origin and a Host that is not the server’s, and takes a request without Origin', async () => {
      const authorization = `Bearer ${owner.token}`;
      expect((await post({ authorization, origin: 'https://evil.example.com' })).status).toBe(403);
      expect((await post({ authorization, origin: 'null' })).status).toBe(403);
      expect((await post({ authorization, host: 'evil.example.com' })).status).toBe(403);
      expect((await post({ authorization, host: 'evil.example.com', origin: 'http://evil.example.com' })).status).toBe(403);
      expect((await post({ authorization, origin: `http://${url.host}` })).status).toBe(200);
      expect((await post({ authorization })).status).toBe(200);
    });

    it('answers a body that is not JSON with JSON-RPC’s parse error, and changes nothing', async () => {
      const headers = { host: url.host, authorization: `Bearer ${owner.token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
      for (const raw of ['{"jsonrpc": "2.0", "method": ', '[' .repeat(100) + ']'.repeat(100)]) {
        const reply = await request(t.app, 'POST', '/mcp', undefined, { headers, raw });
        expect(reply.status).toBe(400);
        expect(reply.body).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32700, message: expect.stringMatching(/^Parse error: /) } });
      }
      // The API's own routes keep their envelope.
      const api = await request(t.app, 'POST', '/api/v2/agents', undefined, { headers: { authorization: `Bearer ${owner.token}`, 'content-type': 'application/json' }, raw: '{"name": ' });
      expect(api.status).toBe(400);
      expect(api.body).toMatchObject({ success: false, error: { code: 'bad_request' } });
    });

    it('answers GET and DELETE with 405, as a stateless server does', async () => {
      for (const method of ['GET', 'DELETE']) {
        const reply = await request(t.app, method, '/mcp', undefined, { headers: { host: url.host, authorization: `Bearer ${owner.token}` } });
        expect(reply.status).toBe(405);
        expect(reply.headers.allow).toBe('POST');
      }
    });
  });
});

describe.each(databaseKinds)('the MCP server’s rate limit (%s)', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(kind, { LIMIT_REQUESTS_PER_MINUTE: '2' });
  });
  afterAll(() => t.close());

  it('counts each POST in the credential’s bucket, shared with its API calls', async () => {
    const user = await createUser(t.app, { role: 'member' });
    const ping = () =>
      request(t.app, 'POST', '/mcp', { jsonrpc: '2.0', id: 1, method: 'ping' }, { token: user.token, headers: { accept: 'application/json, text/event-stream' } });
    expect((await ping()).status).toBe(200);
    expect((await user.api.get('/api/v2/agents')).status).toBe(200);
    const limited = await ping();
    expect(limited.status).toBe(429);
    expect(limited.headers['retry-after']).toBeTruthy();
  });
});
