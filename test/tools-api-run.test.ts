// API tools run for real against loopback services, through the test operation, on both databases:
// every parameter place and every kind of authentication as the service receives them, secrets
// masked in the request shown, HTTP errors, a service that never answers (the tool deadline), one
// that answers 50 MB (the byte cap), long answers cut for the model, and addresses the egress rules
// refuse — by a redirect, and by a tool whose host stopped being allow-listed — with nothing received.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { restartTestApp, startTestApp, type TestApp } from './support/app.js';
import { databaseKinds } from './support/databases.js';
import { createOrganization, createUser, type TestUser } from './support/factories.js';
import { client } from './support/http.js';
import { startListener, type Listener } from './support/listeners.js';

const SECRET = 'tool-secret-0123456789abcdef';
const TIMEOUT_MS = 1000;
const FIFTY_MB = 50 * 1024 * 1024;

interface Received {
  method: string;
  url: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

describe.each(databaseKinds)('API tools at work (%s)', (kind) => {
  let t: TestApp;
  let api: Listener;
  let internal: Listener;
  let owner: TestUser;
  let path: string;
  const received: Received[] = [];
  const hanging: ServerResponse[] = [];
  let sequence = 0;

  function serve(request: IncomingMessage, response: ServerResponse, body: Buffer): void {
    const url = request.url ?? '/';
    received.push({ method: request.method ?? '', url, headers: request.headers, body: body.toString('utf8') });
    if (url.startsWith('/hang')) {
      hanging.push(response);
      return;
    }
    if (url.startsWith('/big')) {
      const chunk = Buffer.alloc(64 * 1024, 'a');
      let sent = 0;
      response.on('close', () => (sent = Infinity));
      const pump = () => {
        while (sent < FIFTY_MB) {
          sent += chunk.length;
          if (!response.write(chunk)) return void response.once('drain', pump);
        }
        response.end();
      };
      response.writeHead(200, { 'content-type': 'text/plain' });
      return pump();
    }
    if (url.startsWith('/long')) return void response.writeHead(200, { 'content-type': 'text/plain' }).end('word '.repeat(8000));
    if (url.startsWith('/fail')) return void response.writeHead(503, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'maintenance' }));
    if (url.startsWith('/redirect')) return void response.writeHead(302, { location: `${internal.origin}/secret-place` }).end();
    if (url.startsWith('/image')) return void response.writeHead(200, { 'content-type': 'image/png' }).end(Buffer.alloc(300));
    // An echo of what arrived, without its credentials: the test reads those from `received`.
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ method: request.method, url, body: body.toString('utf8') || null }, null, 2));
  }

  beforeAll(async () => {
    api = await startListener(serve);
    internal = await startListener();
    t = await startTestApp(kind, { EGRESS_ALLOWED_HOSTS: `127.0.0.1:${api.port}`, LIMIT_TOOL_TIMEOUT_MS: String(TIMEOUT_MS) });
    owner = await createUser(t.app, { organizationId: await createOrganization(t.app), role: 'owner' });
    path = `/api/v2/organizations/${owner.organizationId}/tools`;
    expect((await owner.api.put('/api/v2/feature-flags/api-tools', { enabled: true })).status).toBe(200);
  });
  afterAll(async () => {
    for (const response of hanging) response.destroy();
    await t?.close();
    await api?.close();
    await internal?.close();
  });

  const addTool = async (config: Record<string, unknown>, secret?: string) => {
    const reply = await owner.api.post(`${path}/api`, { name: `run_${++sequence}`, description: 'A loopback service', config, ...(secret ? { secret } : {}) });
    expect(reply.status, reply.text).toBe(201);
    return reply.body.data.id as number;
  };
  const testRun = async (toolId: number, input: Record<string, unknown>) => {
    const reply = await owner.api.post(`${path}/${toolId}/test`, { input });
    expect(reply.status, reply.text).toBe(200);
    return reply.body.data as { status: string; http_status: number | null; latency_ms: number; request: any; output: string; error: string | null };
  };
  const lastReceived = () => received[received.length - 1]!;

  it('puts each parameter in its place: path (encoded), query (arrays repeated), header, cookie, and a JSON body with nested objects', async () => {
    const toolId = await addTool({
      method: 'POST',
      url: `${api.origin}/echo/{item}?fixed=1`,
      parameters: {
        type: 'object',
        properties: {
          item_id: { type: 'string' },
          tags: { type: 'array', items: { type: 'string' } },
          trace: { type: 'string' },
          session: { type: 'string' },
          filter: { type: 'object', properties: { status: { type: 'string' }, range: { type: 'object', properties: { from: { type: 'integer' } } } } },
          note: { type: 'string' },
        },
        required: ['item_id'],
      },
      locations: { item_id: { in: 'path', name: 'item' }, tags: { in: 'query', name: 'tag' }, trace: { in: 'header', name: 'X-Trace' }, session: 'cookie', filter: 'body', note: 'body' },
      headers: { 'X-Static': 'always' },
    });
    const input = { item_id: 'a/b c', tags: ['x', 'y&z'], trace: 'trace-1', session: 's=1;2', filter: { status: 'open', range: { from: 3 } }, note: 'hello' };
    const result = await testRun(toolId, input);
    expect(result).toMatchObject({ status: 'ok', http_status: 200, error: null });
    const got = lastReceived();
    expect(got.method).toBe('POST');
    expect(got.url).toBe('/echo/a%2Fb%20c?fixed=1&tag=x&tag=y%26z');
    expect(got.headers['x-trace']).toBe('trace-1');
    expect(got.headers['x-static']).toBe('always');
    expect(got.headers.cookie).toBe('session=s%3D1%3B2');
    expect(got.headers['content-type']).toBe('application/json');
    expect(JSON.parse(got.body)).toEqual({ filter: { status: 'open', range: { from: 3 } }, note: 'hello' });
    // What the model reads: the JSON answer written compactly.
    expect(result.output).toBe(JSON.stringify({ method: 'POST', url: got.url, body: got.body }));
    expect(result.request).toMatchObject({ method: 'POST', url: `${api.origin}/echo/a%2Fb%20c?fixed=1&tag=x&tag=y%26z`, body: got.body });
    expect(result.latency_ms).toBeGreaterThanOrEqual(0);
  });

  it('fills a body template: whole placeholders keep their JSON type, absent ones are left out, others are replaced as text', async () => {
    const toolId = await addTool({
      method: 'PUT',
      url: `${api.origin}/echo/template`,
      parameters: { type: 'object', properties: { q: { type: 'string' }, limit: { type: 'integer' }, extra: { type: 'object' } }, required: ['q'] },
      body: { query: { text: '{{q}}', limit: '{{limit}}', extra: '{{extra}}' }, source: 'agent asked {{ q }}', list: ['{{limit}}', 1] },
    });
    await testRun(toolId, { q: 'rain', limit: 3 });
    expect(JSON.parse(lastReceived().body)).toEqual({ query: { text: 'rain', limit: 3 }, source: 'agent asked rain', list: [3, 1] });
    await testRun(toolId, { q: 'snow' });
    expect(JSON.parse(lastReceived().body)).toEqual({ query: { text: 'snow' }, source: 'agent asked snow', list: [null, 1] });
  });

  it.each([
    ['an API key in a header', { type: 'api_key', in: 'header', name: 'X-Api-Key' }, (got: Received) => got.headers['x-api-key'] === SECRET, (shown: any) => shown.headers['x-api-key'] === '****'],
    ['an API key in the query', { type: 'api_key', in: 'query', name: 'appid' }, (got: Received) => got.url.includes(`appid=${SECRET}`), (shown: any) => shown.url.endsWith('appid=****')],
    ['a bearer token', { type: 'bearer' }, (got: Received) => got.headers.authorization === `Bearer ${SECRET}`, (shown: any) => shown.headers.authorization === 'Bearer ****'],
    [
      'basic authentication',
      { type: 'basic', username: 'robot' },
      (got: Received) => got.headers.authorization === `Basic ${Buffer.from(`robot:${SECRET}`).toString('base64')}`,
      (shown: any) => shown.headers.authorization === 'Basic ****',
    ],
  ])('authenticates with %s, and masks it in the request shown', async (_label, auth, sent, masked) => {
    const toolId = await addTool({ method: 'GET', url: `${api.origin}/echo/auth`, parameters: { type: 'object', properties: { q: { type: 'string' } } }, auth }, SECRET);
    const result = await testRun(toolId, { q: 'x' });
    expect(result.status).toBe('ok');
    expect(sent(lastReceived())).toBe(true);
    expect(masked(result.request)).toBe(true);
    expect(JSON.stringify(result.request)).not.toContain(SECRET);
    expect(JSON.stringify(result.request)).not.toContain(Buffer.from(`robot:${SECRET}`).toString('base64'));
  });

  it('sends no credentials with auth none, and masks credential-like static headers', async () => {
    const toolId = await addTool({ method: 'GET', url: `${api.origin}/echo/plain`, parameters: { type: 'object', properties: {} }, headers: { 'X-Session-Token': 'static-value' } });
    const result = await testRun(toolId, {});
    expect(lastReceived().headers.authorization).toBeUndefined();
    expect(lastReceived().headers['x-session-token']).toBe('static-value');
    expect(result.request.headers['x-session-token']).toBe('****');
  });

  it('refuses input that does not match the parameters with a 400 naming it, and sends nothing', async () => {
    const toolId = await addTool({ method: 'GET', url: `${api.origin}/echo/{id}`, parameters: { type: 'object', properties: { id: { type: 'integer' } }, required: ['id'] } });
    const count = received.length;
    const reply = await owner.api.post(`${path}/${toolId}/test`, { input: { id: 'seven' } });
    expect(reply.status).toBe(400);
    expect(reply.body.error.details.map((detail: { pointer: string }) => detail.pointer)).toEqual(['/body/input/id']);
    const missing = await owner.api.post(`${path}/${toolId}/test`, { input: {} });
    expect(missing.status).toBe(400);
    expect(received.length).toBe(count);
  });

  it('a header value with a line break is an error outcome, not a request', async () => {
    const toolId = await addTool({ method: 'GET', url: `${api.origin}/echo/h`, parameters: { type: 'object', properties: { v: { type: 'string' } } }, locations: { v: 'header' } });
    const count = received.length;
    const result = await testRun(toolId, { v: 'a\r\nX-Injected: 1' });
    expect(result.status).toBe('error');
    expect(result.output).toMatch(/line break/);
    expect(received.length).toBe(count);
  });

  it('an HTTP error is an error outcome with the status and the answer', async () => {
    const toolId = await addTool({ method: 'GET', url: `${api.origin}/fail`, parameters: { type: 'object', properties: {} } });
    const result = await testRun(toolId, {});
    expect(result).toMatchObject({ status: 'error', http_status: 503 });
    expect(result.output).toBe('The API answered HTTP 503 Service Unavailable: {"error":"maintenance"}');
    expect(result.error).toBe(result.output);
  });

  it('describes binary answers instead of showing them, and cuts long ones for the model', async () => {
    const image = await testRun(await addTool({ method: 'GET', url: `${api.origin}/image`, parameters: { type: 'object', properties: {} } }), {});
    expect(image.output).toBe('(binary content of type image/png, 300 bytes, not shown)');
    const long = await testRun(await addTool({ method: 'GET', url: `${api.origin}/long`, parameters: { type: 'object', properties: {} } }), {});
    expect(long.status).toBe('ok');
    const limit = t.app.config.limits.toolOutputCharacters;
    expect(long.output.startsWith('word word')).toBe(true);
    expect(long.output).toContain(`[cut: the answer has 40000 characters, the first ${limit} are shown]`);
    expect(long.output.length).toBeLessThan(limit + 100);
  });

  it('a service that never answers fails the call at the tool deadline', async () => {
    const toolId = await addTool({ method: 'GET', url: `${api.origin}/hang`, parameters: { type: 'object', properties: {} } });
    const result = await testRun(toolId, {});
    expect(result).toMatchObject({ status: 'error', http_status: null, output: `The API did not answer within ${TIMEOUT_MS} ms` });
    expect(hanging.length).toBeGreaterThan(0);
  });

  it('an answer of 50 MB stops at the byte cap and fails the call', async () => {
    const toolId = await addTool({ method: 'GET', url: `${api.origin}/big`, parameters: { type: 'object', properties: {} } });
    const result = await testRun(toolId, {});
    expect(result.status).toBe('error');
    expect(result.output).toMatch(new RegExp(`larger than the limit of ${t.app.config.limits.toolResponseBytes} bytes`));
  });

  it('a redirect to an address that is not allowed is refused, and that address receives nothing', async () => {
    const toolId = await addTool({ method: 'GET', url: `${api.origin}/redirect`, parameters: { type: 'object', properties: {} } });
    const result = await testRun(toolId, {});
    expect(result.status).toBe('error');
    expect(result.output).toBe(`The call was refused: Refused to fetch ${internal.origin}/secret-place: the host is a loopback address`);
    expect(internal.connections()).toBe(0);
  });

  it('refuses to save a tool on an address that is not allowed, and at call time a tool whose host is no longer allowed', async () => {
    const refused = await owner.api.post(`${path}/api`, { name: `run_${++sequence}`, description: 'x', config: { method: 'GET', url: `http://127.0.0.2:${internal.port}/x`, parameters: { type: 'object' } } });
    expect(refused.status).toBe(400);
    expect(refused.body.error.details[0]).toMatchObject({ pointer: '/body/config/url' });
    expect(refused.body.error.details[0].message).toMatch(/loopback address/);
    const toolId = await addTool({ method: 'GET', url: `${api.origin}/echo/later`, parameters: { type: 'object', properties: {} } });
    // The administrator takes the host off the allow-list: the saved tool may no longer reach it.
    t = await restartTestApp(t, { LIMIT_TOOL_TIMEOUT_MS: String(TIMEOUT_MS) });
    const count = received.length;
    const connections = api.connections();
    const reply = await client(t.app, owner.token).post(`${path}/${toolId}/test`, { input: {} });
    expect(reply.status, reply.text).toBe(200);
    const result = reply.body.data;
    expect(result.status).toBe('error');
    expect(result.output).toMatch(/^The call was refused: Refused to fetch http:\/\/127\.0\.0\.1:\d+\/echo\/later: the host is a loopback address$/);
    expect(received.length).toBe(count);
    expect(api.connections()).toBe(connections);
  });
});
