// An API tool's secret stays with the service it was given for, over HTTP on both databases: URL
// templates the URL parser would read otherwise (and so send the secret to a host the model
// chooses) refused when saved and imported, with nothing received; header names with line breaks
// refused; a whole parameter that is a reference to another file refused on import; path values
// that climb the tool's path refused at the call; and a service that echoes its request (headers and
// query) leaves the secret nowhere: not in the test run, the model's context, the answer, the stored
// response and its row, nor the chat-log export.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './support/app.js';
import { agentWith, createModelConfiguration } from './support/ask.js';
import { databaseKinds } from './support/databases.js';
import { createUser, type TestUser } from './support/factories.js';
import { startFakeOpenAi, type FakeLlmServer } from './support/fake-openai.js';
import { startListener, type Listener } from './support/listeners.js';

const SECRET = 'echo-secret+4f2a/"quoted" 9';
/** The secret in each form it is sent or echoed in. */
const FORMS = [SECRET, encodeURIComponent(SECRET), new URLSearchParams({ s: SECRET }).toString().slice(2), JSON.stringify(SECRET).slice(1, -1), 'echo-secret'];
const PARAMETERS = { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] };

describe.each(databaseKinds)('API tool secrets and URLs (%s)', (kind) => {
  let t: TestApp;
  let echo: Listener;
  let fake: FakeLlmServer;
  let owner: TestUser;
  let path: string;
  let sequence = 0;

  beforeAll(async () => {
    // Answers with all it received: the URL (query included) and every header.
    echo = await startListener((request, response, body) => {
      response.writeHead(200, { 'content-type': 'application/json', 'x-echo-authorization': String(request.headers.authorization ?? '') });
      response.end(JSON.stringify({ url: request.url, headers: request.headers, body: body.toString('utf8') }));
    });
    fake = await startFakeOpenAi();
    t = await startTestApp(kind, { EGRESS_ALLOWED_HOSTS: `127.0.0.1:${echo.port},${fake.host}` });
    owner = await createUser(t.app, { role: 'owner' });
    path = `/api/v2/organizations/${owner.organizationId}/tools`;
    expect((await owner.api.put('/api/v2/feature-flags/api-tools', { enabled: true })).status).toBe(200);
  });
  afterAll(async () => {
    await t?.close();
    await Promise.all([echo?.close(), fake?.close()]);
  });

  const addTool = (config: Record<string, unknown>, secret?: string) =>
    owner.api.post(`${path}/api`, { name: `hardened_${++sequence}`, description: 'An echo service', config, ...(secret === undefined ? {} : { secret }) });
  const expectNoSecret = (text: string) => {
    for (const form of FORMS) expect(text).not.toContain(form);
  };

  it.each([
    ['a leading space', (port: number) => ` http://127.0.0.{id}:${port}/x`],
    ['a missing slash', (port: number) => `http:/127.0.0.{id}:${port}/x`],
    ['a backslash', (port: number) => `http:\\\\127.0.0.{id}:${port}/x`],
    ['a tab in the scheme', (port: number) => `ht\ttp://127.0.0.{id}:${port}/x`],
  ])('refuses a URL with %s when saved: 400, nothing made, nothing received', async (_label, url) => {
    const before = echo.requests.length;
    const reply = await addTool({ method: 'GET', url: url(echo.port), parameters: PARAMETERS, auth: { type: 'bearer' } }, SECRET);
    expect(reply.status, reply.text).toBe(400);
    expect(reply.body.error.details).toContainEqual({ pointer: '/body/config/url', message: expect.stringMatching(/space|line break|backslash|must begin with http|placeholders may only stand in the path/) });
    expect((await owner.api.get(`${path}?kind=api`)).body.data.items.map((tool: any) => tool.config.url)).not.toContain(url(echo.port));
    expect(echo.requests.length).toBe(before);
  });

  it('refuses on import a server URL whose host is a placeholder, a header parameter named with a line break, and a parameter that refers to another file', async () => {
    const document = (servers: unknown, parameters: unknown[]) => ({
      openapi: '3.0.3',
      info: { title: 'x', version: '1' },
      servers,
      paths: { '/items/{id}': { get: { operationId: 'getItem', parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }, ...parameters], responses: { 200: { description: 'ok' } } } } },
    });
    const importing = (openapi: Record<string, unknown>) => owner.api.post(`${path}/api`, { openapi, secret: SECRET });
    const hostVariable = await importing({ document: document([{ url: ` http://127.0.0.{last}:${echo.port}` }], []) });
    expect(hostVariable.status, hostVariable.text).toBe(400);
    expect(hostVariable.body.message).toMatch(/placeholder .* in its scheme, host or port/);
    const header = await importing({ document: document([{ url: echo.origin }], [{ name: 'X-Trace\r\nX-Injected', in: 'header', schema: { type: 'string' } }]) });
    expect(header.status, header.text).toBe(400);
    expect(header.body.message).toMatch(/is not a valid header name/);
    const external = await importing({ document: document([{ url: echo.origin }], [{ $ref: 'other.yaml#/components/parameters/Limit' }]) });
    expect(external.status, external.text).toBe(400);
    expect(external.body.message).toMatch(/refers to other\.yaml#\/components\/parameters\/Limit: references outside the document are not followed/);
    expect((await owner.api.get(`${path}?kind=api`)).body.data.items.filter((tool: any) => tool.name.startsWith('getItem'))).toEqual([]);
  });

  it('refuses a fixed header whose name holds a line break when saved', async () => {
    const reply = await addTool({ method: 'GET', url: `${echo.origin}/items/{id}`, parameters: PARAMETERS, headers: { 'X-Static\r\nX-Injected': 'yes' } });
    expect(reply.status, reply.text).toBe(400);
    expect(reply.body.error.details).toContainEqual({ pointer: '/body/config/headers', message: expect.stringMatching(/is not a valid header name/) });
  });

  it('fails a call whose path value is "..", "." or one of them percent-encoded, with nothing sent', async () => {
    const saved = await addTool({ method: 'GET', url: `${echo.origin}/v1/items/{id}/detail`, parameters: PARAMETERS, auth: { type: 'bearer' } }, SECRET);
    expect(saved.status, saved.text).toBe(201);
    const before = echo.requests.length;
    for (const id of ['..', '.', '%2e%2e', '%2E.']) {
      const run = await owner.api.post(`${path}/${saved.body.data.id}/test`, { input: { id } });
      expect(run.status, run.text).toBe(200);
      expect(run.body.data).toMatchObject({ status: 'error', http_status: null, error: expect.stringMatching(/path parameter id cannot make a "\." or "\.\." path segment/) });
    }
    expect(echo.requests.length).toBe(before);
  });

  it.each([
    ['a bearer token', { type: 'bearer' }],
    ['an API key in the query', { type: 'api_key', in: 'query', name: 'api_key' }],
  ])('takes %s that the service echoes out of the test run, the answer, the stored response and row, and the chat-log export', async (_label, auth) => {
    const saved = await addTool({ method: 'GET', url: `${echo.origin}/items/{id}`, parameters: PARAMETERS, auth }, SECRET);
    expect(saved.status, saved.text).toBe(201);
    const toolId = saved.body.data.id as number;

    const run = await owner.api.post(`${path}/${toolId}/test`, { input: { id: 'a1' } });
    expect(run.status, run.text).toBe(200);
    // The service did receive the secret, and echoed it.
    expect(JSON.stringify(echo.requests.at(-1)!.headers) + echo.requests.at(-1)!.url).toContain(encodeURIComponent(SECRET).slice(0, 11));
    expect(run.body.data.output).toContain('[REDACTED]');
    expectNoSecret(run.text);

    // An agent calls the tool; the model answers with the tool's result as it read it.
    const configurationId = (await createModelConfiguration(owner, fake)).id;
    const agent = await agentWith(owner, [], { llm_configuration_id: configurationId, tool_ids: [toolId] });
    fake.toolCallNext(saved.body.data.name, { id: 'a2' });
    const stall = fake.stallNext();
    const asking = owner.api.post(`/api/v2/agents/${agent.id}/responses`, { query: 'Fetch item a2' });
    await stall.arrived;
    const toolResult = fake.chatRequests().at(-1)!.body.messages.at(-1);
    expect(toolResult.role).toBe('tool');
    fake.answer = `The service said: ${toolResult.content}`;
    stall.release();
    const reply = await asking;
    expect(reply.status, reply.text).toBe(201);
    expect(reply.body.data.answer).toContain('[REDACTED]');
    expectNoSecret(JSON.stringify(fake.chatRequests().at(-1)!.body));
    expectNoSecret(reply.text);

    const responseId = reply.body.data.id as number;
    expectNoSecret((await owner.api.get(`/api/v2/responses/${responseId}`)).text);
    const row = await t.app.database.db.selectFrom('agent_responses').selectAll().where('id', '=', responseId).executeTakeFirstOrThrow();
    expect(String(row.tool_calls)).toContain('[REDACTED]');
    expectNoSecret(JSON.stringify(row));
    const csv = await owner.api.get(`/api/v2/chat-logs?format=csv&agent_id=${agent.id}`);
    expect(csv.status).toBe(200);
    expect(csv.text).toContain('REDACTED');
    expectNoSecret(csv.text);
  });
});
