// Search counts a corpus's statistics again as soon as its chunks change, in every server on the
// database: a document is found the moment it says `indexed`, with the clock not moved on, and scores
// stay within 0–1 however the corpus grew since the last search.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../src/app.js';
import { startTestApp, testConfig, type TestApp } from './support/app.js';
import { createCorpus, uploadText, waitForProcessing } from './support/corpora.js';
import { databaseKinds } from './support/databases.js';
import { createUser, type TestUser } from './support/factories.js';
import { client } from './support/http.js';

interface Item {
  document_id: number;
  score: number;
}

describe.each(databaseKinds)('search statistics follow the corpus (%s)', (kind) => {
  let t: TestApp;
  let second: App;
  let member: TestUser;

  const searchOn = async (app: App, corpusId: number, query: string) => {
    const reply = await client(app, member.token).post(`/api/v2/corpora/${corpusId}/search`, { query, limit: 10 });
    expect(reply.status, reply.text).toBe(200);
    return reply.body.data.items as Item[];
  };
  const search = (corpusId: number, query: string) => searchOn(t.app, corpusId, query);

  beforeAll(async () => {
    t = await startTestApp(kind);
    // Another server on the same database, as a deployment of several processes runs.
    second = await buildApp(testConfig(t.scratch));
    member = await createUser(t.app, { role: 'member' });
  });
  afterAll(async () => {
    await second.close();
    await t.close();
  });

  it('finds a document as soon as it is indexed, after a search of the corpus before it', async () => {
    const corpusId = (await createCorpus(member)).id;
    expect(await search(corpusId, 'quarterly revenue forecast')).toEqual([]);
    const document = await uploadText(member, corpusId, 'The quarterly revenue forecast rose by a tenth.', { name: 'forecast.txt' });
    await waitForProcessing(member, corpusId, [document.id]);
    const found = await search(corpusId, 'quarterly revenue forecast');
    expect(found.map((item) => item.document_id)).toEqual([document.id]);
  });

  it('finds it through another server on the database, which searched the corpus before', async () => {
    const corpusId = (await createCorpus(member)).id;
    await uploadText(member, corpusId, 'Lighthouses guide ships along the coast.', { name: 'lighthouses.txt' }).then((d) => waitForProcessing(member, corpusId, [d.id]));
    expect(await searchOn(second, corpusId, 'glacier meltwater lakes')).toEqual([]);
    const document = await uploadText(member, corpusId, 'Glacier meltwater fills the lakes in spring.', { name: 'glaciers.txt' });
    await waitForProcessing(member, corpusId, [document.id]);
    const found = await searchOn(second, corpusId, 'glacier meltwater lakes');
    expect(found.map((item) => item.document_id)).toEqual([document.id]);
  });

  it('keeps scores within 0–1 when a term is in most chunks, counted after the corpus grew', async () => {
    const corpusId = (await createCorpus(member)).id;
    const first = await uploadText(member, corpusId, 'A budget for the garden.', { name: 'garden.txt' });
    await waitForProcessing(member, corpusId, [first.id]);
    // A one-word query counts the corpus's chunks (one) and no term.
    expect(await search(corpusId, 'budget')).toHaveLength(1);
    const reports = [];
    for (let index = 0; index < 4; index++) reports.push(await uploadText(member, corpusId, `Annual report number ${index} on the budget.`, { name: `report-${index}.txt` }));
    await waitForProcessing(member, corpusId, reports.map((report) => report.id));
    // "annual" and "report" in four chunks of five, "garden" in one.
    const found = await search(corpusId, 'annual report garden');
    expect(found).toHaveLength(5);
    for (const item of found) {
      expect(item.score).toBeGreaterThanOrEqual(0);
      expect(item.score).toBeLessThanOrEqual(1);
    }
    expect(found.map((item) => item.document_id)).toContain(first.id);
  });

  it('leaves a deleted document out of the counts at once', async () => {
    const corpusId = (await createCorpus(member)).id;
    const kept = await uploadText(member, corpusId, 'Penguins nest on the rocky shore.', { name: 'kept.txt' });
    const gone = await uploadText(member, corpusId, 'Penguins and puffins share the rocky shore.', { name: 'gone.txt' });
    await waitForProcessing(member, corpusId, [kept.id, gone.id]);
    const before = await search(corpusId, 'penguins puffins');
    expect(before.map((item) => item.document_id)).toEqual([gone.id, kept.id]);
    expect((await member.api.delete(`/api/v2/corpora/${corpusId}/documents/${gone.id}`)).status).toBe(200);
    // Counted again: the same scores as a server that counts them for the first time.
    const after = await search(corpusId, 'penguins puffins');
    expect(after.map((item) => item.document_id)).toEqual([kept.id]);
    expect(after).toEqual(await searchOn(second, corpusId, 'penguins puffins'));
  });
});
