// The legacy generation of corpora and documents: bare bodies over the same services as /api/v2.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './support/app.js';
import { uploadFiles, waitForProcessing } from './support/corpora.js';
import { databaseKinds } from './support/databases.js';
import { createOrganization, createUser, type TestUser } from './support/factories.js';

describe.each(databaseKinds)('legacy corpora and documents (%s)', (kind) => {
  let t: TestApp;
  let member: TestUser;

  beforeAll(async () => {
    t = await startTestApp(kind);
    member = await createUser(t.app, { role: 'member' });
  });
  afterAll(() => t.close());

  it('creates, lists and gets corpora as bare resources, seen through both generations', async () => {
    const created = await member.api.post('/api/corpus/', { name: 'Legacy handbook' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: 'Legacy handbook', permission: 'manage' });
    expect(created.body.success).toBeUndefined();
    const id = created.body.id;
    expect((await member.api.get(`/api/v2/corpora/${id}`)).body.data.name).toBe('Legacy handbook');
    await member.api.put(`/api/v2/corpora/${id}`, { name: 'Renamed in v2' });
    expect((await member.api.get(`/api/corpus/${id}/`)).body.name).toBe('Renamed in v2');
    const list = await member.api.get('/api/corpus/?limit=1');
    expect(Array.isArray(list.body)).toBe(true);
    expect(list.body).toHaveLength(1);
    expect(Number(list.headers['x-total-count'])).toBeGreaterThanOrEqual(1);
    expect((await member.api.get('/api/corpus/abc/')).status).toBe(400);
    expect((await member.api.get('/api/corpus/99999999/')).status).toBe(404);
    expect((await member.api.post('/api/corpus/', {})).status).toBe(400);
  });

  it('uploads, gets and deletes documents', async () => {
    const corpusId = (await member.api.post('/api/corpus/', { name: 'Legacy uploads' })).body.id;
    const json = await member.api.post(`/api/corpus/${corpusId}/document/`, { upload_from: 'text', text: 'Legacy text upload.' });
    expect(json.status).toBe(201);
    expect(Array.isArray(json.body)).toBe(true);
    const files = await uploadFiles(t.app, member, corpusId, [{ name: 'a.txt', bytes: 'legacy multipart a' }]);
    expect(files.status).toBe(201);
    const id = json.body[0].id;
    await waitForProcessing(member, corpusId, [id]);
    const one = await member.api.get(`/api/documents/${id}/`);
    expect(one.status).toBe(200);
    expect(Object.keys(one.body)).toHaveLength(16);
    expect(one.body).toMatchObject({ id, corpus: corpusId, text: 'Legacy text upload.', is_deleted: false, step: 'indexed' });
    const deleted = await member.api.delete(`/api/documents/${id}/`);
    expect(deleted.body.is_deleted).toBe(true);
    expect((await member.api.delete(`/api/documents/${id}/`)).status).toBe(404);

    const stranger = await createUser(t.app, { role: 'owner', organizationId: await createOrganization(t.app) });
    expect((await stranger.api.get(`/api/documents/${files.body.data.items[0].id}/`)).status).toBe(404);
    expect((await stranger.api.get(`/api/corpus/${corpusId}/`)).status).toBe(404);
    const colleague = await createUser(t.app, { role: 'member' });
    expect((await colleague.api.get(`/api/documents/${files.body.data.items[0].id}/`)).status).toBe(404);
  });
});
