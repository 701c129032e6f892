// Full-text ranking on both databases: common words do not crowd out rare ones, and a query is
// never narrowed to words that match nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './support/app.js';
import { createCorpus, uploadText, waitForProcessing } from './support/corpora.js';
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
});
