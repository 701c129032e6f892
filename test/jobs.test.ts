// The jobs table under concurrent workers: claims never overlap, expired leases are taken again,
// failures are retried with backoff and then given up with the handler told, a database outage is
// retried however long it lasts, and payloads come back typed as they were enqueued.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { JobHandler, JobHandlers } from '../src/jobs/job-handler.js';
import { JobsRepo, type ClaimedJob } from '../src/jobs/jobs.repo.js';
import { PermanentJobError, Worker, type WorkerOptions } from '../src/jobs/worker.js';
import { startTestApp, type TestApp } from './support/app.js';
import { createCorpus, uploadFiles } from './support/corpora.js';
import { databaseKinds } from './support/databases.js';
import { createUser, type TestUser } from './support/factories.js';

const iso = (ms: number) => new Date(ms).toISOString();
const silentLog = { warn: () => undefined, error: () => undefined, info: () => undefined } as never;
const quickly: WorkerOptions = { concurrency: 2, leaseMs: 5000, pollMs: 20, backoffMs: 10 };

/** What each database reports when its connection is lost or it is busy: the dialect calls it unavailable. */
const outageErrors = {
  sqlite: () => Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' }),
  postgres: () => Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }),
};

describe.each(databaseKinds)('jobs (%s)', (kind) => {
  let t: TestApp;
  let repo: JobsRepo;
  let user: TestUser;
  let corpusId: number;

  beforeAll(async () => {
    // The app's own worker stays out of the way: these tests drive the table themselves.
    t = await startTestApp(kind, { WORKER_IN_PROCESS: 'false' });
    repo = new JobsRepo(t.app.database.db, t.app.database.dialect);
    user = await createUser(t.app);
    corpusId = (await createCorpus(user)).id;
  });
  beforeEach(() => t.app.database.db.deleteFrom('jobs').execute());
  afterAll(() => t.close());

  /** Documents to hang jobs on (a job's document is a foreign key); their uploads' own jobs are removed. */
  async function newDocuments(count: number): Promise<number[]> {
    const ids: number[] = [];
    for (let made = 0; made < count; made += 20) {
      const files = Array.from({ length: Math.min(20, count - made) }, () => ({ name: 'note.txt', bytes: `A note about harbours, ${randomUUID()}.` }));
      const reply = await uploadFiles(t.app, user, corpusId, files);
      ids.push(...reply.body.data.items.map((document: { id: number }) => document.id));
    }
    await t.app.database.db.deleteFrom('jobs').execute();
    return ids;
  }

  async function enqueueProcessing(documentIds: number[]) {
    for (const documentId of documentIds) await repo.enqueue('document.process', { organizationId: user.organizationId, documentId }, iso(Date.now()));
  }

  /** No evaluation is enqueued here. */
  const NO_EVALUATIONS: JobHandler<'evaluation.run'> = {
    run: () => Promise.reject(new Error('No evaluation job is enqueued in these tests')),
    onFailed: () => Promise.resolve(),
  };

  /** No connector is synced here. */
  const NO_SYNCS: JobHandler<'connector.sync'> = {
    run: () => Promise.reject(new Error('No connector sync is enqueued in these tests')),
    onFailed: () => Promise.resolve(),
  };

  /** No mailbox is synced here. */
  const NO_MAILBOX_SYNCS: JobHandler<'mailbox.sync'> = {
    run: () => Promise.reject(new Error('No mailbox sync is enqueued in these tests')),
    onFailed: () => Promise.resolve(),
  };

  /** No tool import is run here. */
  const NO_TOOL_IMPORTS: JobHandler<'tool.import'> = {
    run: () => Promise.reject(new Error('No tool import is enqueued in these tests')),
    onFailed: () => Promise.resolve(),
  };

  function runWorker(handler: JobHandler<'document.process'>) {
    const handlers: JobHandlers = { 'document.process': handler, 'evaluation.run': NO_EVALUATIONS, 'connector.sync': NO_SYNCS, 'mailbox.sync': NO_MAILBOX_SYNCS, 'tool.import': NO_TOOL_IMPORTS };
    const worker = new Worker(t.app.services.store, handlers, quickly, silentLog);
    worker.start();
    return worker;
  }

  const jobRows = () => t.app.database.db.selectFrom('jobs').select(['kind', 'document_id', 'status', 'attempts', 'last_error']).orderBy('id').execute();

  it('stores a payload in the job row and claims it back typed', async () => {
    const [documentId] = await newDocuments(1);
    await enqueueProcessing([documentId!]);
    expect(await jobRows()).toEqual([{ kind: 'document.process', document_id: documentId, status: 'queued', attempts: 0, last_error: null }]);
    const [job] = await repo.claim('worker', iso(Date.now()), iso(Date.now() + 60_000), 1);
    expect(job).toMatchObject({ name: 'document.process', payload: { organizationId: user.organizationId, documentId }, attempts: 1, maxAttempts: 3 });
  });

  it('concurrent claims never take the same job', async () => {
    await enqueueProcessing(await newDocuments(40));
    const now = Date.now();
    const claims = await Promise.all(Array.from({ length: 8 }, (_, i) => repo.claim(`worker-${i}`, iso(now), iso(now + 60_000), 10)));
    const ids = claims.flat().map((job) => job.id);
    expect(ids.length).toBe(40);
    expect(new Set(ids).size).toBe(40);
    for (const job of claims.flat()) expect(job).toMatchObject({ name: 'document.process', attempts: 1 });
    expect(await repo.claim('late', iso(now), iso(now + 60_000), 10)).toEqual([]);
  });

  it('a job whose lease expired is claimed again, and the old owner can no longer finish it', async () => {
    await enqueueProcessing(await newDocuments(1));
    const start = Date.now();
    const [job] = await repo.claim('dead-worker', iso(start), iso(start + 1000), 1);
    expect(await repo.claim('other', iso(start + 500), iso(start + 1500), 1)).toEqual([]);
    const [again] = await repo.claim('other', iso(start + 2000), iso(start + 3000), 1);
    expect(again!.id).toBe(job!.id);
    expect(again!.attempts).toBe(2);
    expect(await repo.finish(job!.id, 'dead-worker', 'done', iso(Date.now()))).toBe(false);
    expect(await repo.finish(job!.id, 'other', 'done', iso(Date.now()))).toBe(true);
  });

  it('ends a job and claims the next in one call: never the job itself, though its lease expired; nothing left to claim answers none', async () => {
    const [one, two] = await newDocuments(2);
    const start = Date.now();
    await repo.enqueue('document.process', { organizationId: user.organizationId, documentId: one! }, iso(start));
    // Due after the lease of the first expires: the first would be claimed before it.
    await repo.enqueue('document.process', { organizationId: user.organizationId, documentId: two! }, iso(start), iso(start + 1500));
    const [first] = await repo.claim('worker', iso(start), iso(start + 1000), 1);
    // Past the lease of the job being ended: it is claimable again, yet not by its own ending.
    const next = await repo.finishAndClaimNext(first!.id, 'worker', iso(start + 2000), iso(start + 62_000));
    expect(next).toMatchObject({ name: 'document.process', attempts: 1 });
    expect(next!.id).not.toBe(first!.id);
    expect(await repo.finishAndClaimNext(next!.id, 'worker', iso(start + 3000), iso(start + 63_000))).toBeUndefined();
    const rows = await t.app.database.db.selectFrom('jobs').select(['id', 'status', 'lease_owner']).orderBy('id').execute();
    expect(rows).toEqual([
      { id: first!.id, status: 'done', lease_owner: null },
      { id: next!.id, status: 'done', lease_owner: null },
    ]);
  });

  it('a worker that lost its job\'s lease does not end it when it ends it and claims the next', async () => {
    await enqueueProcessing(await newDocuments(1));
    const start = Date.now();
    const [job] = await repo.claim('dead-worker', iso(start), iso(start + 1000), 1);
    const [taken] = await repo.claim('other', iso(start + 2000), iso(start + 62_000), 1);
    expect(taken!.id).toBe(job!.id);
    expect(await repo.finishAndClaimNext(job!.id, 'dead-worker', iso(start + 3000), iso(start + 63_000))).toBeUndefined();
    expect(await t.app.database.db.selectFrom('jobs').select(['status', 'lease_owner']).where('id', '=', job!.id).executeTakeFirst()).toEqual({ status: 'running', lease_owner: 'other' });
  });

  it('claims due jobs in the order they fell due and an expired lease beside them, never more than asked, nothing not yet due', async () => {
    const [late, early, future, stalled] = await newDocuments(4);
    const start = Date.now();
    await repo.enqueue('document.process', { organizationId: user.organizationId, documentId: stalled! }, iso(start - 5000));
    const [held] = await repo.claim('dead-worker', iso(start - 5000), iso(start - 1000), 1);
    await repo.enqueue('document.process', { organizationId: user.organizationId, documentId: late! }, iso(start), iso(start - 1000));
    await repo.enqueue('document.process', { organizationId: user.organizationId, documentId: early! }, iso(start), iso(start - 2000));
    await repo.enqueue('document.process', { organizationId: user.organizationId, documentId: future! }, iso(start), iso(start + 60_000));
    const documentOf = (job: ClaimedJob | undefined) => (job && 'payload' in job ? (job.payload as { documentId: number }).documentId : undefined);
    const first = await repo.claim('worker', iso(start), iso(start + 60_000), 2);
    expect(first.map(documentOf).sort()).toEqual([stalled, early].sort());
    expect(first.find((job) => documentOf(job) === stalled)!.id).toBe(held!.id);
    expect((await repo.claim('worker', iso(start), iso(start + 60_000), 5)).map(documentOf)).toEqual([late]);
    expect(await repo.claim('worker', iso(start), iso(start + 60_000), 5)).toEqual([]);
  });

  it('a worker retries failures with backoff, then gives up and tells the handler; permanent failures at once', async () => {
    const [flaky, permanent] = await newDocuments(2);
    const runs: number[] = [];
    const failed: string[] = [];
    const worker = runWorker({
      run: async (job) => {
        runs.push(job.attempts);
        if (job.payload.documentId === permanent) throw new PermanentJobError('cannot be mended');
        throw new Error(`transient ${job.attempts}`);
      },
      onFailed: async (job, reason) => {
        failed.push(`${job.payload.documentId === flaky ? 'flaky' : 'permanent'}: ${reason}`);
      },
    });
    await enqueueProcessing([flaky!, permanent!]);
    await vi.waitFor(() => expect(failed.length).toBe(2), { timeout: 10_000, interval: 20 });
    await worker.stop();
    expect(failed.sort()).toEqual(['flaky: transient 3', 'permanent: cannot be mended']);
    expect(runs.sort()).toEqual([1, 1, 2, 3]);
    expect((await jobRows()).map(({ document_id, status, attempts }) => ({ document_id, status, attempts }))).toEqual([
      { document_id: flaky, status: 'failed', attempts: 3 },
      { document_id: permanent, status: 'failed', attempts: 1 },
    ]);
  });

  it('a job completed in its handler\'s transaction ends with it; a transaction that fails after completing leaves it to be tried again', async () => {
    const [documentId] = await newDocuments(1);
    const completedIn: string[] = [];
    const worker = runWorker({
      run: async (job, complete) => {
        await t.app.services.store.transaction(async (repos) => {
          await complete(repos);
          completedIn.push((await repos.jobs.countOpenJobs()).map((open) => open.status).join() || 'none open');
          if (job.attempts === 1) throw new Error('the work failed after the job was completed');
        });
      },
      onFailed: async () => undefined,
    });
    await enqueueProcessing([documentId!]);
    await vi.waitFor(async () => expect((await jobRows())[0]).toMatchObject({ status: 'done', attempts: 2 }), { timeout: 10_000, interval: 20 });
    await worker.stop();
    // Inside the transaction the job was already done; the first attempt's rollback undid that.
    expect(completedIn).toEqual(['none open', 'none open']);
  });

  it('a job that meets a database outage is retried past its attempts, and not failed for it', async () => {
    const [documentId] = await newDocuments(1);
    const failed: string[] = [];
    const worker = runWorker({
      run: async (job) => {
        if (job.attempts <= 4) throw outageErrors[kind]();
      },
      onFailed: async (_job, reason) => {
        failed.push(reason);
      },
    });
    await enqueueProcessing([documentId!]);
    await vi.waitFor(async () => expect((await jobRows())[0]).toMatchObject({ status: 'done', attempts: 5 }), { timeout: 10_000, interval: 20 });
    await worker.stop();
    expect(failed).toEqual([]);
  });

  it('leaves jobs of an unknown name to a newer worker, and fails a job without its payload', async () => {
    const at = iso(Date.now());
    const row = { organization_id: user.organizationId, status: 'queued' as const, max_attempts: 3, run_after: at, created_on: at, modified_on: at };
    await t.app.database.db.insertInto('jobs').values([{ ...row, kind: 'report.email', document_id: null }, { ...row, kind: 'document.process', document_id: null }]).execute();
    const run = vi.fn(async () => undefined);
    const worker = runWorker({ run, onFailed: run });
    await vi.waitFor(async () => expect((await jobRows())[1]).toMatchObject({ status: 'failed' }), { timeout: 10_000, interval: 20 });
    await worker.stop();
    expect(await jobRows()).toEqual([
      { kind: 'report.email', document_id: null, status: 'queued', attempts: 0, last_error: null },
      { kind: 'document.process', document_id: null, status: 'failed', attempts: 1, last_error: 'The document.process job holds no payload' },
    ]);
    expect(run).not.toHaveBeenCalled();
  });
});
