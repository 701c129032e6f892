// The preview of an import, on both databases: a document's operations listed by the key an import
// takes, from a document given (YAML text) or fetched from its URL through the egress rules, nothing
// stored; the same rules as an import: owners and admins, the api-tools flag, another organization a
// 404, a text that is not OpenAPI a 400, an address the egress rules refuse a 400 with nothing fetched.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './support/app.js';
import { databaseKinds } from './support/databases.js';
import { createOrganization, createUser, type TestUser } from './support/factories.js';
import { startListener, type Listener } from './support/listeners.js';
import { pollUntil } from './support/poll.js';

const SHOP_YAML = [
  'openapi: 3.0.3',
  'info: { title: Shop, version: "1" }',
  'paths:',
  '  /orders:',
  '    get: { operationId: listOrders, summary: All orders, responses: {} }',
  '    post:',
  '      description: "Places an order.\\nThe second line is left out."',
  '      requestBody: { $ref: "#/components/requestBodies/Order" }',
  '      responses: {}',
  '  /orders/{id}:',
  '    get: { operationId: getOrder, responses: {} }',
  'components: { requestBodies: { Order: { content: { application/json: { schema: { type: object } } } } } }',
  '',
].join('\n');

describe.each(databaseKinds)('tool import preview (%s)', (kind) => {
  let t: TestApp;
  let api: Listener;
  let refused: Listener;
  let owner: TestUser;
  let member: TestUser;
  let stranger: TestUser;
  let path: string;

  beforeAll(async () => {
    api = await startListener((request, response) => {
      if (request.url !== '/openapi.yaml') return void response.writeHead(404).end();
      response.writeHead(200, { 'content-type': 'application/yaml' }).end(SHOP_YAML);
    });
    refused = await startListener();
    t = await startTestApp(kind, { EGRESS_ALLOWED_HOSTS: `127.0.0.1:${api.port}` });
    const organizationId = await createOrganization(t.app);
    owner = await createUser(t.app, { organizationId, role: 'owner' });
    member = await createUser(t.app, { organizationId, role: 'member' });
    stranger = await createUser(t.app, { organizationId: await createOrganization(t.app), role: 'owner' });
    path = `/api/v2/organizations/${organizationId}/tool-imports`;
  });
  afterAll(async () => {
    await t?.close();
    await api?.close();
    await refused?.close();
  });

  it('needs the api-tools flag, then lists the operations of a document given or fetched, storing nothing', async () => {
    const off = await owner.api.post(`${path}/preview`, { document: SHOP_YAML });
    expect(off.status).toBe(403);
    expect(off.body.error.code).toBe('feature_disabled');
    expect((await owner.api.put('/api/v2/feature-flags/api-tools', { enabled: true })).status).toBe(200);

    const expected = {
      title: 'Shop',
      version: '3.0.3',
      operations: [
        { operation: 'listOrders', method: 'GET', path: '/orders', summary: 'All orders', pointer: '/paths/~1orders/get' },
        { operation: 'POST /orders', method: 'POST', path: '/orders', summary: 'Places an order.', pointer: '/paths/~1orders/post' },
        { operation: 'getOrder', method: 'GET', path: '/orders/{id}', summary: '', pointer: '/paths/~1orders~1{id}/get' },
      ],
    };
    const given = await owner.api.post(`${path}/preview`, { document: SHOP_YAML });
    expect(given.status, given.text).toBe(200);
    expect(given.body.data).toEqual({ ...expected, document_ref: null });
    const fetched = await owner.api.post(`${path}/preview`, { url: `${api.origin}/openapi.yaml` });
    expect(fetched.status, fetched.text).toBe(200);
    expect(fetched.body.data).toEqual({ ...expected, document_ref: expect.stringMatching(/^[\w-]{20,}$/) });
    expect((await owner.api.get(path)).body.data.total).toBe(0);
  });

  it('imports the document its preview fetched when the import names it, once and in its organization only', { timeout: 60_000 }, async () => {
    expect((await owner.api.put('/api/v2/feature-flags/api-tools', { enabled: true })).status).toBe(200);
    expect((await stranger.api.put('/api/v2/feature-flags/api-tools', { enabled: true })).status).toBe(200);
    const url = `${api.origin}/openapi.yaml`;
    const fetches = () => api.requests.filter((request) => request.url === '/openapi.yaml').length;
    const importOf = (user: TestUser, body: Record<string, unknown>) => user.api.post(`/api/v2/organizations/${user.organizationId}/tool-imports`, body);
    const finished = (user: TestUser, id: number) =>
      pollUntil(
        async () => (await user.api.get(`/api/v2/organizations/${user.organizationId}/tool-imports/${id}`)).body.data,
        (data: { status: string }) => data.status === 'completed' || data.status === 'failed',
        (data) => `the import is still ${JSON.stringify(data)}`,
        { timeoutMs: 30_000 },
      );

    const preview = await owner.api.post(`${path}/preview`, { url });
    const ref = preview.body.data.document_ref as string;
    const before = fetches();
    expect((await importOf(owner, { document_ref: ref })).status).toBe(400);
    const started = await importOf(owner, { url, document_ref: ref, operations: ['listOrders'], name_prefix: 'ref_', server_url: 'https://shop.example.com' });
    expect(started.status, started.text).toBe(202);
    expect(started.body.data.url).toBe(url);
    expect(await finished(owner, started.body.data.id)).toMatchObject({ status: 'completed', imported: 1, url });
    expect(fetches()).toBe(before);

    // Used once: the same reference again, or another organization's, and the address is fetched.
    const again = await importOf(owner, { url, document_ref: ref, operations: ['listOrders'], name_prefix: 'again_', server_url: 'https://shop.example.com' });
    expect(await finished(owner, again.body.data.id)).toMatchObject({ status: 'completed', imported: 1 });
    expect(fetches()).toBe(before + 1);
    const ownersNext = (await owner.api.post(`${path}/preview`, { url })).body.data.document_ref as string;
    const elsewhere = await importOf(stranger, { url, document_ref: ownersNext, operations: ['listOrders'], server_url: 'https://shop.example.com' });
    expect(await finished(stranger, elsewhere.body.data.id)).toMatchObject({ status: 'completed', imported: 1 });
    expect(fetches()).toBe(before + 3);
    // The reference another organization named is still the owner's to use.
    const mine = await importOf(owner, { url, document_ref: ownersNext, operations: ['listOrders'], name_prefix: 'mine_', server_url: 'https://shop.example.com' });
    expect(await finished(owner, mine.body.data.id)).toMatchObject({ status: 'completed', imported: 1 });
    expect(fetches()).toBe(before + 3);
  });

  it('refuses what an import refuses: a member, another organization, no document or two, a text that is not OpenAPI, an address not allowed', async () => {
    expect((await owner.api.put('/api/v2/feature-flags/api-tools', { enabled: true })).status).toBe(200);
    expect((await member.api.post(`${path}/preview`, { document: SHOP_YAML })).status).toBe(403);
    expect((await stranger.api.post(`${path}/preview`, { document: SHOP_YAML })).status).toBe(404);
    expect((await owner.api.post(`${path}/preview`, {})).status).toBe(400);
    expect((await owner.api.post(`${path}/preview`, { document: SHOP_YAML, url: `${api.origin}/openapi.yaml` })).status).toBe(400);
    expect((await owner.api.post(`${path}/preview`, { document: SHOP_YAML, operations: ['getOrder'] })).status).toBe(400);
    const notOpenApi = await owner.api.post(`${path}/preview`, { document: 'title: a shopping list\nitems: [eggs]\n' });
    expect(notOpenApi.status).toBe(400);
    expect(notOpenApi.body.message).toMatch(/not OpenAPI/);
    const elsewhere = await owner.api.post(`${path}/preview`, { url: `${refused.origin}/openapi.yaml` });
    expect(elsewhere.status).toBe(400);
    expect(refused.connections()).toBe(0);
  });
});
