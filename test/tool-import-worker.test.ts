// The reading of an OpenAPI document in a thread (readDocumentOperations) gives exactly what reading
// it on the event loop gave: the same operations, the same tool settings and names, the same
// refusals with their pointers, for a small document with bad operations, a Swagger 2 YAML one and
// GitHub's whole description; a run taken again skips what was recorded. The thread's bounds end a
// reading with a reason for the user (memory, time), and a stop of the caller ends it.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { AppError } from '../src/errors.js';
import { parseOpenApiDocument } from '../src/tools/api/openapi/document.js';
import { importOperations, type OperationResult } from '../src/tools/api/openapi/import-plan.js';
import { chooseOperations } from '../src/tools/api/openapi/operations.js';
import { readDocumentOperations, type ReadOptions } from '../src/tools/api/openapi/operations-reader.js';
import type { EgressClient } from '../src/net/egress.js';

const GITHUB = 'node_modules/@octokit/openapi/generated/api.github.com.json';
const LIMITS = { bytes: 32 * 1024 * 1024, operations: 5_000, dereferenceTimeoutMs: 60_000 };
const IMPORT = { serverUrl: undefined, namePrefix: 'x_', maxSchemaParts: 5_000 };
/** Never called: the documents are given, not fetched. */
const noEgress = {} as EgressClient;

const shop = {
  openapi: '3.0.3',
  info: { title: 'Shop', version: '1' },
  servers: [{ url: 'https://shop.example.com/v1' }],
  security: [{ key: [] }],
  components: {
    securitySchemes: { key: { type: 'apiKey', in: 'header', name: 'X-Key' } },
    schemas: { Order: { type: 'object', properties: { sku: { type: 'string' }, lines: { type: 'array', items: { $ref: '#/components/schemas/Order' } } } } },
  },
  paths: {
    '/orders': {
      get: { operationId: 'listOrders', summary: 'Orders', parameters: [{ name: 'status', in: 'query', schema: { type: 'string', nullable: true } }], responses: {} },
      post: { operationId: 'createOrder', requestBody: { content: { 'application/json': { schema: { $ref: '#/components/schemas/Order' } } } }, responses: {} },
    },
    '/orders/{id}/invoice': {
      post: { operationId: 'uploadInvoice', requestBody: { content: { 'multipart/form-data': { schema: { type: 'object' } } } }, responses: {} },
    },
    '/customers': { post: { operationId: 'createCustomer', requestBody: { content: { 'application/json': { schema: { $ref: 'common.yaml#/Customer' } } } }, responses: {} } },
    '/things': { options: { operationId: 'thingOptions', responses: {} } },
  },
};

const swaggerYaml = `swagger: "2.0"
info: { title: Pets, version: "1" }
host: pets.example.com
basePath: /api
schemes: [https]
securityDefinitions: { basic: { type: basic } }
security: [{ basic: [] }]
paths:
  /pets:
    post:
      operationId: addPet
      parameters:
        - { name: body, in: body, required: true, schema: { type: object, required: [name], properties: { name: { type: string } } } }
      responses: { "200": { description: ok } }
  /pets/{id}:
    get:
      parameters: [{ name: id, in: path, required: true, type: integer }]
      responses: { "200": { description: ok } }
`;

/** What reading on the event loop gave, before the thread: the same three steps in process. */
async function inProcess(source: { text?: string; document?: unknown }, chosen?: string[]): Promise<OperationResult[]> {
  const document = await parseOpenApiDocument(source, LIMITS);
  return [...importOperations(document, chooseOperations(document, chosen, Number.POSITIVE_INFINITY), { ...IMPORT, sourceUrl: undefined })];
}

async function inThread(document: unknown, options: Partial<ReadOptions> = {}): Promise<{ total: number; results: OperationResult[] }> {
  const reading = await readDocumentOperations({ document }, noEgress, { limits: LIMITS, fetchTimeoutMs: 1_000, chosen: undefined, maxTools: Number.POSITIVE_INFINITY, importOptions: IMPORT, ...options });
  const results: OperationResult[] = [];
  try {
    for (let batch = await reading.next(); batch.length > 0; batch = await reading.next()) results.push(...batch);
  } finally {
    await reading.close();
  }
  return { total: reading.total, results };
}

/** A result with its refusal as what a client sees of it (status, code, message, details). */
const comparable = ({ refusal, ...result }: OperationResult) => ({ ...result, ...(refusal ? { refusal: { status: refusal.status, code: refusal.code, message: refusal.message, details: refusal.details } } : {}) });

async function refusalOf(work: Promise<unknown>): Promise<AppError> {
  const error = await work.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

describe('an OpenAPI document read in a thread', () => {
  it('gives the same operations, settings, names and refusals as reading it on the event loop', async () => {
    const expected = await inProcess({ document: structuredClone(shop) });
    const { total, results } = await inThread(shop);
    expect(total).toBe(5);
    expect(results.map(comparable)).toEqual(expected.map(comparable));
    expect(results.map((result) => result.refusal?.message ?? result.imported!.name)).toEqual([
      'x_listOrders',
      'x_createOrder',
      expect.stringMatching(/multipart\/form-data, not JSON/),
      expect.stringMatching(/references outside the document are not followed/),
      expect.stringMatching(/uses OPTIONS/),
    ]);
    // The refusals cross the thread as the errors they were: a 400 with its status and code.
    expect(results[2]!.refusal).toBeInstanceOf(AppError);
    expect(results[2]!.refusal).toMatchObject({ status: 400, code: 'bad_request' });

    const yaml = await inThread(swaggerYaml);
    expect(yaml.results.map(comparable)).toEqual((await inProcess({ text: swaggerYaml })).map(comparable));
    expect(yaml.results[1]!.imported!.config).toMatchObject({ method: 'GET', url: 'https://pets.example.com/api/pets/{id}', auth: { type: 'basic' } });
  });

  it('gives the chosen operations only, and skips those an earlier run recorded', async () => {
    const chosen = ['createOrder', 'listOrders', 'POST /customers'];
    const expected = (await inProcess({ document: structuredClone(shop) }, chosen)).map(comparable);
    const whole = await inThread(shop, { chosen });
    expect(whole.results.map(comparable)).toEqual(expected);
    const resumed = await inThread(shop, { chosen, skip: 2 });
    expect(resumed.total).toBe(3);
    expect(resumed.results.map(comparable)).toEqual(expected.slice(2));
  });

  it('gives the same tools and refusals for GitHub’s whole description', { timeout: 120_000 }, async () => {
    const text = readFileSync(GITHUB, 'utf8');
    const expected = (await inProcess({ text })).map(comparable);
    const { total, results } = await inThread(Buffer.from(text));
    expect(total).toBe(expected.length);
    expect(total).toBeGreaterThan(1100);
    expect(results.map(comparable)).toEqual(expected);
    expect(results.filter((result) => result.refusal).map((result) => result.operation).sort()).toEqual(['markdown/render-raw', 'repos/upload-release-asset']);
  });

  it('refuses a document that cannot be read with the reason, as on the event loop', async () => {
    expect(await refusalOf(inThread('{ "info": {} }'))).toMatchObject({ status: 400, message: expect.stringMatching(/not OpenAPI 3\.0, 3\.1 or Swagger 2\.0/) });
    expect(await refusalOf(inThread('a: [b')).then((error) => error.message)).toMatch(/neither JSON nor YAML/);
    expect(await refusalOf(inThread(shop, { chosen: ['nope'] }))).toMatchObject({ status: 400, details: [{ pointer: '/body/openapi/operations/0' }] });
    expect(await refusalOf(inThread(shop, { limits: { ...LIMITS, operations: 2 } }))).toMatchObject({ status: 413 });
  });

  it('fails a reading past the thread’s memory or time with the reason, and ends it when the caller stops', { timeout: 120_000 }, async () => {
    const github = readFileSync(GITHUB);
    const memory = await refusalOf(inThread(github, { heapMb: 32 }));
    expect(memory).toMatchObject({ status: 413, message: 'Reading the OpenAPI document needs more than 32 MB of memory, the limit' });
    const time = await refusalOf(inThread(github, { deadlineMs: 50 }));
    expect(time).toMatchObject({ status: 413, message: 'Reading the OpenAPI document took longer than 50 ms, the limit' });

    const stop = new AbortController();
    const stopped = inThread(github, { signal: stop.signal });
    stop.abort(new Error('the worker is stopping'));
    await expect(stopped).rejects.toThrow('the worker is stopping');
    // A thread ended by any of these is not used again: the next reading works.
    expect((await inThread(shop)).total).toBe(5);
  });
});
