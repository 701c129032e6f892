// Page evidence in the ranking (src/search/document-evidence.ts): a page several of whose passages
// match ranks above a page with the same passage alone, and a long guide that mentions the words once
// ranks below a short page saying the same; scores stay within 0–1 and equal on both databases.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentEvidence, lengthFactor, withDocumentEvidence } from '../src/search/document-evidence.js';
import { startTestApp, type TestApp } from './support/app.js';
import { createCorpus, uploadFiles, uploadText, waitForProcessing } from './support/corpora.js';
import { databaseKinds } from './support/databases.js';
import { createUser, type TestUser } from './support/factories.js';

describe('document evidence', () => {
  it('grows with each matching passage and stays below 1', () => {
    expect(documentEvidence([])).toBe(0);
    const one = documentEvidence([0.8]);
    const three = documentEvidence([0.8, 0.6, 0.6]);
    expect(one).toBeCloseTo(0.24);
    expect(three).toBeGreaterThan(one);
    expect(documentEvidence(Array(1000).fill(1))).toBeLessThanOrEqual(1);
  });

  it('weighs a longer document down, a one-chunk document not at all', () => {
    expect(lengthFactor(1)).toBe(1);
    expect(lengthFactor(0)).toBe(1);
    expect(lengthFactor(100)).toBeLessThan(lengthFactor(10));
    expect(lengthFactor(100)).toBeCloseTo(0.81, 2);
  });

  it('keeps scores within 0 to 1 and passages in the order given', () => {
    const rows = [
      { document_id: 1, chunk_count: 1 },
      { document_id: 2, chunk_count: 50 },
      { document_id: 2, chunk_count: 50 },
    ];
    const scored = withDocumentEvidence(rows.map((row, index) => ({ row, score: [1, 1, 0][index]! })));
    expect(scored.map(({ row }) => row)).toEqual(rows);
    for (const { score } of scored) {
      expect(score).toBeGreaterThanOrEqual(0);
      expect(score).toBeLessThanOrEqual(1);
    }
    // The one-chunk page's passage alone: its own score and its evidence, nothing weighed down.
    expect(scored[0]!.score).toBeCloseTo(0.8 + 0.2 * 0.3);
  });
});

const SECTION_FILLER = ['Holidays are booked in the calendar.', 'The printer is on the second floor.', 'Parking is free after six.', 'Lunch is served at noon.'];

/** Every query's answer on each database, compared at the end. */
const answersByKind = new Map<string, Record<string, { source: string; score: number }[]>>();

describe.each(databaseKinds)('ranking by page (%s)', (kind) => {
  let t: TestApp;
  let member: TestUser;
  let corpusId: number;
  const ids: Record<string, number> = {};

  const search = async (query: string) => {
    const reply = await member.api.post(`/api/v2/corpora/${corpusId}/search`, { query, limit: 10 });
    expect(reply.status).toBe(200);
    return reply.body.data.items as { document_id: number; source: string; score: number }[];
  };
  const markdown = async (name: string, text: string) => {
    const upload = await uploadFiles(t.app, member, corpusId, [{ name, bytes: text, contentType: 'text/markdown' }]);
    return (upload.body.data.items as { id: number }[])[0]!.id;
  };

  beforeAll(async () => {
    t = await startTestApp(kind);
    member = await createUser(t.app, { role: 'member' });
    corpusId = (await createCorpus(member)).id;
    // The same passage alone, and in a page whose other sections are about it too.
    ids.alone = (await uploadText(member, corpusId, 'Storage quota limits apply to each team.', { name: 'memo.txt' })).id;
    ids.about = await markdown(
      'handbook.md',
      '## Limits\n\nStorage quota limits apply to each team.\n\n## Raising\n\nA team asks an owner to raise its storage quota.\n\n## Alerts\n\nEach team hears when its storage quota is nearly used.\n',
    );
    // The same sentence once in a long guide about everything else, and alone in a short page.
    const sections = Array.from({ length: 24 }, (_, index) => `## Topic ${index}\n\n${SECTION_FILLER[index % SECTION_FILLER.length]} Item ${index}.\n`);
    sections.splice(12, 0, '## Badges\n\nVisitors collect a badge at the front desk.\n');
    ids.guide = await markdown('office-guide.md', sections.join('\n'));
    ids.short = (await uploadText(member, corpusId, 'Visitors collect a badge at the front desk.', { name: 'reception.txt' })).id;
    await waitForProcessing(member, corpusId, Object.values(ids));
  });
  afterAll(() => t.close());

  it('ranks a page several of whose passages match above the same passage alone', async () => {
    const found = await search('storage quota team');
    expect(found[0]!.document_id).toBe(ids.about);
    const firstAlone = found.findIndex((item) => item.document_id === ids.alone);
    expect(firstAlone).toBeGreaterThan(0);
    expect(found[0]!.score).toBeGreaterThan(found[firstAlone]!.score);
  });

  it('ranks a short page above a long guide that says the same once', async () => {
    const found = await search('visitors badge front desk');
    expect(found.map((item) => item.document_id).slice(0, 2)).toEqual([ids.short, ids.guide]);
    for (const item of found) expect(item.score).toBeLessThanOrEqual(1);
  });

  it('records its answers for the comparison across databases', async () => {
    const answers: Record<string, { source: string; score: number }[]> = {};
    for (const query of ['storage quota team', 'visitors badge front desk', 'team']) {
      answers[query] = (await search(query)).map((item) => ({ source: item.source, score: item.score }));
    }
    answersByKind.set(kind, answers);
  });
});

describe('ranking by page across databases', () => {
  it.runIf(databaseKinds.length > 1)('gives the same passages with the same scores on SQLite and PostgreSQL', () => {
    const [first, ...others] = [...answersByKind.values()];
    expect(answersByKind.size).toBe(databaseKinds.length);
    for (const other of others) expect(other).toEqual(first);
  });
});
