// Whole OpenAPI documents imported as tools by a job, on both databases: the document given in the
// request or fetched from its URL, polled until done, each operation imported or skipped with the
// reason and the JSON pointer (one bad operation never voids the others), the same names at every
// import of the same document (the second import skips every name already made), owners and admins
// only, the api-tools flag, another organization's import a 404, the document's bounds as settings.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './support/app.js';
import { databaseKinds } from './support/databases.js';
import { createOrganization, createUser, type TestUser } from './support/factories.js';
import { startListener, type Listener } from './support/listeners.js';
import { pollUntil } from './support/poll.js';

const SECRET = 'shop-key-0123456789';

/** A document with good operations and bad ones: a form body, a lookahead pattern, a reference to another file. */
function shop(serverUrl: string): Record<string, any> {
  return {
    openapi: '3.0.3',
    info: { title: 'Shop', version: '1' },
    servers: [{ url: serverUrl }],
    security: [{ key: [] }],
    components: { securitySchemes: { key: { type: 'apiKey', in: 'header', name: 'X-Key' } } },
    paths: {
      '/orders': {
        get: { operationId: 'listOrders', summary: 'Orders', parameters: [{ name: 'status', in: 'query', schema: { type: 'string' } }], responses: {} },
        post: { operationId: 'createOrder', requestBody: { content: { 'application/json': { schema: { type: 'object', properties: { sku: { type: 'string' } } } } } }, responses: {} },
      },
      '/orders/{id}': {
        get: { operationId: 'getOrder', parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }], responses: {} },
      },
      '/orders/{id}/invoice': {
        post: { operationId: 'uploadInvoice', parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }], requestBody: { content: { 'multipart/form-data': { schema: { type: 'object' } } } }, responses: {} },
      },
      '/search': {
        get: { operationId: 'search', parameters: [{ name: 'q', in: 'query', schema: { type: 'string', pattern: '^(?=a)b' } }], responses: {} },
      },
      '/customers': {
        post: { operationId: 'createCustomer', requestBody: { content: { 'application/json': { schema: { $ref: 'common.yaml#/Customer' } } } }, responses: {} },
      },
      '/repos/{owner}/{repo}/actions/permissions/fork-pr-contributor-approval-for-organization': {
        get: { operationId: 'actions/get-fork-pr-contributor-approval-permissions-for-organization', parameters: [{ name: 'owner', in: 'path', required: true, schema: { type: 'string' } }, { name: 'repo', in: 'path', required: true, schema: { type: 'string' } }], responses: {} },
      },
      '/repos/{owner}/{repo}/actions/permissions/fork-pr-contributor-approval-for-repository': {
        get: { operationId: 'actions/get-fork-pr-contributor-approval-permissions-for-repository', parameters: [{ name: 'owner', in: 'path', required: true, schema: { type: 'string' } }, { name: 'repo', in: 'path', required: true, schema: { type: 'string' } }], responses: {} },
      },
    },
  };
}

describe.each(databaseKinds)('tool imports (%s)', (kind) => {
  let t: TestApp;
  let api: Listener;
  let owner: TestUser;
  let member: TestUser;
  let stranger: TestUser;
  let path: string;
  const served: Record<string, string> = {};

  beforeAll(async () => {
    api = await startListener((request, response) => {
      const body = served[request.url ?? ''];
      if (body === undefined) return void response.writeHead(404).end();
      response.writeHead(200, { 'content-type': 'application/json' }).end(body);
    });
    t = await startTestApp(kind, { EGRESS_ALLOWED_HOSTS: `127.0.0.1:${api.port}`, LIMIT_TOOL_IMPORT_BYTES: String(256 * 1024) });
    const organizationId = await createOrganization(t.app);
    owner = await createUser(t.app, { organizationId, role: 'owner' });
    member = await createUser(t.app, { organizationId, role: 'member' });
    stranger = await createUser(t.app, { organizationId: await createOrganization(t.app), role: 'owner' });
    path = `/api/v2/organizations/${organizationId}/tool-imports`;
    expect((await owner.api.put('/api/v2/feature-flags/api-tools', { enabled: true })).status).toBe(200);
  });
  afterAll(async () => {
    await t?.close();
    await api?.close();
  });

  const finished = (importId: number) =>
    pollUntil(
      async () => (await owner.api.get(`${path}/${importId}`)).body.data,
      (data) => data.status === 'completed' || data.status === 'failed',
      (data) => `the import is still ${JSON.stringify(data)}`,
    );
  const report = async (importId: number, query = '') => (await owner.api.get(`${path}/${importId}/operations?page_size=100${query}`)).body.data;

  it('imports the good operations of a document given in the request, and names each bad one with its reason and JSON pointer', async () => {
    const started = await owner.api.post(path, { document: shop(`${api.origin}/v1`), name_prefix: 'shop_', secret: SECRET });
    expect(started.status, started.text).toBe(202);
    expect(started.body.data).toMatchObject({ status: 'queued', url: null, name_prefix: 'shop_', secret_hint: expect.any(String), imported: 0 });
    const done = await finished(started.body.data.id);
    expect(done).toMatchObject({ status: 'completed', operations_total: 8, operations_done: 8, imported: 5, skipped: 3, progress: 1, error: null });

    const skipped = await report(done.id, '&status=skipped');
    expect(skipped.total).toBe(3);
    expect(skipped.items).toEqual([
      expect.objectContaining({ operation: 'uploadInvoice', pointer: '/paths/~1orders~1{id}~1invoice/post/requestBody/content', reason: expect.stringMatching(/multipart\/form-data, not JSON/), tool_id: null }),
      expect.objectContaining({ operation: 'search', pointer: '/paths/~1search/get', reason: expect.stringMatching(/RE2/), details: [expect.objectContaining({ pointer: '/config/parameters/properties/q/pattern' })] }),
      expect.objectContaining({ operation: 'createCustomer', pointer: '/paths/~1customers/post/requestBody/content/application~1json/schema', reason: expect.stringMatching(/references outside the document are not followed/) }),
    ]);
    const imported = await report(done.id, '&status=imported');
    const names = imported.items.map((item: { tool_name: string }) => item.tool_name);
    expect(names.slice(0, 3)).toEqual(['shop_listOrders', 'shop_createOrder', 'shop_getOrder']);
    // Two long names that differ only at their end stay apart, readable, within 64 characters.
    const [forOrganization, forRepository] = names.slice(3) as [string, string];
    expect(forOrganization).toMatch(/^shop_actions_get-fork-pr_[0-9a-f]{6}_.*-for-organization$/);
    expect(forRepository).toMatch(/^shop_actions_get-fork-pr_[0-9a-f]{6}_.*-for-repository$/);
    for (const name of names) expect(name).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);

    const tool = (await owner.api.get(`/api/v2/organizations/${owner.organizationId}/tools/${imported.items[2].tool_id}`)).body.data;
    expect(tool).toMatchObject({ name: 'shop_getOrder', kind: 'api', secret_hint: expect.any(String), config: { method: 'GET', url: `${api.origin}/v1/orders/{id}`, auth: { type: 'api_key', in: 'header', name: 'X-Key' } } });
  });

  it('fetches a document from its URL, and gives the same names again: a second import skips every one already made', async () => {
    served['/shop.json'] = JSON.stringify(shop(`${api.origin}/v1`));
    const started = await owner.api.post(path, { url: `${api.origin}/shop.json`, name_prefix: 'shop_', secret: SECRET, operations: ['listOrders', 'GET /orders/{id}', 'actions/get-fork-pr-contributor-approval-permissions-for-repository'] });
    expect(started.status, started.text).toBe(202);
    const done = await finished(started.body.data.id);
    expect(done).toMatchObject({ status: 'completed', url: `${api.origin}/shop.json`, operations_total: 3, imported: 0, skipped: 3 });
    const { items } = await report(done.id);
    expect(items.map((item: { reason: string }) => item.reason)).toEqual([
      'A tool named "shop_listOrders" already exists in the organization',
      'A tool named "shop_getOrder" already exists in the organization',
      expect.stringMatching(/^A tool named "shop_actions_get-fork-pr_[0-9a-f]{6}_.*-for-repository" already exists in the organization$/),
    ]);
  });

  it('fails an import whose document cannot be read, with the reason', async () => {
    const started = await owner.api.post(path, { url: `${api.origin}/missing.json` });
    expect(started.status).toBe(202);
    expect(await finished(started.body.data.id)).toMatchObject({ status: 'failed', error: expect.stringMatching(/answered HTTP 404/), imported: 0 });
    // An address the egress rules refuse is refused when the job fetches it: nothing reaches it.
    const internal = await startListener();
    try {
      const refused = await owner.api.post(path, { url: `${internal.origin}/openapi.json` });
      expect(await finished(refused.body.data.id)).toMatchObject({ status: 'failed', error: expect.stringMatching(/loopback address/) });
      expect(internal.connections()).toBe(0);
    } finally {
      await internal.close();
    }
    const notOpenApi = await owner.api.post(path, { document: { info: { title: 'x' }, paths: {} } });
    expect(await finished(notOpenApi.body.data.id)).toMatchObject({ status: 'failed', error: expect.stringMatching(/not OpenAPI 3\.0, 3\.1 or Swagger 2\.0/) });
  });

  it('refuses bad requests with a 4xx and queues nothing', async () => {
    const before = (await owner.api.get(path)).body.data.total;
    const both = await owner.api.post(path, { document: shop('https://x.example.com'), url: 'https://x.example.com/a.json' });
    expect(both.status).toBe(400);
    expect(both.body.error.details[0].pointer).toBe('/body');
    expect((await owner.api.post(path, {})).status).toBe(400);
    const empty = await owner.api.post(path, { document: '' });
    expect(empty.status).toBe(400);
    expect(empty.body.error.details).toEqual([{ pointer: '/body/document', message: 'must not be empty' }]);
    const huge = await owner.api.post(path, { document: { ...shop('https://x.example.com'), padding: 'x'.repeat(300 * 1024) } });
    expect(huge.status).toBe(413);
    expect(huge.body.error.code).toBe('payload_too_large');
    expect((await owner.api.get(path)).body.data.total).toBe(before);
  });

  it('is for owners and admins of the organization, with the api-tools flag on', async () => {
    const mine = (await owner.api.get(path)).body.data.items[0].id;
    expect((await member.api.post(path, { document: shop('https://x.example.com') })).status).toBe(403);
    expect((await member.api.get(`${path}/${mine}`)).status).toBe(403);
    const theirs = `/api/v2/organizations/${stranger.organizationId}/tool-imports/${mine}`;
    expect((await stranger.api.get(theirs)).status).toBe(404);
    expect((await stranger.api.get(`${theirs}/operations`)).status).toBe(404);
    expect((await stranger.api.post(path, { document: shop('https://x.example.com') })).status).toBe(404);
    expect((await stranger.api.post(`/api/v2/organizations/${stranger.organizationId}/tool-imports`, { document: shop('https://x.example.com') })).body.error.code).toBe('feature_disabled');
  });
});
