// Losing the PostgreSQL connections while documents are processed and a transaction is open: the
// process lives on (no 'error' event or rejection goes unhandled), requests during the outage are
// answered 503, and the interrupted job is taken again after the outage and the document indexed.
// PostgreSQL only: an embedded SQLite database has no connection to lose.
import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { DocumentProcessor } from '../src/modules/documents/pipeline/process-document.js';
import { restartTestApp, startTestApp, type TestApp } from './support/app.js';
import { createCorpus, uploadText } from './support/corpora.js';
import { relayWithOutages, type DatabaseOutage } from './support/database-outage.js';
import { databaseKinds } from './support/databases.js';
import { createUser } from './support/factories.js';

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((done) => (resolve = done));
  return { promise, resolve };
}

describe.skipIf(!databaseKinds.includes('postgres'))('losing the PostgreSQL connections (postgres)', () => {
  let t: TestApp;
  let outage: DatabaseOutage;
  const faults: unknown[] = [];
  const recordFault = (error: unknown) => faults.push(error);

  beforeAll(async () => {
    process.on('uncaughtException', recordFault);
    process.on('unhandledRejection', recordFault);
    // Migrated first, then started again through the relay, with a worker quick to retry.
    const direct = await startTestApp('postgres', { WORKER_IN_PROCESS: 'false' });
    outage = await relayWithOutages(direct.scratch.databaseUrl!);
    t = await restartTestApp(direct, {
      DATABASE_URL: outage.url,
      WORKER_LEASE_SECONDS: '1',
      WORKER_POLL_MS: '20',
      WORKER_RETRY_BACKOFF_MS: '10',
    });
  });
  afterEach(() => vi.restoreAllMocks());
  afterAll(async () => {
    outage.end();
    await t.close();
    await outage.close();
    process.off('uncaughtException', recordFault);
    process.off('unhandledRejection', recordFault);
  });

  it('fails the open transaction and the running job, answers 503, then retries the job to indexed', async () => {
    const user = await createUser(t.app);
    const corpus = await createCorpus(user);

    // The job stops at its first step until the outage has begun.
    const jobReading = deferred();
    const outageBegun = deferred();
    const readFile = t.app.blobs.get.bind(t.app.blobs);
    vi.spyOn(t.app.blobs, 'get').mockImplementationOnce(async (key) => {
      jobReading.resolve();
      await outageBegun.promise;
      return readFile(key);
    });
    const runs: ('done' | 'failed')[] = [];
    const run = DocumentProcessor.prototype.run;
    vi.spyOn(DocumentProcessor.prototype, 'run').mockImplementation(function (this: DocumentProcessor, ...args) {
      return run.apply(this, args).then(
        () => void runs.push('done'),
        (error: unknown) => {
          runs.push('failed');
          throw error;
        },
      );
    });

    const document = await uploadText(user, corpus.id, 'Lighthouses keep ships off the rocks at night.');
    await jobReading.promise;

    // A transaction holding its connection, idle between two queries, when the connection is lost.
    const inTransaction = deferred();
    const transaction = t.app.database.db.transaction().execute(async (trx) => {
      await sql`select 1`.execute(trx);
      inTransaction.resolve();
      await outageBegun.promise;
      await sql`select 1`.execute(trx);
    });
    await inTransaction.promise;

    try {
      await outage.begin();
    } finally {
      // Even when the outage could not begin, so that the job and the transaction end.
      outageBegun.resolve();
    }
    const lost = await transaction.then(() => undefined, (error: unknown) => error);
    expect(t.app.database.dialect.isUnavailable(lost)).toBe(true);

    const path = `/api/v2/corpora/${corpus.id}/documents/${document.id}`;
    expect((await user.api.get(path)).status).toBe(503);
    // The job's next step meets the outage.
    await vi.waitFor(() => expect(runs).toEqual(['failed']), { timeout: 10_000, interval: 20 });

    outage.end();
    expect((await user.api.get(path)).status).toBe(200);
    await vi.waitFor(
      async () => {
        const reply = await user.api.get(path);
        expect(reply.body.data).toMatchObject({ step: 'indexed', is_failed: false });
      },
      { timeout: 15_000, interval: 50 },
    );
    expect(runs).toEqual(['failed', 'done']);
    const job = await t.app.database.db.selectFrom('jobs').select(['status', 'attempts']).where('document_id', '=', document.id).executeTakeFirstOrThrow();
    expect(job).toEqual({ status: 'done', attempts: 2 });
    expect(faults).toEqual([]);
  });
});
