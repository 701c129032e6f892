// The regular expressions of API tools' parameters over HTTP, on both databases: a pattern RE2 cannot
// run (lookahead, backreference) refused with a 400 naming its JSON pointer, whether the tool is
// written whole or imported from an OpenAPI document; a pattern that backtracks catastrophically on
// the native engine (`^(a+)+$`) accepted, and arguments checked against it on RE2, never natively,
// however hostile and long; a string too long for a pattern's budget of steps is a 400, not a stall.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { RE2JS } from 're2js';
import { startTestApp, type TestApp } from './support/app.js';
import { databaseKinds } from './support/databases.js';
import { createOrganization, createUser, type TestUser } from './support/factories.js';
import { startListener, type Listener } from './support/listeners.js';

const withPattern = (property: Record<string, unknown>) => ({ type: 'object', properties: { q: { type: 'string', ...property } }, required: ['q'] });

describe.each(databaseKinds)('tool parameter patterns (%s)', (kind) => {
  let t: TestApp;
  let upstream: Listener;
  let owner: TestUser;
  let path: string;
  let sequence = 0;
  const received: string[] = [];

  beforeAll(async () => {
    upstream = await startListener((request, response) => {
      received.push(request.url ?? '');
      response.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
    t = await startTestApp(kind, { EGRESS_ALLOWED_HOSTS: `127.0.0.1:${upstream.port}` });
    owner = await createUser(t.app, { organizationId: await createOrganization(t.app), role: 'owner' });
    path = `/api/v2/organizations/${owner.organizationId}/tools`;
    expect((await owner.api.put('/api/v2/feature-flags/api-tools', { enabled: true })).status).toBe(200);
  });
  afterAll(async () => {
    await t?.close();
    await upstream?.close();
  });
  afterEach(() => vi.restoreAllMocks());

  const addTool = (parameters: Record<string, unknown>) =>
    owner.api.post(`${path}/api`, { name: `search_${++sequence}`, description: 'Searches', config: { method: 'GET', url: `${upstream.origin}/search`, parameters } });
  const total = async () => (await owner.api.get(path)).body.data.total as number;
  const pointersOf = (reply: { body: any }) => reply.body.error.details.map((detail: { pointer: string }) => detail.pointer);

  it.each([
    ['a lookahead', withPattern({ pattern: '(?=a)b' }), '/body/config/parameters/properties/q/pattern'],
    ['a backreference', withPattern({ pattern: '(a)\\1' }), '/body/config/parameters/properties/q/pattern'],
    // Beside it, a property named pattern and values whose key is "pattern": data, not patterns.
    [
      'a lookbehind in the items of an array',
      { type: 'object', properties: { pattern: { type: 'string', default: '(?=a)' }, kind: { enum: [{ pattern: '(a)\\1' }] }, tags: { type: 'array', items: { type: 'string', pattern: '(?<=#)\\w+' } } } },
      '/body/config/parameters/properties/tags/items/pattern',
    ],
    ['a backreference as the name of patternProperties', { type: 'object', properties: { q: { type: 'object', patternProperties: { '^(x)\\1/y$': { type: 'string' } } } } }, '/body/config/parameters/properties/q/patternProperties/^(x)\\1~1y$'],
  ])('refuses a tool whose parameters have %s, naming the pattern’s pointer, and saves nothing', async (_case, parameters, pointer) => {
    const before = await total();
    const reply = await addTool(parameters);
    expect(reply.status, reply.text).toBe(400);
    expect(reply.body.error.code).toBe('bad_request');
    expect(pointersOf(reply)).toEqual([pointer]);
    expect(reply.body.error.details[0].message).toMatch(/RE2/);
    expect(await total()).toBe(before);
  });

  it('refuses to import an OpenAPI operation whose parameter has a pattern RE2 cannot run, naming its pointer', async () => {
    const before = await total();
    const document = {
      openapi: '3.0.3',
      info: { title: 'Search', version: '1' },
      servers: [{ url: upstream.origin }],
      paths: { '/search': { get: { operationId: 'search', parameters: [{ name: 'q', in: 'query', required: true, schema: { type: 'string', pattern: '^(?!admin)\\w+$' } }], responses: { 200: { description: 'ok' } } } } },
    };
    const reply = await owner.api.post(`${path}/api`, { openapi: { document, name_prefix: `imported_${++sequence}_` } });
    expect(reply.status, reply.text).toBe(400);
    expect(pointersOf(reply)).toEqual(['/body/openapi/operations/0/parameters/properties/q/pattern']);
    expect(await total()).toBe(before);
  });

  it('accepts ^(a+)+$ and checks arguments against it on RE2, never on the native engine, however hostile', async () => {
    const made = await addTool(withPattern({ pattern: '^(a+)+$' }));
    expect(made.status, made.text).toBe(201);
    const testRun = (q: string) => owner.api.post(`${path}/${made.body.data.id}/test`, { input: { q } });
    const nativeRuns = vi.spyOn(RegExp.prototype, 'exec');
    const re2Runs = vi.spyOn(RE2JS.prototype, 'test');
    const checkedNatively = (text: string) => nativeRuns.mock.calls.some(([argument]) => argument === text);
    const checkedOnRe2 = (text: string) => re2Runs.mock.calls.some(([argument]) => argument === text);

    // A harmless mismatch first: were it checked natively, the hostile ones below would hold the server.
    expect((await testRun('aab')).status).toBe(400);
    expect(checkedNatively('aab')).toBe(false);
    expect(checkedOnRe2('aab')).toBe(true);

    for (const hostile of ['a'.repeat(30) + '!', 'a'.repeat(100_000) + '!']) {
      const reply = await testRun(hostile);
      expect(reply.status).toBe(400);
      expect(reply.body.error.details).toEqual([{ pointer: '/body/input/q', message: 'must match pattern "^(a+)+$"' }]);
      expect(checkedOnRe2(hostile)).toBe(true);
      expect(checkedNatively(hostile)).toBe(false);
    }

    const ran = await testRun('aaaa');
    expect(ran.status, ran.text).toBe(200);
    expect(ran.body.data.status).toBe('ok');
    expect(received).toContain('/search?q=aaaa');
  });

  it('answers 400 for a string longer than its pattern’s budget of steps can check, without checking it', async () => {
    const made = await addTool(withPattern({ pattern: '^[a-z]{0,999}$' }));
    expect(made.status, made.text).toBe(201);
    const re2Runs = vi.spyOn(RE2JS.prototype, 'test');
    const reply = await owner.api.post(`${path}/${made.body.data.id}/test`, { input: { q: 'a'.repeat(100_000) } });
    expect(reply.status).toBe(400);
    expect(reply.body.error.details[0].pointer).toBe('/body/input');
    expect(reply.body.error.details[0].message).toMatch(/has a string of 100000 characters, more than the pattern \/\^\[a-z\]\{0,999\}\$\/ can check \(at most \d+ characters/);
    expect(re2Runs).not.toHaveBeenCalled();
  });
});
