// How many chunks hold each term, on both databases: exactly the searched corpora's chunks, whether
// the count comes from FTS5's vocabulary (SQLite, when the searched corpora hold every chunk) or from
// matching; another organization's chunks never count, and a deleted document's chunks stop counting.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryTerms } from '../src/search/analyzer.js';
import { startTestApp, type TestApp } from './support/app.js';
import { createCorpus, uploadText, waitForProcessing } from './support/corpora.js';
import { databaseKinds } from './support/databases.js';
import { createOrganization, createUser, type TestUser } from './support/factories.js';

const [ZEBRA, OKAPI, UNSEEN] = queryTerms('zebras okapis quetzalcoatlus', 'english') as [string, string, string];

describe.each(databaseKinds)('document frequencies of search terms (%s)', (kind) => {
  let t: TestApp;
  let member: TestUser;
  let corpusId: number;
  let zebraIds: number[];

  const frequencies = (corpusIds: number[], terms: string[]) => t.app.database.dialect.fullText.documentFrequencies(t.app.database.db, corpusIds, terms);

  beforeAll(async () => {
    t = await startTestApp(kind);
    member = await createUser(t.app, { role: 'member' });
    corpusId = (await createCorpus(member)).id;
    zebraIds = [];
    for (let i = 0; i < 3; i++) zebraIds.push((await uploadText(member, corpusId, `Zebras graze on the plain, herd ${i}.`)).id);
    const okapi = (await uploadText(member, corpusId, 'Okapis and zebras are not related, whatever the stripes say.')).id;
    await waitForProcessing(member, corpusId, [...zebraIds, okapi]);
  });
  afterAll(() => t.close());

  it('counts the chunks of the corpus holding each term; a term no chunk holds counts 0', async () => {
    expect(await frequencies([corpusId], [ZEBRA, OKAPI, UNSEEN, ZEBRA])).toEqual([4, 1, 0, 4]);
  });

  it("never counts another organization's chunks, nor another corpus's", async () => {
    const stranger = await createUser(t.app, { organizationId: await createOrganization(t.app) });
    const theirs = (await createCorpus(stranger)).id;
    const uploads = [];
    for (let i = 0; i < 5; i++) uploads.push((await uploadText(stranger, theirs, `Zebras and okapis at the zoo, enclosure ${i}.`)).id);
    await waitForProcessing(stranger, theirs, uploads);
    expect(await frequencies([corpusId], [ZEBRA, OKAPI, UNSEEN])).toEqual([4, 1, 0]);
    expect(await frequencies([theirs], [ZEBRA, OKAPI])).toEqual([5, 5]);
    expect(await frequencies([corpusId, theirs], [ZEBRA, OKAPI])).toEqual([9, 6]);
    // The corpus on its own again once the other is gone: the count of its chunks alone.
    expect((await stranger.api.delete(`/api/v2/corpora/${theirs}`)).status).toBeLessThan(300);
    expect(await frequencies([corpusId], [ZEBRA, OKAPI])).toEqual([4, 1]);
  });

  it("stops counting a deleted document's chunks", async () => {
    expect((await member.api.delete(`/api/v2/corpora/${corpusId}/documents/${zebraIds[0]}`)).status).toBeLessThan(300);
    expect(await frequencies([corpusId], [ZEBRA, OKAPI])).toEqual([3, 1]);
  });
});
