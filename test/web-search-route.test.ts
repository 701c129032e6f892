// A web search tool made and run through the HTTP routes, on both databases: created with its key
// (never returned), its test run against a fake Brave Search on loopback showing the request with the
// key masked, the results the model would read, and a provider failure as a test result, not an error.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './support/app.js';
import { databaseKinds } from './support/databases.js';
import { createUser, type TestUser } from './support/factories.js';
import { startListener, type Listener } from './support/listeners.js';

const KEY = 'BSA-route-test-key-987654321';

describe.each(databaseKinds)('web search tool over HTTP (%s)', (kind) => {
  let t: TestApp;
  let brave: Listener;
  let admin: TestUser;
  let failing = false;

  beforeAll(async () => {
    brave = await startListener((request, response) => {
      if (failing) {
        response.writeHead(429, { 'content-type': 'application/json', 'retry-after': '5' });
        return response.end(JSON.stringify({ type: 'ErrorResponse', error: { code: 'RATE_LIMITED', detail: 'Request rate limit exceeded for plan' } }));
      }
      const q = new URL(request.url!, 'http://x').searchParams.get('q');
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ type: 'search', query: { original: q }, web: { type: 'search', results: [{ title: `About <strong>${q}</strong>`, url: 'https://example.com/a', description: 'A result.' }] } }));
    });
    t = await startTestApp(kind, { EGRESS_ALLOWED_HOSTS: `127.0.0.1:${brave.port}` });
    admin = await createUser(t.app, { role: 'admin' });
  });
  afterAll(async () => {
    await t.close();
    await brave.close();
  });

  it('creates the tool with its key, and its test run shows the masked request and what the model reads', async () => {
    const created = await admin.api.post(`/api/v2/organizations/${admin.organizationId}/tools/web-search`, {
      name: 'web',
      description: 'Searches the web',
      config: { provider: 'brave', base_url: brave.origin, max_results: 3 },
      secret: KEY,
    });
    expect(created.status).toBe(201);
    expect(created.text).not.toContain(KEY);
    const url = `/api/v2/organizations/${admin.organizationId}/tools/${created.body.data.id}/test`;

    const run = await admin.api.post(url, { input: { query: 'solar' } });
    expect(run.status).toBe(200);
    expect(run.body.data).toMatchObject({ status: 'ok', error: null, request: { method: 'GET', headers: { 'x-subscription-token': '****' }, body: null } });
    expect(run.body.data.request.url).toBe(`${brave.origin}/res/v1/web/search?q=solar&count=3`);
    expect(run.body.data.output).toContain('[1] About solar\nURL: https://example.com/a\nA result.');
    expect(run.text).not.toContain(KEY);

    failing = true;
    const limited = await admin.api.post(url, { input: { query: 'solar' } });
    failing = false;
    expect(limited.status).toBe(200);
    expect(limited.body.data).toMatchObject({ status: 'error', http_status: 429 });
    expect(limited.body.data.error).toMatch(/Brave Search is limiting the rate of searches \(HTTP 429\)/);
    expect(limited.text).not.toContain(KEY);

    expect((await admin.api.post(url, { input: {} })).status).toBe(400);
  });

  it('refuses settings a search cannot run with', async () => {
    const base = `/api/v2/organizations/${admin.organizationId}/tools/web-search`;
    expect((await admin.api.post(base, { name: 'no_key', description: 'x', config: { provider: 'tavily' } })).status).toBe(400);
    expect((await admin.api.post(base, { name: 'no_url', description: 'x', config: { provider: 'searxng' } })).status).toBe(400);
    expect((await admin.api.post(base, { name: 'private', description: 'x', config: { provider: 'searxng', base_url: 'http://10.0.0.8/' } })).status).toBe(400);
    expect((await admin.api.post(base, { name: 'too_many', description: 'x', config: { provider: 'searxng', base_url: brave.origin, max_results: 11 } })).status).toBe(400);
  });
});
