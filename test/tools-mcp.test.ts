// MCP servers as tools, end to end: loopback MCP servers made with the official SDK (Streamable HTTP,
// and the older HTTP+SSE transport for the fallback), added as tools of an organization (their tools
// listed, headers and secret sealed and never read back), refreshed, test-run, and called by an agent
// whose fake model asks for the calls — within the tool deadline and byte cap, through the egress rules.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { restartTestApp, startTestApp, type TestApp } from './support/app.js';
import { agentWith, createModelConfiguration } from './support/ask.js';
import { databaseKinds } from './support/databases.js';
import { createOrganization, createUser, type TestUser } from './support/factories.js';
import { startFakeOpenAi, type FakeLlmServer } from './support/fake-openai.js';
import { startSseMcpServer, startStreamableMcpServer, type FakeMcpServer } from './support/fake-mcp.js';
import { client } from './support/http.js';
import { startListener, type Listener } from './support/listeners.js';

const SECRET = 'mcp-bearer-0123456789abcdef';
const WORKSPACE_KEY = 'workspace-key-fedcba9876543210';
/** Small enough that a hanging tool fails the test quickly, large enough for loopback listings. */
const TOOL_TIMEOUT_MS = 1500;
const TOOL_RESPONSE_BYTES = 16_384;

describe.each(databaseKinds)('MCP server tools (%s)', (kind) => {
  let t: TestApp;
  let fake: FakeLlmServer;
  let streamable: FakeMcpServer;
  let sse: FakeMcpServer;
  let internal: Listener;
  let redirector: Listener;
  let owner: TestUser;
  let member: TestUser;
  let stranger: TestUser;
  let path: string;
  let configurationId: number;
  let sequence = 0;
  const nextName = (prefix = 'mcp') => `${prefix}_${++sequence}`;

  beforeAll(async () => {
    [fake, streamable, sse, internal] = await Promise.all([startFakeOpenAi(), startStreamableMcpServer(), startSseMcpServer(), startListener()]);
    // An allowed server that sends every request on to the internal listener.
    redirector = await startListener((_request, response) => response.writeHead(307, { location: `${internal.origin}/mcp` }).end());
    t = await startTestApp(kind, {
      EGRESS_ALLOWED_HOSTS: [fake.host, streamable.host, sse.host, `127.0.0.1:${redirector.port}`].join(','),
      LIMIT_TOOL_TIMEOUT_MS: String(TOOL_TIMEOUT_MS),
      LIMIT_TOOL_RESPONSE_BYTES: String(TOOL_RESPONSE_BYTES),
    });
    const orgId = await createOrganization(t.app);
    owner = await createUser(t.app, { organizationId: orgId, role: 'owner' });
    member = await createUser(t.app, { organizationId: orgId, role: 'member' });
    stranger = await createUser(t.app, { organizationId: await createOrganization(t.app), role: 'owner' });
    path = `/api/v2/organizations/${orgId}/tools`;
    expect((await owner.api.put('/api/v2/feature-flags/api-tools', { enabled: true })).status).toBe(200);
    configurationId = (await createModelConfiguration(owner, fake)).id;
  });
  afterAll(async () => {
    await t?.close();
    await Promise.all([fake?.close(), streamable?.close(), sse?.close(), internal?.close(), redirector?.close()]);
  });

  const addMcp = async (config: Record<string, unknown>, extra: Record<string, unknown> = {}) => {
    const reply = await owner.api.post(`${path}/mcp`, { name: nextName(), config, ...extra });
    expect(reply.status, reply.text).toBe(201);
    return reply.body.data as Record<string, any>;
  };
  const pointersOf = (reply: { body: any }) => reply.body.error.details.map((detail: { pointer: string }) => detail.pointer);

  it('adds a server over Streamable HTTP: its tools listed, headers and secret sealed and never read back', async () => {
    const made = await addMcp({ url: streamable.url, headers: { 'X-Workspace': WORKSPACE_KEY }, tools: ['echo', 'forecast'] }, { secret: SECRET });
    expect(made).toMatchObject({ kind: 'mcp', description: 'The tools of an MCP server', secret_hint: expect.any(String) });
    expect(made.config).toEqual({ url: streamable.url, headers: { 'X-Workspace': '****' }, tools: ['echo', 'forecast'] });
    expect(made.remote_tools.transport).toBe('streamable_http');
    const listed = made.remote_tools.tools.map((tool: any) => tool.name);
    expect(listed).toEqual(expect.arrayContaining(['echo', 'forecast', 'picture', 'failing', 'hang', 'large', 'request_headers', 'strict']));
    const echo = made.remote_tools.tools.find((tool: any) => tool.name === 'echo');
    expect(echo).toMatchObject({ description: 'Says the text back', problem: null, function_name: `${made.name}__echo` });
    expect(echo.input_schema).toMatchObject({ type: 'object', properties: { text: { type: 'string' } }, required: ['text'] });
    expect(echo.input_schema.$schema).toBeUndefined();
    expect(made.remote_tools.tools.find((tool: any) => tool.name === 'picture').function_name).toBeNull();
    // The lookahead RE2 cannot run: listed with the reason, never offered.
    expect(made.remote_tools.tools.find((tool: any) => tool.name === 'strict').problem).toMatch(/pattern/);
    // The server was asked with the credentials.
    expect(streamable.requests.at(-1)).toMatchObject({ authorization: `Bearer ${SECRET}`, 'x-workspace': WORKSPACE_KEY });

    const reads = [await owner.api.get(`${path}/${made.id}`), await owner.api.get(path), await member.api.get(`${path}/${made.id}`), await owner.api.get('/api/tools/')];
    for (const read of reads) {
      expect(read.status).toBe(200);
      expect(read.text).not.toContain(SECRET);
      expect(read.text).not.toContain(WORKSPACE_KEY);
    }
    expect(Object.keys(reads[2]!.body.data).sort()).toEqual(['description', 'enabled', 'id', 'kind', 'name']);
    const row = await t.app.database.db.selectFrom('tools').selectAll().where('id', '=', made.id).executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain(SECRET);
    expect(JSON.stringify(row)).not.toContain(WORKSPACE_KEY);
  });

  it('refuses chosen tools the server does not list or agents cannot be given, and settings that are not whole', async () => {
    const before = (await owner.api.get(path)).body.data.total;
    const unknown = await owner.api.post(`${path}/mcp`, { name: nextName(), config: { url: streamable.url, tools: ['echo', 'launch_rockets', 'strict'] } });
    expect(unknown.status).toBe(400);
    expect(pointersOf(unknown)).toEqual(['/body/config/tools/1', '/body/config/tools/2']);
    expect(unknown.body.error.details[1].message).toMatch(/pattern/);
    const neither = await owner.api.post(`${path}/mcp`, { name: nextName(), config: { tools: ['echo'] } });
    expect(pointersOf(neither)).toEqual(['/body/config']);
    const reserved = await owner.api.post(`${path}/mcp`, { name: nextName(), config: { url: streamable.url, headers: { 'Mcp-Session-Id': 'x' } } });
    expect(pointersOf(reserved)).toEqual(['/body/config/headers/Mcp-Session-Id']);
    const local = await owner.api.post(`${path}/mcp`, { name: nextName(), config: { command: 'node', args: ['server.js'] } });
    expect(local.status).toBe(400);
    expect(pointersOf(local)).toEqual(['/body/config/command']);
    expect((await owner.api.get(path)).body.data.total).toBe(before);
  });

  it('falls back to the older HTTP+SSE transport in auto mode, and not when Streamable HTTP is asked for', async () => {
    const made = await addMcp({ url: sse.url, tools: ['forecast'] });
    expect(made.remote_tools.transport).toBe('sse');
    expect(made.remote_tools.tools.map((tool: any) => tool.name)).toContain('forecast');
    const tested = await owner.api.post(`${path}/${made.id}/test`, { input: { city: 'Brest' } });
    expect(tested.body.data).toMatchObject({ status: 'ok', output: 'Sunny in Brest\n21 degrees', error: null });
    expect(sse.calls).toContain('forecast');

    const strict = await owner.api.post(`${path}/mcp`, { name: nextName(), config: { url: sse.url, transport: 'streamable_http' } });
    expect(strict.status, strict.text).toBe(502);
    expect(strict.body.error.code).toBe('upstream_error');
  });

  it('refuses a server at an address the egress rules refuse, or redirecting to one, and the listener receives nothing', async () => {
    const refused = await owner.api.post(`${path}/mcp`, { name: nextName(), config: { url: `${internal.origin}/mcp` } });
    expect(refused.status).toBe(400);
    expect(pointersOf(refused)).toEqual(['/body/config/url']);
    const metadata = await owner.api.post(`${path}/mcp`, { name: nextName(), config: { url: 'http://169.254.169.254/mcp' } });
    expect(pointersOf(metadata)).toEqual(['/body/config/url']);
    const redirected = await owner.api.post(`${path}/mcp`, { name: nextName(), config: { url: `${redirector.origin}/mcp` } });
    expect(redirected.status, redirected.text).toBe(400);
    expect(redirected.body.message).toMatch(/Refused to fetch/);
    expect(redirector.requests.length).toBeGreaterThan(0);
    expect(internal.connections()).toBe(0);
  });

  it('gives an agent the chosen tools as functions, runs the call its model asks for, and answers with the result', async () => {
    const made = await addMcp({ url: streamable.url, tools: ['forecast', 'echo'] });
    const agent = await agentWith(owner, [], { llm_configuration_id: configurationId, tool_ids: [made.id] });
    fake.toolCallNext(`${made.name}__forecast`, { city: 'Paris' });
    fake.answer = 'It is sunny in Paris.';
    const before = fake.chatRequests().length;
    const reply = await owner.api.post(`/api/v2/agents/${agent.id}/responses`, { query: 'Weather in Paris?' });

    expect(reply.status, reply.text).toBe(201);
    expect(reply.body.data).toMatchObject({ status: 'completed', answer: 'It is sunny in Paris.' });
    expect(reply.body.data.tool_calls).toEqual([expect.objectContaining({ tool_id: made.id, name: `${made.name}__forecast`, input: { city: 'Paris' }, status: 'ok', output: 'Sunny in Paris\n21 degrees' })]);
    const [first, second] = fake.chatRequests().slice(before);
    const offered = first!.body.tools.map((tool: any) => tool.function);
    expect(offered.map((tool: any) => tool.name)).toEqual([`${made.name}__forecast`, `${made.name}__echo`]);
    expect(offered[0].description).toBe('The weather forecast of a city');
    expect(offered[0].parameters).toMatchObject({ type: 'object', properties: { city: { type: 'string', minLength: 1 } } });
    expect(second!.body.messages.at(-1)).toMatchObject({ role: 'tool', content: 'Sunny in Paris\n21 degrees' });
  });

  it('tells the model what failed: an isError answer, a hanging tool past the deadline, an answer over the byte cap', async () => {
    const made = await addMcp({ url: streamable.url, tools: ['failing', 'hang', 'large', 'picture'] });
    const agent = await agentWith(owner, [], { llm_configuration_id: configurationId, tool_ids: [made.id] });
    fake.toolCallNext(`${made.name}__failing`, {});
    fake.toolCallNext(`${made.name}__hang`, {});
    fake.toolCallNext(`${made.name}__large`, {});
    fake.toolCallNext(`${made.name}__picture`, {});
    fake.answer = 'Some of it failed.';
    const reply = await owner.api.post(`/api/v2/agents/${agent.id}/responses`, { query: 'Try everything.' });
    await streamable.hangStarted;

    expect(reply.status, reply.text).toBe(201);
    const calls = reply.body.data.tool_calls as Record<string, any>[];
    expect(calls.map((call) => [call.name, call.status])).toEqual([
      [`${made.name}__failing`, 'error'],
      [`${made.name}__hang`, 'error'],
      [`${made.name}__large`, 'error'],
      [`${made.name}__picture`, 'ok'],
    ]);
    expect(calls[0]!.output).toBe('The MCP tool answered with an error: ticket 42 does not exist');
    expect(calls[1]!.output).toContain(`did not answer within ${TOOL_TIMEOUT_MS} ms`);
    expect(calls[2]!.output).toContain(`larger than the limit of ${TOOL_RESPONSE_BYTES} bytes`);
    expect(calls[3]!.output).toBe('(image content of type image/png, 16 bytes, not shown)\nA lighthouse');
  });

  it('takes the secret and header values out of what the server answers', async () => {
    const made = await addMcp({ url: streamable.url, headers: { 'X-Workspace': WORKSPACE_KEY }, tools: ['request_headers'] }, { secret: SECRET });
    const tested = await owner.api.post(`${path}/${made.id}/test`, { input: {} });
    expect(tested.status, tested.text).toBe(200);
    expect(tested.body.data.status).toBe('ok');
    expect(tested.body.data.output).toBe('{"authorization":"Bearer [REDACTED]","workspace":"[REDACTED]"}');
  });

  it('keeps a header sent back as **** on update, lists again, and refreshes the list on demand', async () => {
    const made = await addMcp({ url: streamable.url, headers: { 'X-Workspace': WORKSPACE_KEY }, tools: ['echo'] });
    const updated = await owner.api.put(`${path}/${made.id}`, { config: { ...made.config, tools: ['echo', 'request_headers'] } });
    expect(updated.status, updated.text).toBe(200);
    expect(updated.body.data.config.headers).toEqual({ 'X-Workspace': '****' });
    const tested = await owner.api.post(`${path}/${made.id}/test`, { remote_tool: 'request_headers', input: {} });
    expect(tested.body.data.output).toContain('"workspace":"[REDACTED]"');
    expect(streamable.requests.at(-1)!['x-workspace']).toBe(WORKSPACE_KEY);
    const unknownHeader = await owner.api.put(`${path}/${made.id}`, { config: { url: streamable.url, headers: { 'X-Other': '****' } } });
    expect(pointersOf(unknownHeader)).toEqual(['/body/config/headers/X-Other']);

    streamable.extraTools.push('summarize');
    const chosen = await owner.api.put(`${path}/${made.id}`, { config: { ...made.config, tools: ['echo', 'gone_soon'] } });
    expect(pointersOf(chosen)).toEqual(['/body/config/tools/1']);
    const refreshed = await owner.api.post(`${path}/${made.id}/refresh`);
    expect(refreshed.status, refreshed.text).toBe(200);
    expect(refreshed.body.data.remote_tools.tools.map((tool: any) => tool.name)).toContain('summarize');
    expect(Date.parse(refreshed.body.data.remote_tools.listed_on)).toBeGreaterThanOrEqual(Date.parse(made.remote_tools.listed_on));
    streamable.extraTools.length = 0;
  });

  it('test-runs one remote tool by name, and refuses a run that does not name one', async () => {
    const made = await addMcp({ url: streamable.url, tools: ['echo', 'forecast'] });
    const ran = await owner.api.post(`${path}/${made.id}/test`, { remote_tool: 'echo', input: { text: 'hello' } });
    expect(ran.body.data).toMatchObject({ status: 'ok', output: 'echo: hello', http_status: null, request: null });
    const unnamed = await owner.api.post(`${path}/${made.id}/test`, { input: { text: 'hello' } });
    expect(pointersOf(unnamed)).toEqual(['/body/remote_tool']);
    const notOffered = await owner.api.post(`${path}/${made.id}/test`, { remote_tool: 'picture', input: {} });
    expect(pointersOf(notOffered)).toEqual(['/body/remote_tool']);
    const badInput = await owner.api.post(`${path}/${made.id}/test`, { remote_tool: 'echo', input: { text: 5 } });
    expect(pointersOf(badInput)).toEqual(['/body/input/text']);
  });

  it('is 404 to another organization, 403 to members, and behind the api-tools flag', async () => {
    const made = await addMcp({ url: streamable.url, tools: ['echo'] });
    const theirs = `/api/v2/organizations/${owner.organizationId}/tools/${made.id}`;
    for (const reply of [await stranger.api.get(theirs), await stranger.api.post(`${theirs}/refresh`), await stranger.api.post(`${theirs}/test`, { input: {} })]) {
      expect(reply.status).toBe(404);
    }
    const ownPath = `/api/v2/organizations/${stranger.organizationId}/tools/${made.id}`;
    expect((await stranger.api.post(`${ownPath}/refresh`)).status).toBe(404);
    expect((await member.api.post(`${path}/mcp`, { name: nextName(), config: { url: streamable.url } })).status).toBe(403);
    expect((await member.api.post(`${path}/${made.id}/refresh`)).status).toBe(403);

    const other = await createUser(t.app, { organizationId: await createOrganization(t.app), role: 'owner' });
    const flagged = await other.api.post(`/api/v2/organizations/${other.organizationId}/tools/mcp`, { name: 'tickets', config: { url: streamable.url } });
    expect(flagged.status).toBe(403);
    expect(flagged.body.error.code).toBe('feature_disabled');
    const retrieval = await owner.api.post(`${path}/attachment`, { name: nextName('files'), config: {} });
    expect((await owner.api.post(`${path}/${retrieval.body.data.id}/refresh`)).status).toBe(400);
  });

  // Last: it restarts the app with another allow-list.
  it('refuses a call at an address no longer allowed, and the server receives nothing of it', async () => {
    const made = await addMcp({ url: streamable.url, tools: ['echo'] });
    t = await restartTestApp(t, { EGRESS_ALLOWED_HOSTS: fake.host, LIMIT_TOOL_TIMEOUT_MS: String(TOOL_TIMEOUT_MS) });
    const before = streamable.requests.length;
    const tested = await client(t.app, owner.token).post(`${path}/${made.id}/test`, { remote_tool: 'echo', input: { text: 'hi' } });
    expect(tested.status, tested.text).toBe(200);
    expect(tested.body.data).toMatchObject({ status: 'error', error: expect.stringMatching(/^The call was refused: Refused to fetch http:\/\/127\.0\.0\.1:\d+\/mcp/) });
    expect(streamable.requests.length).toBe(before);
  });
});
