// API tools imported from OpenAPI documents on both databases: OpenAPI 3 with $refs (schemas,
// parameters, nested and recursive request bodies, security schemes), Swagger 2, YAML, a document
// fetched from a URL through the egress rules; the imported tools run against a loopback service;
// malformed, huge and hostile documents (YAML aliases, references that multiply, references outside
// the document) answered with a clear 4xx and nothing made.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify as toYaml } from 'yaml';
import { startTestApp, type TestApp } from './support/app.js';
import { databaseKinds } from './support/databases.js';
import { createOrganization, createUser, type TestUser } from './support/factories.js';
import { startListener, type Listener } from './support/listeners.js';

const SECRET = 'petstore-key-0123456789';

function petstore(serverUrl: string): Record<string, any> {
  return {
    openapi: '3.0.3',
    info: { title: 'Petstore', version: '1.0.0' },
    servers: [{ url: serverUrl }],
    security: [{ apiKey: [] }],
    paths: {
      '/pets': {
        get: {
          operationId: 'listPets',
          summary: 'List pets',
          parameters: [{ $ref: '#/components/parameters/Limit' }, { $ref: '#/components/parameters/TraceId' }, { $ref: '#/components/parameters/Session' }, { name: 'filter[status]', in: 'query', schema: { type: 'string', enum: ['available', 'sold'] } }],
          responses: { 200: { description: 'Pets' } },
        },
        post: {
          operationId: 'createPet',
          summary: 'Add a pet',
          description: 'Adds a pet to the store.',
          requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/NewPet' } } } },
          responses: { 201: { description: 'Created' } },
        },
      },
      '/pets/{petId}': {
        parameters: [{ name: 'petId', in: 'path', required: true, schema: { type: 'integer', format: 'int64', minimum: 1, exclusiveMinimum: false } }],
        get: { operationId: 'getPet', summary: 'One pet', responses: { 200: { description: 'A pet' } } },
        delete: { operationId: 'deletePet', security: [{ bearer: [] }], responses: { 204: { description: 'Deleted' } } },
      },
      '/pets/{petId}/tags': {
        put: {
          operationId: 'replaceTags',
          parameters: [{ name: 'petId', in: 'path', required: true, schema: { type: 'integer' } }],
          requestBody: { required: true, content: { 'application/json': { schema: { type: 'array', items: { type: 'string' } } } } },
          responses: { 200: { description: 'Tags' } },
        },
      },
      '/trees': {
        post: { operationId: 'createTree', security: [], requestBody: { content: { 'application/json': { schema: { $ref: '#/components/schemas/Node' } } } }, responses: { 201: { description: 'Tree' } } },
      },
      '/upload': {
        post: { operationId: 'uploadPhoto', requestBody: { content: { 'multipart/form-data': { schema: { type: 'object', properties: { file: { type: 'string', format: 'binary' } } } } } }, responses: { 200: { description: 'ok' } } },
      },
    },
    components: {
      securitySchemes: { apiKey: { type: 'apiKey', in: 'header', name: 'X-Api-Key' }, bearer: { type: 'http', scheme: 'bearer' } },
      parameters: {
        Limit: { name: 'limit', in: 'query', description: 'Most pets', schema: { type: 'integer', maximum: 100, nullable: true } },
        TraceId: { name: 'X-Trace-Id', in: 'header', schema: { type: 'string' } },
        Session: { name: 'session', in: 'cookie', schema: { type: 'string' } },
      },
      schemas: {
        Address: { type: 'object', properties: { street: { type: 'string' }, city: { type: 'string', example: 'Lyon' } }, required: ['city'] },
        Owner: { type: 'object', properties: { name: { type: 'string' }, address: { $ref: '#/components/schemas/Address' } } },
        NewPet: { type: 'object', required: ['name'], properties: { name: { type: 'string' }, tag: { type: 'string' }, owner: { $ref: '#/components/schemas/Owner' } }, xml: { name: 'pet' } },
        Node: { type: 'object', properties: { label: { type: 'string' }, children: { type: 'array', items: { $ref: '#/components/schemas/Node' } } } },
      },
    },
  };
}

const swagger2 = (host: string) => `
swagger: "2.0"
info: { title: Orders, version: "2" }
host: ${host}
basePath: /v2
schemes: [http]
securityDefinitions:
  basicAuth: { type: basic }
security:
  - basicAuth: []
paths:
  /orders/{orderId}:
    get:
      operationId: getOrder
      parameters:
        - { name: orderId, in: path, required: true, type: integer }
        - { name: expand, in: query, type: array, items: { type: string }, collectionFormat: multi }
  /orders:
    post:
      operationId: placeOrder
      parameters:
        - in: body
          name: order
          required: true
          schema: { $ref: "#/definitions/Order" }
  /forms:
    post:
      operationId: submitForm
      consumes: [application/x-www-form-urlencoded]
      parameters:
        - { name: field, in: formData, type: string }
definitions:
  Item: { type: object, properties: { sku: { type: string }, quantity: { type: integer, minimum: 1 } }, required: [sku] }
  Order:
    type: object
    required: [items]
    properties:
      items: { type: array, items: { $ref: "#/definitions/Item" } }
      shipping: { type: object, properties: { address: { type: string }, express: { type: boolean } } }
`;

describe.each(databaseKinds)('API tools from OpenAPI documents (%s)', (kind) => {
  let t: TestApp;
  let api: Listener;
  let internal: Listener;
  let owner: TestUser;
  let path: string;
  const received: { method: string; url: string; headers: Record<string, unknown>; body: string }[] = [];
  const served: Record<string, string> = {};
  let sequence = 0;
  const prefix = () => `p${++sequence}_`;

  beforeAll(async () => {
    api = await startListener((request, response, body) => {
      const url = request.url ?? '/';
      if (served[url] !== undefined) return void response.writeHead(200, { 'content-type': url.endsWith('.yaml') ? 'application/yaml' : 'application/json' }).end(served[url]);
      received.push({ method: request.method ?? '', url, headers: request.headers, body: body.toString('utf8') });
      response.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
    internal = await startListener();
    // The import's bounds are settings: set low here so that a test can go past them cheaply.
    t = await startTestApp(kind, { EGRESS_ALLOWED_HOSTS: `127.0.0.1:${api.port}`, LIMIT_TOOL_IMPORT_BYTES: String(2 * 1024 * 1024), LIMIT_TOOL_IMPORT_OPERATIONS: '2000' });
    owner = await createUser(t.app, { organizationId: await createOrganization(t.app), role: 'owner' });
    path = `/api/v2/organizations/${owner.organizationId}/tools`;
    expect((await owner.api.put('/api/v2/feature-flags/api-tools', { enabled: true })).status).toBe(200);
  });
  afterAll(async () => {
    await t?.close();
    await api?.close();
    await internal?.close();
  });

  const importTools = (openapi: Record<string, unknown>, extra: Record<string, unknown> = {}) => owner.api.post(`${path}/api`, { openapi, ...extra });
  const total = async () => (await owner.api.get(path)).body.data.total as number;
  const byName = (items: any[], name: string) => items.find((item) => item.name === name)!;

  it('imports chosen operations of an OpenAPI 3 document, $refs resolved, parameters placed, nested bodies kept', async () => {
    const reply = await importTools({ document: petstore(`${api.origin}/v1`), operations: ['listPets', 'createPet', 'GET /pets/{petId}', 'replaceTags'] }, { secret: SECRET });
    expect(reply.status, reply.text).toBe(201);
    const items = reply.body.data.items;
    expect(items.map((item: { name: string }) => item.name)).toEqual(['listPets', 'createPet', 'getPet', 'replaceTags']);
    expect(items.every((item: any) => item.kind === 'api' && item.secret_hint === 'pet…6789')).toBe(true);

    const list = byName(items, 'listPets');
    expect(list.description).toBe('List pets');
    expect(list.config).toMatchObject({ method: 'GET', url: `${api.origin}/v1/pets`, auth: { type: 'api_key', in: 'header', name: 'X-Api-Key' } });
    expect(list.config.parameters.properties).toEqual({
      limit: { type: ['integer', 'null'], maximum: 100, description: 'Most pets' },
      'X-Trace-Id': { type: 'string' },
      session: { type: 'string' },
      filter_status: { type: 'string', enum: ['available', 'sold'] },
    });
    expect(list.config.locations).toEqual({
      limit: { in: 'query', name: 'limit' },
      'X-Trace-Id': { in: 'header', name: 'X-Trace-Id' },
      session: { in: 'cookie', name: 'session' },
      filter_status: { in: 'query', name: 'filter[status]' },
    });

    const create = byName(items, 'createPet');
    expect(create.description).toBe('Add a pet. Adds a pet to the store.');
    expect(create.config.parameters).toEqual({
      type: 'object',
      properties: {
        name: { type: 'string' },
        tag: { type: 'string' },
        owner: { type: 'object', properties: { name: { type: 'string' }, address: { type: 'object', properties: { street: { type: 'string' }, city: { type: 'string' } }, required: ['city'] } } },
      },
      required: ['name'],
    });
    expect(create.config.locations).toEqual({ name: { in: 'body', name: 'name' }, tag: { in: 'body', name: 'tag' }, owner: { in: 'body', name: 'owner' } });

    const get = byName(items, 'getPet');
    expect(get.config).toMatchObject({ url: `${api.origin}/v1/pets/{petId}`, parameters: { properties: { petId: { type: 'integer', format: 'int64', minimum: 1 } }, required: ['petId'] } });
    const tags = byName(items, 'replaceTags');
    expect(tags.config).toMatchObject({ method: 'PUT', body: '{{body}}', locations: { petId: { in: 'path', name: 'petId' }, body: 'body' } });

    // The imported tools run: nested bodies and path parameters go where the document says.
    const created = await owner.api.post(`${path}/${create.id}/test`, { input: { name: 'Rex', owner: { name: 'Ann', address: { city: 'Lyon' } } } });
    expect(created.body.data, created.text).toMatchObject({ status: 'ok', http_status: 200, output: '{"ok":true}' });
    expect(received.at(-1)).toMatchObject({ method: 'POST', url: '/v1/pets', body: JSON.stringify({ name: 'Rex', owner: { name: 'Ann', address: { city: 'Lyon' } } }) });
    expect(received.at(-1)!.headers['x-api-key']).toBe(SECRET);
    expect(created.body.data.request.headers['x-api-key']).toBe('****');
    await owner.api.post(`${path}/${tags.id}/test`, { input: { petId: 7, body: ['friendly', 'small'] } });
    expect(received.at(-1)).toMatchObject({ method: 'PUT', url: '/v1/pets/7/tags', body: '["friendly","small"]' });
    const listed = await owner.api.post(`${path}/${list.id}/test`, { input: { limit: 2, 'X-Trace-Id': 't-1', session: 'abc', filter_status: 'sold' } });
    expect(listed.body.data.status).toBe('ok');
    expect(received.at(-1)).toMatchObject({ url: '/v1/pets?limit=2&filter%5Bstatus%5D=sold', headers: { 'x-trace-id': 't-1', cookie: 'session=abc' } });
  });

  it('cuts a schema that contains itself, takes each operation’s own security, and applies name_prefix and server_url', async () => {
    const reply = await importTools({ document: petstore('https://petstore.example.com/v1'), operations: ['createTree', 'deletePet'], name_prefix: 'shop_', server_url: `${api.origin}/v9` }, { secret: SECRET });
    expect(reply.status, reply.text).toBe(201);
    const [tree, remove] = reply.body.data.items;
    expect(tree).toMatchObject({ name: 'shop_createTree', config: { url: `${api.origin}/v9/trees`, auth: { type: 'none' } } });
    expect(tree.config.parameters.properties.children.items).toEqual({ description: '(the same structure again, recursively)' });
    expect(remove).toMatchObject({ name: 'shop_deletePet', description: 'DELETE /pets/{petId}', config: { method: 'DELETE', auth: { type: 'bearer' } } });
  });

  it('imports a Swagger 2 document given as YAML: host, basePath, body parameters, basic authentication', async () => {
    const reply = await importTools({ document: swagger2(`127.0.0.1:${api.port}`), operations: ['getOrder', 'placeOrder'], name_prefix: prefix() }, { secret: SECRET });
    expect(reply.status, reply.text).toBe(201);
    const [getOrder, placeOrder] = reply.body.data.items;
    expect(getOrder.config).toMatchObject({ url: `${api.origin}/v2/orders/{orderId}`, auth: { type: 'basic', username: '' } });
    expect(getOrder.config.parameters.properties).toEqual({ orderId: { type: 'integer' }, expand: { type: 'array', items: { type: 'string' } } });
    expect(placeOrder.config.parameters).toEqual({
      type: 'object',
      properties: {
        items: { type: 'array', items: { type: 'object', properties: { sku: { type: 'string' }, quantity: { type: 'integer', minimum: 1 } }, required: ['sku'] } },
        shipping: { type: 'object', properties: { address: { type: 'string' }, express: { type: 'boolean' } } },
      },
      required: ['items'],
    });
    const run = await owner.api.post(`${path}/${getOrder.id}/test`, { input: { orderId: 5, expand: ['lines', 'customer'] } });
    expect(run.body.data.status).toBe('ok');
    expect(received.at(-1)).toMatchObject({ url: '/v2/orders/5?expand=lines&expand=customer', headers: { authorization: `Basic ${Buffer.from(`:${SECRET}`).toString('base64')}` } });
    const form = await importTools({ document: swagger2(`127.0.0.1:${api.port}`), operations: ['submitForm'] });
    expect(form.status).toBe(400);
    expect(form.body.message).toMatch(/submitForm takes a form/);
  });

  it('fetches a document from a URL through the egress rules, and resolves a relative server against it', async () => {
    served['/specs/petstore.yaml'] = toYaml(petstore('/v3'));
    const reply = await importTools({ url: `${api.origin}/specs/petstore.yaml`, operations: ['getPet'], name_prefix: prefix() }, { secret: SECRET });
    expect(reply.status, reply.text).toBe(201);
    expect(reply.body.data.items[0].config.url).toBe(`${api.origin}/v3/pets/{petId}`);
    const refused = await importTools({ url: `${internal.origin}/openapi.json` });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toMatch(/loopback address/);
    expect(internal.connections()).toBe(0);
  });

  it('makes every operation when none is chosen, and the good ones when one cannot be made, naming it with its pointer', async () => {
    const small = { openapi: '3.1.0', info: { title: 'Small', version: '1' }, servers: [{ url: `${api.origin}` }], paths: { '/a': { get: { operationId: 'getA', responses: {} } }, '/b': { get: { responses: {} } } } };
    const reply = await importTools({ document: small, name_prefix: prefix() });
    expect(reply.status, reply.text).toBe(201);
    expect(reply.body.data.items.map((item: { name: string }) => item.name)).toEqual([`p${sequence}_getA`, `p${sequence}_get_b`]);
    const before = await total();
    const withUpload = await importTools({ document: petstore(`${api.origin}/v1`), operations: ['getPet', 'uploadPhoto'], name_prefix: prefix() }, { secret: SECRET });
    expect(withUpload.status, withUpload.text).toBe(201);
    expect(withUpload.body.data.items.map((item: { name: string }) => item.name)).toEqual([`p${sequence}_getPet`]);
    expect(withUpload.body.data.skipped).toEqual([
      expect.objectContaining({ operation: 'uploadPhoto', method: 'POST', path: '/upload', status: 'skipped', pointer: '/paths/~1upload/post/requestBody/content', tool_id: null, reason: expect.stringMatching(/uploadPhoto takes multipart\/form-data, not JSON/) }),
    ]);
    expect(await total()).toBe(before + 1);
    const onlyBad = await importTools({ document: petstore(`${api.origin}/v1`), operations: ['uploadPhoto'], name_prefix: prefix() }, { secret: SECRET });
    expect(onlyBad.status).toBe(400);
    expect(onlyBad.body.message).toMatch(/uploadPhoto takes multipart\/form-data, not JSON/);
    expect(await total()).toBe(before + 1);
  });

  it('skips an operation whose name is taken in the organization and makes the others; 409 when every one is taken', async () => {
    const first = await importTools({ document: petstore(`${api.origin}/v1`), operations: ['getPet'], name_prefix: 'dup_' }, { secret: SECRET });
    expect(first.status).toBe(201);
    const before = await total();
    const again = await importTools({ document: petstore(`${api.origin}/v1`), operations: ['listPets', 'getPet'], name_prefix: 'dup_' }, { secret: SECRET });
    expect(again.status, again.text).toBe(201);
    expect(again.body.data.items.map((item: { name: string }) => item.name)).toEqual(['dup_listPets']);
    expect(again.body.data.skipped).toEqual([expect.objectContaining({ operation: 'getPet', pointer: '/paths/~1pets~1{petId}/get', reason: 'A tool named "dup_getPet" already exists in the organization' })]);
    expect(await total()).toBe(before + 1);
    const allTaken = await importTools({ document: petstore(`${api.origin}/v1`), operations: ['listPets', 'getPet'], name_prefix: 'dup_' }, { secret: SECRET });
    expect(allTaken.status).toBe(409);
    expect(await total()).toBe(before + 1);
  });

  const ops = (count: number) => Object.fromEntries(Array.from({ length: count }, (_, i) => [`/r${i}`, { get: { operationId: `op${i}`, responses: {} } }]));
  const bomb = ['a: &a ["x","x","x","x","x","x","x","x","x"]', ...'bcdefghi'.split('').map((name, i) => `${name}: &${name} [${Array(9).fill(`*${'abcdefgh'[i]}`).join(',')}]`)].join('\n');
  const multiplying = Object.fromEntries(Array.from({ length: 25 }, (_, i) => [`S${i}`, { type: 'object', properties: { left: { $ref: `#/components/schemas/S${i + 1}` }, right: { $ref: `#/components/schemas/S${i + 1}` } } }]));

  it.each([
    ['text that is neither JSON nor YAML', { document: '{ "openapi": "3.0.0", ' }, 400, /neither JSON nor YAML/],
    ['a document without a version', { document: { info: { title: 'x' }, paths: {} } }, 400, /not OpenAPI 3\.0, 3\.1 or Swagger 2\.0/],
    ['a document without paths', { document: { openapi: '3.0.0', info: { title: 'x', version: '1' } } }, 400, /no paths/],
    ['an unknown operation', { document: petstore('https://x.example.com'), operations: ['getPet', 'fly'] }, 400, /no operation "fly"/],
    ['a document and a URL at once', { document: petstore('https://x.example.com'), url: 'https://x.example.com/openapi.json' }, 400, /either/],
    ['a server at a private address', { document: petstore('http://10.0.0.7/v1'), operations: ['getPet'] }, 400, /private address/],
    ['a document without a server', { document: { ...petstore(''), servers: undefined }, operations: ['getPet'] }, 400, /names no server/],
    ['a YAML alias bomb', { document: bomb }, 400, /Excessive alias count/],
    ['YAML nested ten thousand levels deep', { document: `${'- '.repeat(10_000)}x` }, 400, /nests deeper|neither JSON nor YAML/],
    ['more than 50 operations without a choice', { document: { openapi: '3.0.0', info: { title: 'x', version: '1' }, servers: [{ url: 'https://x.example.com' }], paths: ops(60) } }, 400, /choose at most 50/],
    ['more than 2000 operations', { document: { openapi: '3.0.0', info: { title: 'x', version: '1' }, paths: ops(2001) }, operations: ['op1'] }, 413, /2001 operations/],
    [
      'references that multiply',
      { document: { openapi: '3.0.0', info: { title: 'x', version: '1' }, servers: [{ url: 'https://x.example.com' }], paths: { '/m': { post: { operationId: 'm', requestBody: { content: { 'application/json': { schema: { $ref: '#/components/schemas/S0' } } } }, responses: {} } } }, components: { schemas: { ...multiplying, S25: { type: 'string' } } } } },
      413,
      /expand to more than/,
    ],
  ])('refuses %s', async (_label, openapi, status, message) => {
    const before = await total();
    const reply = await importTools(openapi);
    expect(reply.status, reply.text).toBe(status);
    expect(reply.body.message).toMatch(message);
    expect(await total()).toBe(before);
  });

  it('follows no reference outside the document: the import is refused and the address receives nothing', async () => {
    const document = petstore(`${api.origin}/v1`);
    document.components.schemas.NewPet.properties.owner = { $ref: `${internal.origin}/owner.json` };
    document.components.schemas.Address = { $ref: '/etc/passwd' };
    const reply = await importTools({ document, operations: ['createPet'], name_prefix: prefix() }, { secret: SECRET });
    expect(reply.status).toBe(400);
    expect(reply.body.message).toMatch(/references outside the document are not followed/);
    expect(internal.connections()).toBe(0);
  });

  it('refuses a document larger than 2 MiB at its URL with a 413', async () => {
    served['/specs/huge.json'] = JSON.stringify({ ...petstore(api.origin), padding: 'x'.repeat(3 * 1024 * 1024) });
    const reply = await importTools({ url: `${api.origin}/specs/huge.json`, operations: ['getPet'] });
    expect(reply.status).toBe(413);
    expect(reply.body.error.code).toBe('payload_too_large');
  });
});
