// The jobs table under concurrent workers: claims never overlap, expired leases are taken again,
// failures are retried with backoff and then given up with the handler told.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JobsRepo } from '../src/jobs/jobs.repo.js';
import { PermanentJobError, Worker, type JobHandler } from '../src/jobs/worker.js';
import type { JobRow } from '../src/db/schema.js';
import { startTestApp, type TestApp } from './support/app.js';
import { databaseKinds } from './support/databases.js';
import { firstOrganizationId } from './support/factories.js';

const iso = (ms: number) => new Date(ms).toISOString();
const silentLog = { warn: () => undefined, error: () => undefined, info: () => undefined } as never;

describe.each(databaseKinds)('jobs (%s)', (kind) => {
  let t: TestApp;
  let repo: JobsRepo;
  let organizationId: number;

  beforeAll(async () => {
    // The app's own worker stays out of the way: these tests drive the table themselves.
    t = await startTestApp(kind, { WORKER_IN_PROCESS: 'false' });
    repo = new JobsRepo(t.app.database.db, t.app.database.dialect);
    organizationId = await firstOrganizationId(t.app);
  });
  afterAll(() => t.close());

  async function enqueue(count: number, kind = 'test.job', maxAttempts = 3) {
    for (let i = 0; i < count; i++) await repo.enqueue({ organization_id: organizationId, kind, document_id: null, max_attempts: maxAttempts, run_after: iso(Date.now()) }, iso(Date.now()));
  }

  it('concurrent claims never take the same job', async () => {
    await enqueue(40);
    const now = Date.now();
    const claims = await Promise.all(Array.from({ length: 8 }, (_, i) => repo.claim(`worker-${i}`, iso(now), iso(now + 60_000), 10)));
    const ids = claims.flat().map((job) => job.id);
    expect(ids.length).toBe(40);
    expect(new Set(ids).size).toBe(40);
    for (const job of claims.flat()) expect(job).toMatchObject({ status: 'running', attempts: 1 });
    expect(await repo.claim('late', iso(now), iso(now + 60_000), 10)).toEqual([]);
  });

  it('a job whose lease expired is claimed again, and the old owner can no longer finish it', async () => {
    await t.app.database.db.deleteFrom('jobs').execute();
    await enqueue(1);
    const start = Date.now();
    const [job] = await repo.claim('dead-worker', iso(start), iso(start + 1000), 1);
    expect(await repo.claim('other', iso(start + 500), iso(start + 1500), 1)).toEqual([]);
    const [again] = await repo.claim('other', iso(start + 2000), iso(start + 3000), 1);
    expect(again!.id).toBe(job!.id);
    expect(again!.attempts).toBe(2);
    expect(await repo.finish(job!.id, 'dead-worker', 'done', iso(Date.now()))).toBe(false);
    expect(await repo.finish(job!.id, 'other', 'done', iso(Date.now()))).toBe(true);
  });

  it('a worker retries failures with backoff, then gives up and tells the handler; permanent failures at once', async () => {
    await t.app.database.db.deleteFrom('jobs').execute();
    const runs: number[] = [];
    const failed: string[] = [];
    const handler: JobHandler = {
      run: async (job: JobRow) => {
        runs.push(job.attempts);
        if (job.kind === 'test.permanent') throw new PermanentJobError('cannot be mended');
        throw new Error(`transient ${job.attempts}`);
      },
      onFailed: async (job: JobRow, reason: string) => {
        failed.push(`${job.kind}: ${reason}`);
      },
    };
    const worker = new Worker(t.app.database, { 'test.flaky': handler, 'test.permanent': handler }, { concurrency: 2, leaseMs: 5000, pollMs: 20, backoffMs: 10 }, silentLog);
    await enqueue(1, 'test.flaky', 3);
    await enqueue(1, 'test.permanent', 3);
    worker.start();
    const deadline = Date.now() + 10_000;
    while (failed.length < 2 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    await worker.stop();
    expect(failed.sort()).toEqual(['test.flaky: transient 3', 'test.permanent: cannot be mended']);
    expect(runs.sort()).toEqual([1, 1, 2, 3]);
    const rows = await t.app.database.db.selectFrom('jobs').select(['kind', 'status', 'attempts']).orderBy('kind').execute();
    expect(rows).toEqual([
      { kind: 'test.flaky', status: 'failed', attempts: 3 },
      { kind: 'test.permanent', status: 'failed', attempts: 1 },
    ]);
  });
});
