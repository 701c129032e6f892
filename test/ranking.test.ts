// The ranking rules of full-text search, on both databases: the title weighs more than the heading,
// the heading more than the text; a phrase beats the same words scattered; identifiers and versions
// are found whole; scores run from 0 to 1 and are the same on SQLite and PostgreSQL.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DocumentsRepo } from '../src/modules/documents/documents.repo.js';
import { startTestApp, type TestApp } from './support/app.js';
import { createCorpus, uploadFiles, uploadText, waitForProcessing } from './support/corpora.js';
import { databaseKinds } from './support/databases.js';
import { pollUntil } from './support/poll.js';
import { createUser, type TestUser } from './support/factories.js';

interface Item {
  document_id: number;
  score: number;
  heading: string | null;
}

/** Every query's answer on each database, compared at the end. */
const answersByKind = new Map<string, Record<string, { source: string; score: number }[]>>();

const FILLER = [
  'Release notes list what changed in each version of the product.',
  'Backups are taken every night and kept for thirty days.',
  'The dashboard shows usage by team and by month.',
  'Invoices are sent on the first working day of the month.',
  'Keyboard shortcuts are listed in the help menu.',
];

describe.each(databaseKinds)('ranking (%s)', (kind) => {
  let t: TestApp;
  let member: TestUser;
  let corpusId: number;
  const ids: Record<string, number> = {};

  const search = async (query: string, limit = 10) => {
    const reply = await member.api.post(`/api/v2/corpora/${corpusId}/search`, { query, limit });
    expect(reply.status).toBe(200);
    return reply.body.data.items as (Item & { source: string })[];
  };

  beforeAll(async () => {
    t = await startTestApp(kind);
    member = await createUser(t.app, { role: 'member' });
    corpusId = (await createCorpus(member)).id;
    const texts: Record<string, [string, string]> = {
      // The word "install" only in the title (the file's name, as it has no title of its own)…
      titled: ['install-guide.txt', 'Download the package, run it, and answer the questions it asks about folders.'],
      // …against a text that names it once among other things.
      mentioned: ['faq.txt', 'Questions people ask: can I install plugins later, who pays the invoices, where the logs are kept.'],
      phrase: ['upsert.txt', 'To insert or update a row in one statement, use the merge command with a key to match on.'],
      scattered: ['scattered.txt', 'Update the statement of accounts each quarter. Insert the new row into the ledger, then match the totals.'],
      identifier: ['paths.txt', 'Build file paths with os.path.join so that separators are right on every system.'],
      words: ['walks.txt', 'Every path in the park will join the main road near the os gate.'],
      version: ['v3112.txt', 'Version 3.11.2 fixed the memory leak in the scheduler.'],
      otherVersion: ['v3121.txt', 'Version 3.12.1 added a scheduler for nightly jobs; see 11 and 2 for details.'],
    };
    for (const [key, [name, text]] of Object.entries(texts)) ids[key] = (await uploadText(member, corpusId, text, { name })).id;
    for (const [index, text] of FILLER.entries()) ids[`filler${index}`] = (await uploadText(member, corpusId, text, { name: `notes-${index}.txt` })).id;
    // A heading path: the word "retention" in a heading beats the same word in a text.
    const markdown = '# Operations\n\n## Retention\n\nLogs are deleted after a while.\n\n## Costs\n\nStorage costs money; retention is discussed elsewhere.\n';
    const upload = await uploadFiles(t.app, member, corpusId, [{ name: 'operations.md', bytes: markdown, contentType: 'text/markdown' }]);
    ids.markdown = (upload.body.data.items as { id: number }[])[0]!.id;
    await waitForProcessing(member, corpusId, Object.values(ids));
  });
  afterAll(() => t.close());

  it('weighs the title above the text', async () => {
    const found = await search('install');
    expect(found.map((item) => item.document_id).slice(0, 2)).toEqual([ids.titled, ids.mentioned]);
  });

  it('weighs the heading path above the text', async () => {
    const [first, second] = await search('retention');
    expect(first).toMatchObject({ document_id: ids.markdown, heading: 'Operations > Retention' });
    expect(second).toMatchObject({ document_id: ids.markdown, heading: 'Operations > Costs' });
    expect(first!.score).toBeGreaterThan(second!.score);
  });

  it('ranks a phrase above the same words scattered', async () => {
    const found = await search('insert or update a row');
    expect(found[0]!.document_id).toBe(ids.phrase);
    expect(found.map((item) => item.document_id)).toContain(ids.scattered);
  });

  it('finds an identifier and a version number whole, before their parts scattered', async () => {
    expect((await search('os.path.join'))[0]!.document_id).toBe(ids.identifier);
    expect((await search('3.11.2'))[0]!.document_id).toBe(ids.version);
    // Its words still find it.
    expect((await search('join paths')).map((item) => item.document_id)).toContain(ids.identifier);
  });

  it('stems and drops stop words: other forms of a word match, "the" alone finds nothing', async () => {
    expect((await search('installing'))[0]!.document_id).toBe(ids.titled);
    expect(await search('the of and')).toEqual([]);
  });

  it('scores from 0 to 1, best first', async () => {
    for (const query of ['install', 'insert or update a row', 'os.path.join', 'scheduler memory leak', 'retention']) {
      const found = await search(query);
      expect(found.length).toBeGreaterThan(0);
      for (const item of found) {
        expect(item.score).toBeGreaterThan(0);
        expect(item.score).toBeLessThanOrEqual(1);
      }
      expect(found.map((item) => item.score)).toEqual([...found.map((item) => item.score)].sort((a, b) => b - a));
    }
  });

  it('analyses a corpus in its language, and reanalyses it when the language changes', async () => {
    const french = (await createCorpus(member, { language: 'french' })).id;
    expect((await member.api.get(`/api/v2/corpora/${french}`)).body.data.language).toBe('french');
    const doc = (await uploadText(member, french, 'Les chevaux mangent les pommes du verger.')).id;
    await waitForProcessing(member, french, [doc]);
    const searchIn = async (query: string) =>
      ((await member.api.post(`/api/v2/corpora/${french}/search`, { query })).body.data.items as Item[]).map((item) => item.document_id);
    // French stemming: "cheval" and "chevaux" share their stem; "les" is a French stop word.
    expect(await searchIn('pomme')).toEqual([doc]);
    expect(await searchIn('les')).toEqual([]);

    const simple = await member.api.put(`/api/v2/corpora/${french}`, { language: 'simple' });
    expect(simple.status).toBe(200);
    expect(simple.body.data.language).toBe('simple');
    expect(await searchIn('pomme')).toEqual([]);
    expect(await searchIn('les')).toEqual([doc]);

    const refused = await member.api.put(`/api/v2/corpora/${french}`, { language: 'klingon' });
    expect(refused.status).toBe(400);
    expect((await member.api.get(`/api/v2/corpora/${french}`)).body.data.language).toBe('simple');
  });

  it('stores a document in the language its corpus has when the document is stored, not when it was prepared', async () => {
    const corpus = (await createCorpus(member, { language: 'french' })).id;
    // The language changes while the document is being prepared: it is stored in the language the corpus has then.
    const ingestion = t.app.services.ingestion;
    const prepare = ingestion.prepare;
    ingestion.prepare = async (...args) => {
      const prepared = await prepare.apply(ingestion, args);
      expect((await member.api.put(`/api/v2/corpora/${corpus}`, { language: 'simple' })).status).toBe(200);
      return prepared;
    };
    try {
      const doc = (await uploadText(member, corpus, 'Les chevaux mangent les pommes du verger.')).id;
      await waitForProcessing(member, corpus, [doc]);
    } finally {
      ingestion.prepare = prepare;
    }
    const searchIn = async (query: string) =>
      ((await member.api.post(`/api/v2/corpora/${corpus}/search`, { query })).body.data.items as Item[]).length;
    expect(await searchIn('les')).toBe(1);
    expect(await searchIn('pomme')).toBe(0);
  });

  // SQLite has one writer at a time: the change and the storing cannot overlap there.
  it.runIf(kind === 'postgres')('a language change made while a document is being stored waits for it, and reanalyses its chunks', async () => {
    const corpus = (await createCorpus(member, { language: 'french' })).id;
    const updateReadingLanguage = DocumentsRepo.prototype.updateReadingLanguage;
    let change: Promise<{ status: number }> | undefined;
    // Once the storing transaction has read the corpus's language, the change is asked for, and the
    // storing goes on when the change is seen waiting for a lock (or, without the lock, once it is done).
    const spy = vi.spyOn(DocumentsRepo.prototype, 'updateReadingLanguage').mockImplementation(async function (this: DocumentsRepo, ...args) {
      const language = await updateReadingLanguage.apply(this, args);
      if (change === undefined) {
        change = member.api.put(`/api/v2/corpora/${corpus}`, { language: 'simple' });
        const waiting = pollUntil(
          async () => (await sql<{ waiting: number }>`select count(*)::int as waiting from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`.execute(t.app.database.db)).rows[0]!.waiting,
          (waiting) => waiting > 0,
          () => 'the language change never waited for a lock',
        );
        await Promise.race([change, waiting]);
      }
      return language;
    });
    try {
      const doc = (await uploadText(member, corpus, 'Les chevaux mangent les pommes du verger.')).id;
      await waitForProcessing(member, corpus, [doc]);
      expect((await change!).status).toBe(200);
    } finally {
      spy.mockRestore();
    }
    const searchIn = async (query: string) =>
      ((await member.api.post(`/api/v2/corpora/${corpus}/search`, { query })).body.data.items as Item[]).length;
    expect(await searchIn('les')).toBe(1);
    expect(await searchIn('pomme')).toBe(0);
  });

  it('a language changed after a job read its document makes the chunks in the new language', async () => {
    const corpus = (await createCorpus(member, { language: 'french' })).id;
    const findForProcessing = DocumentsRepo.prototype.findForProcessing;
    let changed: { status: number } | undefined;
    // The job reads its document and the corpus's language (French), then the language changes
    // before its chunks are stored: their terms are made before the transaction, in French.
    const spy = vi.spyOn(DocumentsRepo.prototype, 'findForProcessing').mockImplementation(async function (this: DocumentsRepo, organizationId: number, documentId: number) {
      const document = await findForProcessing.call(this, organizationId, documentId);
      if (document?.corpus_id === corpus && changed === undefined) changed = await member.api.put(`/api/v2/corpora/${corpus}`, { language: 'simple' });
      return document;
    });
    try {
      const doc = (await uploadText(member, corpus, 'Les chevaux mangent les pommes du verger.')).id;
      await waitForProcessing(member, corpus, [doc]);
    } finally {
      spy.mockRestore();
    }
    expect(changed?.status).toBe(200);
    const searchIn = async (query: string) =>
      ((await member.api.post(`/api/v2/corpora/${corpus}/search`, { query })).body.data.items as Item[]).length;
    expect(await searchIn('les')).toBe(1);
    expect(await searchIn('pomme')).toBe(0);
  });

  it('counts the chunks holding a query\'s terms only when the query has several', async () => {
    const counts = vi.spyOn(t.app.database.dialect.fullText, 'documentFrequencies');
    try {
      // Words no query of this file asked before, so that no count of them is kept.
      expect((await search('keyboard'))[0]!.document_id).toBe(ids.filler4);
      expect(counts).not.toHaveBeenCalled();
      expect((await search('keyboard shortcuts'))[0]!.document_id).toBe(ids.filler4);
      expect(counts).toHaveBeenCalledTimes(1);
    } finally {
      counts.mockRestore();
    }
  });

  it('records its answers for the comparison across databases', async () => {
    const answers: Record<string, { source: string; score: number }[]> = {};
    for (const query of ['install', 'insert or update a row', 'os.path.join', 'scheduler memory leak', 'retention', 'month']) {
      answers[query] = (await search(query)).map((item) => ({ source: item.source, score: item.score }));
    }
    answersByKind.set(kind, answers);
  });
});

describe('ranking across databases', () => {
  it.runIf(databaseKinds.length > 1)('gives the same passages with the same scores on SQLite and PostgreSQL', () => {
    const [first, ...others] = [...answersByKind.values()];
    expect(answersByKind.size).toBe(databaseKinds.length);
    for (const other of others) expect(other).toEqual(first);
  });
});
