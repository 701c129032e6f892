// Server-Sent Events of document processing, read over a real connection.
import { sql, type Kysely } from 'kysely';
import type { DB } from '../src/db/schema.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DocumentsRepo } from '../src/modules/documents/documents.repo.js';
import { unitOfWork } from '../src/repositories.js';
import { startTestApp, type TestApp } from './support/app.js';
import { createCorpus, uploadText, waitForProcessing } from './support/corpora.js';
import { databaseKinds } from './support/databases.js';
import { createOrganization, createUser, type TestUser } from './support/factories.js';
import { pollUntil } from './support/poll.js';

interface ServerEvent {
  id: number;
  event: string;
  data: { document_id: number; step: string; is_failed: boolean; error: string | null };
}

/** Reads events from an open stream until `done` says so (or the time is up). */
async function readEvents(response: Response, done: (events: ServerEvent[]) => boolean, timeoutMs = 15_000): Promise<ServerEvent[]> {
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  const events: ServerEvent[] = [];
  let buffer = '';
  const deadline = Date.now() + timeoutMs;
  try {
    while (!done(events) && Date.now() < deadline) {
      const { value, done: ended } = await reader.read();
      if (ended) break;
      buffer += decoder.decode(value, { stream: true });
      let boundary;
      while ((boundary = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, boundary);
        buffer = buffer.slice(boundary + 2);
        const fields: Record<string, string> = Object.fromEntries(block.split('\n').filter((l) => l && !l.startsWith(':')).map((l) => [l.slice(0, l.indexOf(':')), l.slice(l.indexOf(':') + 1).trim()]));
        if (fields.event && fields.data) events.push({ id: Number(fields.id), event: fields.event, data: JSON.parse(fields.data) });
      }
    }
  } finally {
    await reader.cancel();
  }
  return events;
}

describe.each(databaseKinds)('document events (%s)', (kind) => {
  let t: TestApp;
  let member: TestUser;
  let base: string;

  beforeAll(async () => {
    t = await startTestApp(kind);
    member = await createUser(t.app, { role: 'member' });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`;
  });
  afterAll(() => t.close());

  const open = (corpusId: number, token: string, headers: Record<string, string> = {}) =>
    fetch(`${base}/api/v2/corpora/${corpusId}/events`, { headers: { authorization: `Bearer ${token}`, ...headers } });

  it('streams each step of a document as it is processed, and resumes after Last-Event-ID', async () => {
    const corpus = await createCorpus(member);
    const response = await open(corpus.id, member.token);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    const document = await uploadText(member, corpus.id, 'Streaming events are fun.');
    const events = await readEvents(response, (seen) => seen.some((e) => e.data.step === 'indexed'));
    const steps = events.filter((e) => e.data.document_id === document.id).map((e) => e.data.step);
    expect(steps).toEqual(['queued', 'extracting', 'chunking', 'indexed']);
    expect(events.every((e) => e.event === 'document')).toBe(true);

    const resumed = await open(corpus.id, member.token, { 'last-event-id': String(events[1]!.id) });
    const replay = await readEvents(resumed, (seen) => seen.some((e) => e.data.step === 'indexed'));
    expect(replay.map((e) => e.data.step)).toEqual(['chunking', 'indexed']);
  });

  const lockWaits = async (db: Kysely<DB>) =>
    (await sql<{ waiting: number }>`select count(*)::int as waiting from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`.execute(db)).rows[0]!.waiting;

  /** A corpus with a processed document, a reader of its events, and gates for a transaction held open. */
  async function appendingToANewCorpus() {
    const corpus = await createCorpus(member);
    const document = await uploadText(member, corpus.id, 'A note on ordering.');
    await waitForProcessing(member, corpus.id, [document.id]);
    const scope = { organizationId: member.organizationId, corpusId: corpus.id };
    const { db, dialect } = t.app.database;
    const reader = new DocumentsRepo(db, dialect);
    const event = (step: 'extracting' | 'chunking') => ({ corpus_id: corpus.id, document_id: document.id, step, is_failed: 0, error: null, created_on: new Date().toISOString() });
    let appended!: () => void;
    const firstAppended = new Promise<void>((resolve) => (appended = resolve));
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    return { scope, db, dialect, reader, before: await reader.lastEventId(scope), event, appended, firstAppended, release, held };
  }

  it.runIf(kind === 'postgres')('an event appended to a corpus after another is never seen before it commits: the later waits', async () => {
    const { scope, db, dialect, reader, before, event, appended, firstAppended, release, held } = await appendingToANewCorpus();
    // Written at once (a repository outside the unit of work), in one statement with its locks.
    const first = db.transaction().execute(async (trx) => {
      await new DocumentsRepo(trx, dialect).appendEvents(Array.from({ length: 9 }, () => event('extracting')));
      appended();
      await held;
    });
    await firstAppended;
    const second = db.transaction().execute((trx) => new DocumentsRepo(trx, dialect).appendEvents([event('chunking')]));
    // The second either commits (the first's event, uncommitted, is then passed over) or waits for a lock.
    const waiting = pollUntil(
      () => lockWaits(db),
      (count) => count > 0,
      () => 'the second append never waited',
    );
    await Promise.race([second, waiting]);
    expect(await reader.eventsAfter(scope, before, 10)).toEqual([]);
    release();
    await Promise.all([first, second]);
    expect((await reader.eventsAfter(scope, before, 20)).map((row) => row.step)).toEqual([...Array.from({ length: 9 }, () => 'extracting'), 'chunking']);
  });

  it.runIf(kind === 'postgres')('a transaction writes its events at its end: until then another appends to the corpus and commits without waiting', async () => {
    const { scope, db, reader, before, event, appended, firstAppended, release, held } = await appendingToANewCorpus();
    const first = unitOfWork(t.app.database).transaction(async (repos) => {
      await repos.documents.appendEvents([event('extracting')]);
      // Bound as arrays: an error with the characters of an array's text form, and NULL, comes back as written.
      await repos.documents.appendEvents([event('extracting'), { ...event('extracting'), is_failed: 1, error: 'a "quoted", {braced} \\ NULL' }]);
      appended();
      await held;
    });
    await firstAppended;
    // Would wait for the first's lock, had the first written its events when it appended them.
    let secondEnded = false;
    const second = unitOfWork(t.app.database)
      .transaction((repos) => repos.documents.appendEvents([event('chunking')]))
      .finally(() => (secondEnded = true));
    const waitingForLocks = await pollUntil(
      async () => (secondEnded ? 0 : await lockWaits(db)),
      (waiting) => secondEnded || waiting > 0,
      () => 'the second append neither ended nor waited',
    );
    release();
    await Promise.all([first, second]);
    expect(waitingForLocks).toBe(0);
    const events = await reader.eventsAfter(scope, before, 10);
    expect(events.map((row) => row.step)).toEqual(['chunking', 'extracting', 'extracting', 'extracting']);
    expect(events.map((row) => row.error)).toEqual([null, null, null, 'a "quoted", {braced} \\ NULL']);
  });

  it('404 for a corpus the caller may not read, 401 without credentials', async () => {
    const corpus = await createCorpus(member);
    const colleague = await createUser(t.app, { role: 'member' });
    expect((await open(corpus.id, colleague.token)).status).toBe(404);
    const stranger = await createUser(t.app, { role: 'owner', organizationId: await createOrganization(t.app) });
    expect((await open(corpus.id, stranger.token)).status).toBe(404);
    expect((await fetch(`${base}/api/v2/corpora/${corpus.id}/events`)).status).toBe(401);
  });
});
