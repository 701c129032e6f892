// The rules that keep an API tool's secret with the service it was given for, as pure logic: a URL
// template read by the URL parser that sends the request (no text it would read otherwise, no
// placeholder where it decides the destination), path values that cannot climb the tool's path, a
// stored template that lets the values choose the host refused before any secret is attached, and
// every form of the secret taken out of what an API echoes.
import { describe, expect, it } from 'vitest';
import type { EgressClient, EgressRequestInit, EgressResponse } from '../src/net/egress.js';
import { AllowList } from '../src/net/allowed-hosts.js';
import { createApiTool } from '../src/tools/api/api-tool.js';
import type { ApiAuth, ApiToolConfig } from '../src/tools/api/config.js';
import { apiConfigProblems } from '../src/tools/api/config-check.js';
import { buildApiRequest } from '../src/tools/api/request-builder.js';
import type { StoredTool } from '../src/tools/tool.js';

const actor = { userId: 1, organizationId: 1, email: 'owner@example.com', role: 'owner' as const, credential: { kind: 'api_key' as const, id: 1 } };
const context = { actor, threadId: null, signal: new AbortController().signal, timeoutMs: 1000, maxResponseBytes: 1024 * 1024 };
const SECRET = 'tok/en+"sec ret"=42';

const config = (url: string, overrides: Partial<ApiToolConfig> = {}): ApiToolConfig => ({
  method: 'GET',
  url,
  parameters: { type: 'object', properties: { h: { type: 'string' }, id: { type: 'string' } } },
  locations: { h: 'path', id: 'path' },
  ...overrides,
});
const urlProblems = (url: string) => apiConfigProblems(config(url), new AllowList(['127.0.0.1:8080']), '/config').filter((problem) => problem.pointer === '/config/url');

describe('the URL template', () => {
  it.each([
    [' https://{h}.com/x/{id}', /begin or end with a space/],
    ['https://{h}.com/x/{id} ', /begin or end with a space/],
    [' http://127.0.0.{h}:8080/x/{id}', /begin or end with a space/],
    ['https:/{h}.com/x/{id}', /must begin with http:\/\/ or https:\/\/ and a host/],
    ['https:{h}.com/x/{id}', /must begin with http:\/\/ or https:\/\/ and a host/],
    ['https:///{h}.com/x/{id}', /must begin with http:\/\/ or https:\/\/ and a host/],
    ['https:\\\\{h}.com/x/{id}', /backslash/],
    ['https://api.example.com\\{h}/{id}', /backslash/],
    ['ht\ttps://{h}.com/x/{id}', /tab or a line break/],
    ['https://api.example.com/x\n/{id}', /tab or a line break/],
    ['http{h}://api.example.com/x/{id}', /must begin with http:\/\/ or https:\/\/ and a host/],
    ['https://{h}.example.com/x/{id}', /placeholders may only stand in the path/],
  ])('refuses %j: the parser would read it otherwise, or the values would choose where it goes', (url, message) => {
    const problems = urlProblems(url);
    expect(problems).toHaveLength(1);
    expect(problems[0]!.message).toMatch(message);
  });

  it('accepts placeholders in the path, and what the parser only tidies (case, a default port, no trailing slash)', () => {
    expect(urlProblems('https://api.example.com/v1/{h}/items/{id}.json?fixed=1')).toEqual([]);
    expect(urlProblems('http://127.0.0.1:8080/x/{h}{id}')).toEqual([]);
    expect(urlProblems('HTTPS://API.example.com:443/x/{h}/{id}')).toEqual([]);
    expect(urlProblems('https://api.example.com')).toEqual([]);
  });
});

describe('header names', () => {
  it.each(['X-Bad\r\nInjected: 1', 'X-Bad\n', 'Bad Header', 'X:y'])('refuses a fixed header named %j', (name) => {
    const problems = apiConfigProblems(config('https://api.example.com/x/{h}/{id}', { headers: { [name]: 'v' } }), new AllowList([]), '/config');
    expect(problems).toEqual([{ pointer: '/config/headers', message: expect.stringMatching(/is not a valid header name/) }]);
  });
});

describe('path values', () => {
  const items = config('https://api.example.com/v1/items/{id}/detail', { parameters: { type: 'object', properties: { id: { type: 'string' } } }, locations: { id: 'path' } });

  it.each(['..', '.', '%2e%2e', '%2E.', '.%2e', '%2e', '%252e%252E'])('refuses %j: a segment that climbs the tool’s path', (id) => {
    expect(() => buildApiRequest(items, { id }, null)).toThrow(/path parameter id cannot make a "\." or "\.\." path segment/);
  });

  it('judges the segment the values make: two dots from two values are refused, dots inside a segment and encoded slashes go through', () => {
    const two = config('https://api.example.com/v1/{h}{id}/detail');
    expect(() => buildApiRequest(two, { h: '.', id: '.' }, null)).toThrow(/h and id cannot make/);
    expect(buildApiRequest(items, { id: '../a?b#c' }, null).url).toBe('https://api.example.com/v1/items/..%2Fa%3Fb%23c/detail');
    expect(buildApiRequest(items, { id: '...' }, null).url).toBe('https://api.example.com/v1/items/.../detail');
    expect(buildApiRequest(items, { id: 'v1.2' }, null).url).toBe('https://api.example.com/v1/items/v1.2/detail');
  });

  it('refuses, before the secret is attached, a stored template whose host a value chooses', () => {
    const stored = config(' http://127.0.0.{h}:8080/x/{id}', { auth: { type: 'bearer' } });
    expect(() => buildApiRequest(stored, { h: '1', id: 'a' }, SECRET)).toThrow(/placeholder in its scheme, host or port/);
    const scheme = config('http{h}://api.example.com/x/{id}', { auth: { type: 'bearer' } });
    expect(() => buildApiRequest(scheme, { h: 's', id: 'a' }, SECRET)).toThrow(/placeholder in its scheme, host or port/);
  });
});

describe('what an API echoes of the secret', () => {
  /** An API that answers with everything it was sent: URL, headers and body, as JSON. */
  const echo: EgressClient = {
    request: async (url: string | URL, init: EgressRequestInit = {}): Promise<EgressResponse> => ({
      status: 200,
      headers: { 'content-type': 'application/json' },
      body: Buffer.from(JSON.stringify({ url: String(url), headers: init.headers, body: init.body ?? null, query: Object.fromEntries(new URL(String(url)).searchParams) })),
      url: String(url),
    }),
    stream: () => Promise.reject(new Error('unused')),
    close: () => undefined,
  };
  const failing = (status: number): EgressClient => ({ ...echo, request: async (url, init) => ({ ...(await echo.request(url, init)), status }) });
  const tool = (auth: ApiAuth, egress: EgressClient = echo) => {
    const stored: StoredTool = { id: 1, organization_id: 1, kind: 'api', name: 'echo', description: 'Echo', secret: SECRET, config: config('https://api.example.com/echo/{id}', { auth }) as unknown as Record<string, unknown> };
    return createApiTool(stored, { egress, maxOutputCharacters: 100_000 });
  };
  const forms = [SECRET, encodeURIComponent(SECRET), JSON.stringify(SECRET).slice(1, -1), Buffer.from(`robot:${SECRET}`).toString('base64')];

  it.each([
    ['a bearer token', { type: 'bearer' }],
    ['basic credentials', { type: 'basic', username: 'robot' }],
    ['an API key in a header', { type: 'api_key', in: 'header', name: 'X-Api-Key' }],
    ['an API key in the query', { type: 'api_key', in: 'query', name: 'api_key' }],
  ] as [string, ApiAuth][])('takes %s out of the output, in every form, replaced by [REDACTED]', async (_label, auth) => {
    for (const egress of [echo, failing(500)]) {
      const outcome = await tool(auth, egress).run({ id: 'item' }, context);
      expect(outcome.output).toContain('[REDACTED]');
      for (const form of forms) expect(outcome.output).not.toContain(form);
      // And as the model reads it, the JSON parsed back.
      expect(outcome.output).not.toContain('sec ret');
    }
  });

  it('takes the stored secret out even where the model gave it and the tool sends none', async () => {
    const outcome = await tool({ type: 'none' }).run({ id: `leak ${SECRET}` }, context);
    expect(outcome.output).toContain('leak%20[REDACTED]');
    for (const form of forms) expect(outcome.output).not.toContain(form);
  });
});
