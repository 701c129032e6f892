// A deleted document has no chunks, and says so: chunk_count 0 however it was deleted (its step stays;
// is_deleted tells), in its own answer and in the listing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './support/app.js';
import { createCorpus, uploadText, waitForProcessing } from './support/corpora.js';
import { databaseKinds } from './support/databases.js';
import { createUser, type TestUser } from './support/factories.js';

describe.each(databaseKinds)('deleted documents have no chunks (%s)', (kind) => {
  let t: TestApp;
  let member: TestUser;
  let corpusId: number;

  beforeAll(async () => {
    t = await startTestApp(kind);
    member = await createUser(t.app, { role: 'member' });
    corpusId = (await createCorpus(member)).id;
  });
  afterAll(() => t.close());

  const indexedDocument = async (name: string) => {
    const document = await uploadText(member, corpusId, 'Tides rise and fall twice a day along the coast.', { name });
    const [state] = await waitForProcessing(member, corpusId, [document.id]);
    expect(state!.chunk_count).toBeGreaterThan(0);
    return document.id;
  };

  const expectNoChunks = async (documentId: number) => {
    const own = await member.api.get(`/api/v2/corpora/${corpusId}/documents/${documentId}`);
    expect(own.body.data).toMatchObject({ is_deleted: true, chunk_count: 0, step: 'indexed' });
    const listed = await member.api.get(`/api/v2/corpora/${corpusId}/documents?include_deleted=true&limit=100`);
    expect(listed.body.data.items.find((item: { id: number }) => item.id === documentId)).toMatchObject({ is_deleted: true, chunk_count: 0 });
  };

  it('deleted through the v2 route', async () => {
    const documentId = await indexedDocument('v2.txt');
    const deleted = await member.api.delete(`/api/v2/corpora/${corpusId}/documents/${documentId}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body.data).toMatchObject({ is_deleted: true, chunk_count: 0 });
    await expectNoChunks(documentId);
  });

  it('deleted through the legacy route', async () => {
    const documentId = await indexedDocument('legacy.txt');
    const deleted = await member.api.delete(`/api/documents/${documentId}/`);
    expect(deleted.status).toBe(200);
    expect(deleted.body.is_deleted ?? deleted.body.data?.is_deleted).toBe(true);
    await expectNoChunks(documentId);
    const legacy = await member.api.get(`/api/corpus/${corpusId}/document/?include_deleted=true`);
    expect(legacy.body.find((item: { id: number }) => item.id === documentId)).toMatchObject({ is_deleted: true, step: 'indexed' });
  });
});
