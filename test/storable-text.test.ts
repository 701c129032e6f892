// Text PostgreSQL cannot store (the NUL character) is a 400 on every route, on both databases, before
// login too, and changes nothing. The routes are taken from the app's own OpenAPI document, so a route
// added later is covered without a line here.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pointersToUnstorableText } from '../src/http/storable-text.js';
import { startTestApp, type TestApp } from './support/app.js';
import { databaseKinds } from './support/databases.js';
import { createAgent, createUser, type TestUser } from './support/factories.js';
import { request } from './support/http.js';
import { createCorpus, uploadFiles } from './support/corpora.js';

interface Operation {
  method: string;
  path: string;
  bodyStrings: string[];
  queryStrings: string[];
}

type Schema = { type?: string; properties?: Record<string, Schema>; anyOf?: Schema[] };

const isString = (schema: Schema) => schema.type === 'string' || (schema.anyOf ?? []).some((option) => option.type === 'string');

function operationsOf(document: unknown): Operation[] {
  const paths = (document as { paths: Record<string, Record<string, any>> }).paths;
  const operations: Operation[] = [];
  for (const [path, item] of Object.entries(paths)) {
    for (const [method, operation] of Object.entries(item)) {
      const body: Schema | undefined = operation.requestBody?.content?.['application/json']?.schema;
      const bodyStrings = Object.entries(body?.properties ?? {}).filter(([, schema]) => isString(schema)).map(([name]) => name);
      const queryStrings = (operation.parameters ?? [])
        .filter((parameter: any) => parameter.in === 'query' && isString(parameter.schema ?? {}))
        .map((parameter: any) => parameter.name as string);
      operations.push({ method: method.toUpperCase(), path: path.replace(/\{[^}]+\}/g, '1'), bodyStrings, queryStrings });
    }
  }
  return operations;
}

describe('pointersToUnstorableText', () => {
  it('names every string and key that holds a NUL, and nothing else', () => {
    const found = pointersToUnstorableText({ name: 'a\u0000', tags: ['ok', '\u0000'], nested: { 'k\u0000': 1, fine: 'yes' } }, '/body');
    expect(found.map((detail) => detail.pointer)).toEqual(['/body/name', '/body/tags/1', '/body/nested/k\\u0000']);
    expect(pointersToUnstorableText({ text: 'ordinary text é ✓', n: 3, flag: true, none: null }, '/body')).toEqual([]);
  });
});

describe.each(databaseKinds)('text a database cannot store (%s)', (kind) => {
  let t: TestApp;
  let owner: TestUser;
  let agentId: number;

  beforeAll(async () => {
    t = await startTestApp(kind);
    owner = await createUser(t.app, { role: 'owner' });
    agentId = (await createAgent(owner, { name: 'Steady' })).id;
  });
  afterAll(() => t.close());

  it('every operation with a JSON body answers 400 for a NUL in any of its text fields', async () => {
    const operations = operationsOf(t.app.swagger()).filter((operation) => operation.bodyStrings.length > 0);
    expect(operations.length).toBeGreaterThan(20);
    for (const operation of operations) {
      for (const field of operation.bodyStrings) {
        const reply = await request(t.app, operation.method, operation.path, { [field]: 'before\u0000after' }, { token: owner.token });
        expect(reply.status, `${operation.method} ${operation.path} ${field}`).toBe(400);
        expect(reply.body.error.details).toContainEqual({ pointer: `/body/${field}`, message: expect.stringContaining('NUL') });
      }
    }
  });

  it('every text query parameter answers 400 for %00, with or without credentials', async () => {
    const operations = operationsOf(t.app.swagger()).filter((operation) => operation.queryStrings.length > 0);
    expect(operations.length).toBeGreaterThan(3);
    for (const operation of operations) {
      for (const name of operation.queryStrings) {
        for (const token of [owner.token, undefined]) {
          const reply = await request(t.app, operation.method, `${operation.path}?${name}=x%00y`, undefined, { token });
          expect(reply.status, `${operation.method} ${operation.path}?${name}`).toBe(400);
          expect(reply.body.error.details[0].pointer).toBe(`/query/${name}`);
        }
      }
    }
  });

  it('the login e-mail, names, instructions and keys are refused and nothing changes', async () => {
    const login = await request(t.app, 'POST', '/api/v2/auth/login', { email: 'owner@example.com\u0000', password: 'whatever it is' });
    expect(login.status).toBe(400);
    expect(login.body.error.details[0].pointer).toBe('/body/email');

    expect((await owner.api.put(`/api/v2/agents/${agentId}`, { instructions: 'Answer\u0000 briefly' })).status).toBe(400);
    expect((await owner.api.post('/api/v2/corpora', { name: 'Hand\u0000book' })).status).toBe(400);
    expect((await owner.api.post('/api/v2/teams', { name: 'Sup\u0000port' })).status).toBe(400);
    expect((await owner.api.post('/api/v2/auth/api-keys', { name: 'de\u0000ploy' })).status).toBe(400);
    expect((await owner.api.put(`/api/v2/users/${owner.id}`, { first_name: 'A\u0000da' })).status).toBe(400);

    const agent = (await owner.api.get(`/api/v2/agents/${agentId}`)).body.data;
    expect(agent).toMatchObject({ version: 1, name: 'Steady' });
    expect((await owner.api.get('/api/v2/corpora')).body.data.total).toBe(0);
    expect((await owner.api.get('/api/v2/teams')).body.data.total).toBe(0);
  });

  it('a multipart field with a NUL refuses the whole upload', async () => {
    const corpus = await createCorpus(owner);
    const reply = await uploadFiles(t.app, owner, corpus.id, [{ name: 'a.txt', bytes: 'Some text to keep.' }], { tags: 'hr\u0000,policy' });
    expect(reply.status).toBe(400);
    expect(reply.body.error.details[0].pointer).toBe('/body/tags');
    expect((await owner.api.get(`/api/v2/corpora/${corpus.id}/documents`)).body.data.total).toBe(0);
  });
});
