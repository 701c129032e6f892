// GET /api/corpus/{corpus_id}/document/, exactly as API.md §2.2 fixes it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './support/app.js';
import { createCorpus, uploadText, waitForProcessing } from './support/corpora.js';
import { databaseKinds } from './support/databases.js';
import { createOrganization, createUser, type TestUser } from './support/factories.js';
import { request } from './support/http.js';

const FIELDS = ['access_url', 'corpus', 'created_by', 'created_on', 'id', 'is_deleted', 'is_failed', 'modified_by', 'modified_on', 'source', 'step', 'tags', 'text', 'type', 'upload_from', 'user'];
const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe.each(databaseKinds)('the corpus document listing (%s)', (kind) => {
  let t: TestApp;
  let owner: TestUser;
  let corpusId: number;
  let ids: number[];

  beforeAll(async () => {
    t = await startTestApp(kind);
    owner = await createUser(t.app, { role: 'member' });
    const corpus = await createCorpus(owner);
    corpusId = corpus.id;
    ids = [];
    for (const text of ['First document.', 'Second document.', 'Third document.']) ids.push((await uploadText(owner, corpusId, text, { tags: ['t1'] })).id);
    await waitForProcessing(owner, corpusId, ids);
    await owner.api.delete(`/api/v2/corpora/${corpusId}/documents/${ids[1]}`);
  });
  afterAll(() => t.close());

  const list = (query = '', user = owner) => request(t.app, 'GET', `/api/corpus/${corpusId}/document/${query}`, undefined, { token: user.token });

  it('is a bare array of the sixteen fields, with their types, by id ascending, without deleted documents', async () => {
    const reply = await list();
    expect(reply.status).toBe(200);
    expect(reply.headers['content-type']).toContain('application/json');
    expect(Array.isArray(reply.body)).toBe(true);
    expect(reply.body.map((d: { id: number }) => d.id)).toEqual([ids[0], ids[2]]);
    for (const document of reply.body) {
      expect(Object.keys(document).sort()).toEqual(FIELDS);
      expect(Object.keys(document.user).sort()).toEqual(['email', 'first_name', 'id', 'last_name']);
      expect(document.user).toEqual({ id: owner.id, email: owner.email, first_name: 'Test', last_name: 'member' });
      expect(Number.isInteger(document.id)).toBe(true);
      expect(document.created_by).toBe(owner.email);
      expect(document.modified_by).toBe(owner.email);
      expect(document.created_on).toMatch(ISO_MS);
      expect(document.modified_on).toMatch(ISO_MS);
      expect(document.access_url).toBe(`/api/v2/corpora/${corpusId}/documents/${document.id}/file`);
      expect(document).toMatchObject({ type: 'txt', source: 'text', tags: ['t1'], is_deleted: false, upload_from: 'text', step: 'indexed', is_failed: false, corpus: corpusId });
      expect(typeof document.text).toBe('string');
    }
    expect(reply.body[0].text).toBe('First document.');
  });

  it('includes deleted documents when asked', async () => {
    const reply = await list('?include_deleted=true');
    expect(reply.body.map((d: { id: number; is_deleted: boolean }) => [d.id, d.is_deleted])).toEqual([
      [ids[0], false],
      [ids[1], true],
      [ids[2], false],
    ]);
    expect(reply.headers['x-total-count']).toBeUndefined();
  });

  it('pages with limit and offset, giving X-Total-Count', async () => {
    const first = await list('?include_deleted=true&limit=2');
    expect(first.body.map((d: { id: number }) => d.id)).toEqual([ids[0], ids[1]]);
    expect(first.headers['x-total-count']).toBe('3');
    const second = await list('?include_deleted=true&limit=2&offset=2');
    expect(second.body.map((d: { id: number }) => d.id)).toEqual([ids[2]]);
    const beyond = await list('?limit=2&offset=10');
    expect(beyond.body).toEqual([]);
    expect(beyond.headers['x-total-count']).toBe('2');
    expect((await list('?limit=0')).status).toBe(400);
  });

  it('an empty corpus is []', async () => {
    const empty = await createCorpus(owner);
    const reply = await request(t.app, 'GET', `/api/corpus/${empty.id}/document/`, undefined, { token: owner.token });
    expect(reply.status).toBe(200);
    expect(reply.text).toBe('[]');
  });

  it('400 for a corpus_id that is not an integer, 401 without credentials, 404 for an unknown or unreadable corpus', async () => {
    expect((await request(t.app, 'GET', '/api/corpus/abc/document/', undefined, { token: owner.token })).status).toBe(400);
    expect((await request(t.app, 'GET', '/api/corpus/1.5/document/', undefined, { token: owner.token })).status).toBe(400);
    expect((await request(t.app, 'GET', `/api/corpus/${corpusId}/document/`)).status).toBe(401);
    expect((await request(t.app, 'GET', '/api/corpus/99999999/document/', undefined, { token: owner.token })).status).toBe(404);
    const colleague = await createUser(t.app, { role: 'member' });
    expect((await list('', colleague)).status).toBe(404);
    const stranger = await createUser(t.app, { role: 'owner', organizationId: await createOrganization(t.app) });
    const reply = await list('', stranger);
    expect(reply.status).toBe(404);
    expect(reply.body.error.code).toBe('not_found');
  });

  it('streams a large corpus whole, in id order', async () => {
    const big = await createCorpus(owner);
    const at = new Date().toISOString();
    const rows = Array.from({ length: 1234 }, (_, i) => ({
      organization_id: owner.organizationId,
      corpus_id: big.id,
      type: 'txt',
      source: `doc-${i}.txt`,
      text: `text ${i}`,
      tags: '[]',
      upload_from: 'upload' as const,
      step: 'indexed' as const,
      content_hash: String(i).padStart(64, '0'),
      size_bytes: 10,
      created_on: at,
      created_by: owner.id,
      modified_on: at,
      modified_by: owner.id,
    }));
    for (let i = 0; i < rows.length; i += 200) await t.app.database.db.insertInto('documents').values(rows.slice(i, i + 200)).execute();
    const reply = await request(t.app, 'GET', `/api/corpus/${big.id}/document/`, undefined, { token: owner.token });
    expect(reply.status).toBe(200);
    expect(reply.body).toHaveLength(1234);
    const listed = reply.body.map((d: { id: number }) => d.id);
    expect(listed).toEqual([...listed].sort((a: number, b: number) => a - b));
    expect(reply.body[1233].source).toBe('doc-1233.txt');
  });
});
