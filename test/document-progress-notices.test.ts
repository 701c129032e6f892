// Document progress is pushed: a stream is woken by the notice its corpus's events send at commit
// (PostgreSQL's NOTIFY, SQLite's emitter in the process), not by reading the log over and over. The
// streams here poll once an hour, so an event that arrives came by its notice.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NOTICES_APPLICATION_NAME } from '../src/db/postgres-notices.js';
import { EventStreamWriter } from '../src/http/server-sent-events.js';
import type { Actor } from '../src/modules/auth/actor.js';
import { DOCUMENT_EVENTS_CHANNEL } from '../src/modules/documents/document-statements.sql.js';
import { DocumentProgress } from '../src/modules/documents/progress-events.js';
import { unitOfWork } from '../src/repositories.js';
import { startTestApp, type TestApp } from './support/app.js';
import { createCorpus, uploadText, waitForProcessing } from './support/corpora.js';
import { databaseKinds } from './support/databases.js';
import { createUser, type TestUser } from './support/factories.js';
import { pollUntil } from './support/poll.js';

const AN_HOUR = 3_600_000;

const actorOf = (user: TestUser): Actor => ({ userId: user.id, organizationId: user.organizationId, email: user.email, role: user.role, credential: { kind: 'api_key', id: 0 } });

/** Resolves with the stream's text once it holds `expected`. */
function streamHolding(events: EventStreamWriter, expected: string): Promise<string> {
  return new Promise((resolve) => {
    let text = '';
    events.body.on('data', (chunk: Buffer) => {
      text += chunk.toString();
      if (text.includes(expected)) resolve(text);
    });
  });
}

describe.each(databaseKinds)('document progress pushed by notices (%s)', (kind) => {
  let t: TestApp;
  let member: TestUser;
  let progress: DocumentProgress;

  beforeAll(async () => {
    t = await startTestApp(kind);
    member = await createUser(t.app, { role: 'member' });
    progress = new DocumentProgress(unitOfWork(t.app.database), t.app.services.corpora, t.app.database.notices, { fallbackPollMs: AN_HOUR, heartbeatMs: AN_HOUR });
  });
  afterAll(async () => {
    progress.endAll();
    await t.close();
  });

  async function followNewCorpus() {
    const corpus = await createCorpus(member);
    const events = new EventStreamWriter();
    await progress.follow(actorOf(member), corpus.id, undefined, events);
    return { corpus, events };
  }

  it('a stream hears each step of a document as its transaction commits', async () => {
    const { corpus, events } = await followNewCorpus();
    const indexed = streamHolding(events, '"step":"indexed"');
    const document = await uploadText(member, corpus.id, 'Pushed, not polled.');
    const text = await indexed;
    events.end();
    const steps = [...text.matchAll(/"document_id":(\d+),"step":"(\w+)"/g)].filter((match) => Number(match[1]) === document.id).map((match) => match[2]);
    expect(steps).toEqual(['queued', 'extracting', 'chunking', 'indexed']);
  });

  it('a transaction rolled back tells no one; notices come in commit order', async () => {
    const [first, second] = [await createCorpus(member), await createCorpus(member)];
    const documents = [await uploadText(member, first.id, 'One.'), await uploadText(member, second.id, 'Two.')];
    await waitForProcessing(member, first.id, [documents[0]!.id]);
    await waitForProcessing(member, second.id, [documents[1]!.id]);
    const heard: (string | undefined)[] = [];
    let heardSecond!: () => void;
    const secondHeard = new Promise<void>((resolve) => (heardSecond = resolve));
    const stop = await t.app.database.notices.listen(DOCUMENT_EVENTS_CHANNEL, (payload) => {
      heard.push(payload);
      if (payload === String(second.id)) heardSecond();
    });
    const store = unitOfWork(t.app.database);
    const event = (corpusId: number, documentId: number) => ({ corpus_id: corpusId, document_id: documentId, step: 'extracting' as const, is_failed: 0, error: null, created_on: new Date().toISOString() });
    const rolledBack = store.transaction(async (repos) => {
      await repos.documents.appendEvents([event(first.id, documents[0]!.id)]);
      throw new Error('undone');
    });
    await expect(rolledBack).rejects.toThrow('undone');
    await store.transaction((repos) => repos.documents.appendEvents([event(second.id, documents[1]!.id)]));
    // Had the first been told, it would have been heard before the second.
    await secondHeard;
    stop();
    expect(heard).not.toContain(String(first.id));
  });

  it.runIf(kind === 'postgres')('the listening connection lost: it is opened again and the stream misses nothing', async () => {
    const { corpus, events } = await followNewCorpus();
    const { db } = t.app.database;
    const listening = () =>
      sql<{ pid: number }>`select pid from pg_stat_activity where datname = current_database() and application_name = ${NOTICES_APPLICATION_NAME}`.execute(db).then((result) => result.rows);
    const [before] = await listening();
    expect(before).toBeDefined();
    await sql`select pg_terminate_backend(${before!.pid})`.execute(db);
    // Uploaded while the connection may still be down: told by its notice, or by the wake-up of the new connection.
    const indexed = streamHolding(events, '"step":"indexed"');
    await uploadText(member, corpus.id, 'Said while nobody listened.');
    await indexed;
    events.end();
    const again = await pollUntil(
      listening,
      (rows) => rows.length === 1 && rows[0]!.pid !== before!.pid,
      (rows) => `listening connections: ${JSON.stringify(rows)}`,
    );
    expect(again).toHaveLength(1);
  });
});
