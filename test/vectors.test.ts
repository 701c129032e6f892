// Embeddings and hybrid retrieval through the real app, against a fake OpenAI-compatible provider on
// loopback: the embedding step, stored and deleted vectors, hybrid search fused by reciprocal rank,
// a provider that fails, refuses or is slow, rebuilding for another model, and PostgreSQL without
// pgvector (full text, said so).
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../src/app.js';
import { enqueueProcessing } from '../src/modules/documents/pipeline/document-steps.js';
import { bindRepositories } from '../src/repositories.js';
import { restartTestApp, startTestApp, type TestApp } from './support/app.js';
import { createCorpus, uploadText, waitForProcessing } from './support/corpora.js';
import { databaseKinds, type DatabaseKind } from './support/databases.js';
import { createOrganization, createUser, type TestUser } from './support/factories.js';
import { FAKE_API_KEY, startFakeEmbeddingServer, type FakeEmbeddingServer } from './support/fake-embeddings.js';
import { client } from './support/http.js';

const GARAGE = 'Our garage repairs every car brought in before noon.';
const SHELTER = 'The shelter feeds each dog twice daily and walks them through the park.';
const BAKERY = 'Bread rises overnight in a warm kitchen.';

async function postgresHasPgvector(): Promise<boolean> {
  const connection = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await connection.connect();
  try {
    return (await connection.query(`select 1 from pg_available_extensions where name = 'vector'`)).rowCount! > 0;
  } finally {
    await connection.end();
  }
}

const pgvector = databaseKinds.includes('postgres') ? await postgresHasPgvector() : false;
const holdsVectors = (kind: DatabaseKind) => kind === 'sqlite' || pgvector;

const vectorCount = async (app: App, chunkIds?: number[]) => {
  let query = app.database.db.selectFrom('chunk_vectors').select((eb) => eb.fn.countAll<number>().as('n'));
  if (chunkIds) query = query.where('chunk_id', 'in', chunkIds.length ? chunkIds : [-1]);
  return Number((await query.executeTakeFirstOrThrow()).n);
};
const orphanVectors = async (app: App) =>
  Number(
    (
      await sql<{ n: number }>`select count(*) as n from chunk_vectors v where not exists (select 1 from chunks c where c.id = v.chunk_id)`.execute(
        app.database.db,
      )
    ).rows[0]!.n,
  );
const chunkIdsOf = async (app: App, documentId: number) =>
  (await app.database.db.selectFrom('chunks').select('id').where('document_id', '=', documentId).execute()).map((row) => row.id);
const stepsOf = async (app: App, documentId: number) =>
  (await app.database.db.selectFrom('document_events').select('step').where('document_id', '=', documentId).orderBy('id').execute()).map((row) => row.step);

async function indexed(user: TestUser, corpusId: number, text: string) {
  const document = await uploadText(user, corpusId, text);
  const [state] = await waitForProcessing(user, corpusId, [document.id]);
  return state!;
}

const search = async (user: TestUser, corpusId: number, query: string, limit = 10) => {
  const reply = await user.api.post(`/api/v2/corpora/${corpusId}/search`, { query, limit });
  expect(reply.status, reply.text).toBe(200);
  return reply.body.data as { items: { document_id: number; corpus_id: number; score: number }[]; retrieval_mode: string; warning?: string };
};

/** A fake provider, the app (configured by `envOf`, given the provider) and a member. */
async function setUp(kind: DatabaseKind, envOf: (fake: FakeEmbeddingServer) => Record<string, string>) {
  const fake = await startFakeEmbeddingServer();
  const t = await startTestApp(kind, envOf(fake));
  return { fake, t, member: await createUser(t.app, { role: 'member' }) };
}

async function tearDown(t: TestApp, fake: FakeEmbeddingServer): Promise<void> {
  await t.close();
  await fake.close();
}

describe.each(databaseKinds)('hybrid retrieval (%s)', (kind) => {
  let fake: FakeEmbeddingServer, t: TestApp, member: TestUser;
  beforeAll(async () => void ({ fake, t, member } = await setUp(kind, (provider) => provider.env())));
  afterAll(() => tearDown(t, fake));

  it.runIf(holdsVectors(kind))('takes documents through embedding to indexed and stores one vector per chunk', async () => {
    expect(t.app.services.vectors.status.mode).toBe('hybrid');
    const corpus = await createCorpus(member);
    expect(corpus.retrieval_mode).toBe('hybrid');
    const state = await indexed(member, corpus.id, GARAGE);
    expect(state).toMatchObject({ step: 'indexed', is_failed: false });
    expect(Object.keys(state.step_timings as object)).toEqual(expect.arrayContaining(['extracting', 'chunking', 'embedding']));
    expect(await stepsOf(t.app, state.id)).toEqual(['queued', 'extracting', 'chunking', 'embedding', 'indexed']);
    const chunkIds = await chunkIdsOf(t.app, state.id);
    expect(chunkIds.length).toBe(state.chunk_count);
    expect(await vectorCount(t.app, chunkIds)).toBe(chunkIds.length);
    expect(fake.requests.at(-1)).toMatchObject({ authorization: `Bearer ${FAKE_API_KEY}`, model: 'fake-embed-64', input: [GARAGE] });

    // Repeating the step stores nothing twice and asks the provider nothing.
    const asked = fake.requests.length;
    const row = await t.app.database.db.selectFrom('documents').selectAll().where('id', '=', state.id).executeTakeFirstOrThrow();
    await t.app.services.vectors.embedDocument(row);
    expect(fake.requests.length).toBe(asked);
    expect(await vectorCount(t.app, chunkIds)).toBe(chunkIds.length);
  });

  it.runIf(holdsVectors(kind))('finds by meaning what full text cannot, fuses both rankings, and stays in the corpus', async () => {
    const corpus = await createCorpus(member);
    const [garage, shelter, bakery] = [await indexed(member, corpus.id, GARAGE), await indexed(member, corpus.id, SHELTER), await indexed(member, corpus.id, BAKERY)];
    // The same texts in another organization's corpus never come back.
    const stranger = await createUser(t.app, { organizationId: await createOrganization(t.app), role: 'owner' });
    const theirs = await createCorpus(stranger);
    await indexed(stranger, theirs.id, GARAGE);
    await indexed(stranger, theirs.id, BAKERY);

    // No document holds "automobile": vectors alone find the garage.
    const meaning = await search(member, corpus.id, 'automobile');
    expect(meaning.retrieval_mode).toBe('hybrid');
    expect(meaning.warning).toBeUndefined();
    expect(meaning.items[0]!.document_id).toBe(garage.id);
    expect(meaning.items.every((item) => item.corpus_id === corpus.id)).toBe(true);

    // "bread" is found by both rankings, the puppy only by vectors: agreement comes first.
    const fused = await search(member, corpus.id, 'puppy bread');
    expect(fused.items.slice(0, 2).map((item) => item.document_id)).toEqual([bakery.id, shelter.id]);
    // First in both rankings: 1/61 + 1/61, the best there is (1); second by vectors only: 1/62 of 2/61.
    expect(fused.items[0]!.score).toBe(1);
    expect(fused.items[1]!.score).toBeCloseTo(61 / 124, 6);
    expect(fused.items.every((item) => item.corpus_id === corpus.id)).toBe(true);
  });

  it.runIf(holdsVectors(kind))('removes vectors with their chunks: document delete, corpus delete; none left over', async () => {
    const corpus = await createCorpus(member);
    const kept = await indexed(member, corpus.id, SHELTER);
    const gone = await indexed(member, corpus.id, GARAGE);
    const goneChunks = await chunkIdsOf(t.app, gone.id);
    expect(await vectorCount(t.app, goneChunks)).toBeGreaterThan(0);
    expect((await member.api.delete(`/api/v2/corpora/${corpus.id}/documents/${gone.id}`)).status).toBe(200);
    expect(await vectorCount(t.app, goneChunks)).toBe(0);
    expect((await search(member, corpus.id, 'automobile')).items.map((item) => item.document_id)).not.toContain(gone.id);

    const keptChunks = await chunkIdsOf(t.app, kept.id);
    expect((await member.api.delete(`/api/v2/corpora/${corpus.id}`)).status).toBeLessThan(300);
    expect(await vectorCount(t.app, keptChunks)).toBe(0);
    expect(await orphanVectors(t.app)).toBe(0);
  });

  it.runIf(holdsVectors(kind))('processing a document again replaces its chunks and their vectors', async () => {
    const corpus = await createCorpus(member);
    const state = await indexed(member, corpus.id, SHELTER);
    const before = await chunkIdsOf(t.app, state.id);
    // As after a crash during chunking: the job starts the document over.
    const at = new Date().toISOString();
    await t.app.database.db.updateTable('documents').set({ step: 'chunking' }).where('id', '=', state.id).execute();
    await enqueueProcessing(bindRepositories(t.app.database.db, t.app.database.dialect), member.organizationId, state.id, at);
    t.app.services.worker.wake();
    const [again] = await waitForProcessing(member, corpus.id, [state.id]);
    expect(again).toMatchObject({ step: 'indexed', is_failed: false });
    const after = await chunkIdsOf(t.app, state.id);
    expect(after.some((id) => before.includes(id))).toBe(false);
    expect(await vectorCount(t.app, before)).toBe(0);
    expect(await vectorCount(t.app, after)).toBe(after.length);
    expect(await orphanVectors(t.app)).toBe(0);
  });

  it.runIf(holdsVectors(kind))('retries a provider that answers 500, then indexes the document', async () => {
    const corpus = await createCorpus(member);
    const before = fake.requests.length;
    fake.script({ status: 500 });
    const state = await indexed(member, corpus.id, 'Lighthouses guide ships along the rocky coast.');
    expect(state).toMatchObject({ step: 'indexed', is_failed: false });
    expect(fake.requests.length - before).toBe(2);
  });

  it.runIf(holdsVectors(kind))('fails a document the provider refuses (401) at embedding, with a reason that does not hold the key', async () => {
    const corpus = await createCorpus(member);
    fake.script({ status: 401, body: JSON.stringify({ error: { message: `Incorrect API key provided: ${FAKE_API_KEY}` } }) });
    const state = await indexed(member, corpus.id, 'Glaciers carve valleys over thousands of years.');
    expect(state).toMatchObject({ step: 'embedding', is_failed: true });
    expect(state.error).toMatch(/refused the credentials \(HTTP 401\)/);
    expect(JSON.stringify(state)).not.toContain(FAKE_API_KEY);
    // Full text still finds its chunks; retrying embeds only what is missing and indexes it.
    expect((await search(member, corpus.id, 'glaciers')).items).toHaveLength(1);
    expect((await member.api.post(`/api/v2/corpora/${corpus.id}/documents/${state.id}/retry`)).status).toBe(200);
    const [retried] = await waitForProcessing(member, corpus.id, [state.id]);
    expect(retried).toMatchObject({ step: 'indexed', is_failed: false });
    expect(await vectorCount(t.app, await chunkIdsOf(t.app, state.id))).toBe(retried!.chunk_count);
  });

  it.runIf(!holdsVectors(kind))('on PostgreSQL without pgvector: full text only, said in the status, the corpus and every search', async () => {
    expect(t.app.services.vectors.status).toMatchObject({ mode: 'full_text', detail: expect.stringContaining('pgvector') });
    const corpus = await createCorpus(member);
    expect(corpus.retrieval_mode).toBe('full_text');
    const state = await indexed(member, corpus.id, GARAGE);
    expect(state).toMatchObject({ step: 'indexed', is_failed: false });
    expect(Object.keys(state.step_timings as object)).not.toContain('embedding');
    expect(await stepsOf(t.app, state.id)).toEqual(['queued', 'extracting', 'chunking', 'indexed']);
    const found = await search(member, corpus.id, 'garage');
    expect(found).toMatchObject({ retrieval_mode: 'full_text', items: [{ document_id: state.id }] });
    expect(found.warning).toBeUndefined();
    expect((await search(member, corpus.id, 'automobile')).items).toEqual([]);
    expect(fake.requests).toHaveLength(0);
  });
});

describe.each(databaseKinds)('a slow embedding provider (%s)', (kind) => {
  let fake: FakeEmbeddingServer, t: TestApp, member: TestUser;
  // A known dimension makes the vector table at start, so that searches ask the provider too.
  const slow = { EMBEDDING_TIMEOUT_MS: '300', EMBEDDING_MAX_RETRIES: '0', EMBEDDING_DIMENSIONS: '64', WORKER_RETRY_BACKOFF_MS: '10', WORKER_POLL_MS: '50' };
  beforeAll(async () => void ({ fake, t, member } = await setUp(kind, (provider) => provider.env(slow))));
  afterAll(() => tearDown(t, fake));

  it.runIf(holdsVectors(kind))('times out, is retried by the job system, then fails the document with a clear reason', async () => {
    // Longer than the test may run: only the server's deadline can end these requests.
    fake.delayMs = 600_000;
    const corpus = await createCorpus(member);
    const state = await indexed(member, corpus.id, 'Volcanoes rumble before they erupt.');
    expect(state).toMatchObject({ step: 'embedding', is_failed: true, error: 'The embedding provider did not answer within 300 ms (EMBEDDING_TIMEOUT_MS)' });
    expect(fake.requests).toHaveLength(3);

    // A search meanwhile is answered from full text, within the deadline, and says why.
    const found = await search(member, corpus.id, 'volcanoes');
    expect(found.retrieval_mode).toBe('full_text');
    expect(found.warning).toBe('Full text only: The embedding provider did not answer within 300 ms (EMBEDDING_TIMEOUT_MS)');
    expect(found.items.map((item) => item.document_id)).toEqual([state.id]);
  });
});

describe.each(databaseKinds)('the vector index across restarts (%s)', (kind) => {
  let fake: FakeEmbeddingServer, t: TestApp, member: TestUser;
  beforeAll(async () => void ({ fake, t, member } = await setUp(kind, () => ({}))));
  afterAll(() => tearDown(t, fake));

  const restart = async (env: Record<string, string>) => {
    t = await restartTestApp(t, env);
    member = { ...member, api: client(t.app, member.token) };
  };
  const allEmbedded = async (corpusId: number, ids: number[]) => {
    const states = await waitForProcessing(member, corpusId, ids);
    for (const state of states) {
      expect(state).toMatchObject({ step: 'indexed', is_failed: false });
      expect(await vectorCount(t.app, await chunkIdsOf(t.app, state.id))).toBe(state.chunk_count);
    }
  };

  it.runIf(holdsVectors(kind))('embeds documents indexed before an embedder was configured, and rebuilds for another model or size', async () => {
    expect(t.app.services.vectors.status).toMatchObject({ mode: 'full_text', detail: expect.stringContaining('EMBEDDING_BASE_URL is unset') });
    const corpus = await createCorpus(member);
    expect(corpus.retrieval_mode).toBe('full_text');
    const garage = await indexed(member, corpus.id, GARAGE);
    const shelter = await indexed(member, corpus.id, SHELTER);
    expect(await search(member, corpus.id, 'automobile')).toEqual({ items: [], retrieval_mode: 'full_text' });

    await restart(fake.env());
    await allEmbedded(corpus.id, [garage.id, shelter.id]);
    expect(await stepsOf(t.app, garage.id)).toEqual(['queued', 'extracting', 'chunking', 'indexed', 'embedding', 'indexed']);
    expect((await search(member, corpus.id, 'automobile')).items[0]!.document_id).toBe(garage.id);
    expect(await t.app.database.db.selectFrom('vector_indexes').select(['model', 'dimensions']).execute()).toEqual([{ model: 'fake-embed-64', dimensions: 64 }]);

    // A start with the same settings finds nothing to do.
    fake.requests.length = 0;
    await restart(fake.env());
    expect(fake.requests).toHaveLength(0);
    expect((await member.api.get(`/api/v2/corpora/${corpus.id}`)).body.data.document_counts).toMatchObject({ indexed: 2, embedding: 0 });

    // Another model: vectors of different models do not compare, so all are made again.
    await restart(fake.env({ EMBEDDING_MODEL: 'fake-embed-v2' }));
    await allEmbedded(corpus.id, [garage.id, shelter.id]);
    expect(fake.requests.every((request) => request.model === 'fake-embed-v2')).toBe(true);
    expect(await t.app.database.db.selectFrom('vector_indexes').select(['model', 'dimensions']).execute()).toEqual([{ model: 'fake-embed-v2', dimensions: 64 }]);

    // Another size, declared: the table is made again for it.
    fake.dimensions = 32;
    await restart(fake.env({ EMBEDDING_MODEL: 'fake-embed-v2', EMBEDDING_DIMENSIONS: '32' }));
    await allEmbedded(corpus.id, [garage.id, shelter.id]);
    expect(await t.app.database.db.selectFrom('vector_indexes').select(['model', 'dimensions']).execute()).toEqual([{ model: 'fake-embed-v2', dimensions: 32 }]);
    expect((await search(member, corpus.id, 'puppies')).items[0]!.document_id).toBe(shelter.id);

    // The provider changes size behind a fixed index: the document fails with the reason.
    fake.dimensions = 16;
    const odd = await indexed(member, corpus.id, BAKERY);
    expect(odd).toMatchObject({ step: 'embedding', is_failed: true });
    expect(odd.error).toContain('16 dimensions');
    expect(await orphanVectors(t.app)).toBe(0);
  });
});

describe.each(databaseKinds)('without an embedder (%s)', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(kind);
  });
  afterAll(() => t.close());

  it('is full text, says so, and passes documents straight from chunking to indexed', async () => {
    expect(t.app.services.vectors.status).toEqual({ mode: 'full_text', detail: 'full text only: no embedding model is configured (EMBEDDING_BASE_URL is unset)' });
    const member = await createUser(t.app, { role: 'member' });
    const corpus = await createCorpus(member);
    expect(corpus.retrieval_mode).toBe('full_text');
    const state = await indexed(member, corpus.id, BAKERY);
    expect(await stepsOf(t.app, state.id)).toEqual(['queued', 'extracting', 'chunking', 'indexed']);
    expect(Object.keys(state.step_timings as object).sort()).toEqual(['chunking', 'extracting']);
    expect(await search(member, corpus.id, 'bread')).toMatchObject({ retrieval_mode: 'full_text', items: [{ document_id: state.id }] });
  });
});
