// Full-text ranking on both databases: common words do not crowd out rare ones, and a query is
// never narrowed to words that match nothing.
import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fullTextConnectionsOf } from '../src/db/full-text.js';
import type { DB } from '../src/db/schema.js';
import { startTestApp, type TestApp } from './support/app.js';
import { createCorpus, uploadFiles, uploadText, waitForProcessing } from './support/corpora.js';
import { databaseKinds } from './support/databases.js';
import { createUser, type TestUser } from './support/factories.js';

describe.each(databaseKinds)('full-text search (%s)', (kind) => {
  let t: TestApp;
  let member: TestUser;
  let corpusId: number;
  let flamingo: number;

  beforeAll(async () => {
    t = await startTestApp(kind);
    member = await createUser(t.app, { role: 'member' });
    corpusId = (await createCorpus(member)).id;
    const ids = [];
    for (let i = 0; i < 8; i++) ids.push((await uploadText(member, corpusId, `The travel policy, section ${i}: book trains where you can.`)).id);
    flamingo = (await uploadText(member, corpusId, 'The travel policy for the zoo trip: flamingos are not to be fed.')).id;
    await waitForProcessing(member, corpusId, [...ids, flamingo]);
  });
  afterAll(() => t.close());

  const search = async (query: string) =>
    (await member.api.post(`/api/v2/corpora/${corpusId}/search`, { query, limit: 20 })).body.data.items as { document_id: number }[];

  it('ranks the chunk with the rare word first, whatever common words come with it', async () => {
    expect((await search('travel policy flamingos'))[0]!.document_id).toBe(flamingo);
    expect((await search('flamingos'))[0]!.document_id).toBe(flamingo);
  });

  it('a query of common words only still finds the chunks holding them', async () => {
    expect((await search('travel policy')).length).toBe(9);
  });

  it('a word that matches nothing does not empty the answer', async () => {
    expect((await search('flamingos xylophone'))[0]!.document_id).toBe(flamingo);
    expect(await search('xylophone')).toEqual([]);
  });

  it.runIf(kind === 'postgres')("keeps the GIN index's pending list, which every search reads, to 1 MB", async () => {
    const { rows } = await sql<{ options: string[] }>`select reloptions as options from pg_class where relname = 'chunks_search'`.execute(t.app.database.db);
    expect(rows[0]?.options).toContain('gin_pending_list_limit=1024');
  });

  it.runIf(kind === 'postgres')("keeps in a chunk's row what a search reads of it; the text goes out of line, and comes back whole", async () => {
    const db = t.app.database.db;
    const { rows: table } = await sql<{ options: string[] }>`select reloptions as options from pg_class where relname = 'chunks'`.execute(db);
    expect(table[0]?.options).toContain('toast_tuple_target=256');
    const { rows: columns } = await sql<{ name: string; storage: string }>`
      select attname as name, attstorage as storage from pg_attribute
      where attrelid = 'chunks'::regclass and attname in ('search_title', 'search_heading', 'heading', 'text', 'search_body')`.execute(db);
    expect(Object.fromEntries(columns.map((column) => [column.name, column.storage]))).toEqual({ search_title: 'm', search_heading: 'm', heading: 'm', search_body: 'm', text: 'x' });

    // A passage long enough to be toasted is found by its words and read back whole.
    const words = Array.from({ length: 300 }, (_, i) => `okapi${i % 7 === 0 ? ' wanders' : ''} meadow${i}`).join(' ');
    const okapi = (await uploadText(member, corpusId, `${words}.`, { name: 'okapi-field-notes.txt' })).id;
    await waitForProcessing(member, corpusId, [okapi]);
    const found = (await member.api.post(`/api/v2/corpora/${corpusId}/search`, { query: 'okapi wanders', limit: 1 })).body.data.items as { document_id: number; text: string }[];
    expect(found[0]!.document_id).toBe(okapi);
    expect(found[0]!.text.startsWith('okapi wanders meadow0 okapi meadow1')).toBe(true);
    const { rows: toast } = await sql<{ bytes: string }>`select pg_relation_size(reltoastrelid) as bytes from pg_class where relname = 'chunks'`.execute(db);
    expect(Number(toast[0]!.bytes)).toBeGreaterThan(0);
  });

  it.runIf(kind === 'postgres')('compresses the long values of chunks and documents with lz4 where PostgreSQL has it, and writes the tsvector itself', async () => {
    const db = t.app.database.db;
    const { rows: server } = await sql<{ lz4: boolean }>`select 'lz4' = any(enumvals) as lz4 from pg_settings where name = 'default_toast_compression'`.execute(db);
    const { rows } = await sql<{ name: string; compression: string }>`
      select attrelid::regclass || '.' || attname as name, attcompression as compression from pg_attribute
      where (attrelid = 'chunks'::regclass and attname in ('text', 'search', 'search_title', 'search_heading', 'search_body'))
         or (attrelid = 'documents'::regclass and attname = 'text')
      order by 1`.execute(db);
    const expected = server[0]!.lz4 ? 'l' : '';
    expect(rows).toEqual(['chunks.search', 'chunks.search_body', 'chunks.search_heading', 'chunks.search_title', 'chunks.text', 'documents.text'].map((name) => ({ name, compression: expected })));
    const { rows: generated } = await sql<{ generated: string }>`select attgenerated as generated from pg_attribute where attrelid = 'chunks'::regclass and attname = 'search'`.execute(db);
    expect(generated[0]!.generated).toBe('');
  });

  it.runIf(kind === 'postgres')('runs its statements on sessions of their own, with sequential scans and parallel workers off, never in a transaction', async () => {
    const db = t.app.database.db;
    const setting = async (on: Kysely<DB>, name: string) => (await sql<{ value: string }>`select current_setting(${name}) as value`.execute(on)).rows[0]!.value;
    const fullText = fullTextConnectionsOf(db);
    expect([await setting(fullText, 'enable_seqscan'), await setting(fullText, 'max_parallel_workers_per_gather'), await setting(fullText, 'TimeZone')]).toEqual(['off', '0', 'UTC']);
    // The rest of the server's statements keep PostgreSQL's defaults.
    expect(await setting(db, 'enable_seqscan')).toBe('on');
    await db.transaction().execute(async (trx) => {
      await expect(t.app.database.dialect.fullText.candidates(trx, [corpusId], [{ term: 'travel', weight: 1 }], 10)).rejects.toThrow(/outside transactions/);
    });
  });
});

describe.each(databaseKinds)('full-text candidates (%s)', (kind) => {
  let t: TestApp;
  let member: TestUser;
  let corpusId: number;
  let flamingo: number;
  let guide: number;

  beforeAll(async () => {
    t = await startTestApp(kind);
    member = await createUser(t.app, { role: 'member' });
    corpusId = (await createCorpus(member)).id;
    // More chunks repeating the query's common words than the database ranks to choose its
    // candidates (100, from the best 200), one long chunk holding the rare word once among words of
    // its own, and, uploaded last, a short document whose title holds a common word.
    const ids: number[] = [];
    for (let batch = 0; batch < 11; batch++) {
      const files = Array.from({ length: 20 }, (_, i) => ({ name: `policy-${batch}-${i}.txt`, bytes: `Travel policy ${batch} ${i}: the travel policy, travel policy and travel policy again.` }));
      const reply = await uploadFiles(t.app, member, corpusId, files);
      ids.push(...(reply.body.data.items as { id: number }[]).map((item) => item.id));
    }
    const filler = Array.from({ length: 150 }, (_, i) => `word${i.toString(36)}`).join(' ');
    flamingo = (await uploadText(member, corpusId, `${filler} travel ${filler} flamingos ${filler}`)).id;
    guide = ((await uploadFiles(t.app, member, corpusId, [{ name: 'travel.txt', bytes: 'Travel: where to go, and how.' }])).body.data.items as { id: number }[])[0]!.id;
    await waitForProcessing(member, corpusId, [...ids, flamingo, guide], 120_000);
  }, 150_000);
  afterAll(() => t.close());

  it('the chunk with the rare word is a candidate, however many chunks repeat the common ones', async () => {
    const reply = await member.api.post(`/api/v2/corpora/${corpusId}/search`, { query: 'travel policy flamingos', limit: 5 });
    expect(reply.status).toBe(200);
    expect((reply.body.data.items as { document_id: number }[])[0]!.document_id).toBe(flamingo);
  });

  it('a chunk whose title holds a common word is a candidate, however many earlier chunks hold it in their text', async () => {
    const reply = await member.api.post(`/api/v2/corpora/${corpusId}/search`, { query: 'travel', limit: 10 });
    expect(reply.status).toBe(200);
    expect((reply.body.data.items as { document_id: number }[]).map((item) => item.document_id)).toContain(guide);
  });
});
