// Scheduled mail sync and re-authorization during a sync, on both databases, against fake Graph mail
// and Gmail on loopback. No worker runs in the app: the test claims jobs itself at the times it names
// (two workers claiming at once), with the server's clock standing still, so what is due is exact.
// A due mailbox is synced once; a second job claimed beside a running sync ends without syncing; a
// schedule changed while a sync runs takes effect when it ends; asking for a sync brings the scheduled
// job forward. A re-authorization while a sync is held midway raises the mailbox's generation: the
// stale sync ends without writing its cursor, and the new state's sync is queued in its place.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nowMs } from '../src/clock.js';
import type { Job } from '../src/jobs/job-types.js';
import { startTestApp, type TestApp } from './support/app.js';
import { steppedClock } from './support/clock.js';
import { databaseKinds } from './support/databases.js';
import { linkMailbox, mailDocuments, PUBLIC_BASE_URL } from './support/email.js';
import { createOrganization, createUser, type TestUser } from './support/factories.js';
import { FakeMail } from './support/fake-mail.js';
import { request } from './support/http.js';

const MINUTE = 60_000;
const iso = (ms: number) => new Date(ms).toISOString();
const file = (name: string, text: string) => ({ name, content: Buffer.from(text) });

describe.each(databaseKinds)('e-mail indexing schedule and re-authorization (%s)', (kind) => {
  let t: TestApp;
  let fake: FakeMail;
  let owner: TestUser;
  let clock: ReturnType<typeof steppedClock>;

  beforeAll(async () => {
    clock = steppedClock();
    fake = await new FakeMail().start();
    t = await startTestApp(kind, { ...fake.env(PUBLIC_BASE_URL), WORKER_IN_PROCESS: 'false' });
    owner = await createUser(t.app, { organizationId: await createOrganization(t.app), role: 'owner' });
  });
  afterAll(async () => {
    await t?.close();
    await fake?.close();
    clock?.restore();
  });

  const mailboxJobs = (mailboxId: number) =>
    t.app.database.db.selectFrom('jobs').select(['id', 'status', 'run_after']).where('kind', '=', 'mailbox.sync').where('mailbox_id', '=', mailboxId).orderBy('id').execute();

  /** Two workers claim what is due at `atMs` at once; answers the mailbox's sync jobs they got, with their owner. */
  async function claimDue(mailboxId: number, atMs: number) {
    const claims = await Promise.all(['worker-a', 'worker-b'].map(async (owner) => ({ owner, jobs: await t.app.services.store.repos.jobs.claim(owner, iso(atMs), iso(atMs + 10 * MINUTE), 100) })));
    return claims.flatMap(({ owner, jobs }) =>
      jobs.filter((job) => job.name === 'mailbox.sync' && 'payload' in job && job.payload.mailboxId === mailboxId).map((job) => ({ owner, job: job as Job<'mailbox.sync'> })),
    );
  }

  /** Runs a claimed sync as the worker would: its transaction ends the job, or the job ends after. */
  async function runSync({ owner, job }: { owner: string; job: Job<'mailbox.sync'> }) {
    const { repos } = t.app.services.store;
    let completed = false;
    await t.app.services.mailSync.run(job, async (inTransaction) => {
      await inTransaction.jobs.finish(job.id, owner, 'done', iso(nowMs()));
      completed = true;
    });
    if (!completed) await repos.jobs.finish(job.id, owner, 'done', iso(nowMs()));
  }

  const patchMailbox = (user: TestUser, mailboxId: number, body: unknown) => request(t.app, 'PATCH', `/api/v2/email-indexing/mailboxes/${mailboxId}`, body, { token: user.token });

  const view = async (mailboxId: number) => {
    const reply = await owner.api.get(`/api/v2/email-indexing/mailboxes/${mailboxId}`);
    expect(reply.status, reply.text).toBe(200);
    return reply.body.data;
  };

  it('syncs a due mailbox once, not twice by two workers nor while a sync runs; a changed schedule waits for the running sync', async () => {
    fake.graph.add('scheduled', 'Weekly report', 'All well.');
    const { mailboxId, callback } = await linkMailbox(t.app, fake, owner, 'microsoft', { folders: ['scheduled'], schedule_minutes: 60 });
    expect(callback.body).toMatchObject({ schedule_minutes: 60, next_sync_on: null, last_sync: { status: 'queued' } });

    // The first sync, queued by the callback: one of the two workers gets it.
    const first = await claimDue(mailboxId, nowMs());
    expect(first).toHaveLength(1);
    await runSync(first[0]!);
    const due = nowMs() + 60 * MINUTE;
    expect(await view(mailboxId)).toMatchObject({ next_sync_on: iso(due), last_sync: { status: 'succeeded', added: 1 } });
    expect(await mailboxJobs(mailboxId)).toMatchObject([{ status: 'done' }, { status: 'queued', run_after: iso(due) }]);

    // Not before its time; at its time, once.
    expect(await claimDue(mailboxId, due - 1)).toEqual([]);
    clock.step(60 * MINUTE);
    const tokens = fake.tokenRequests.length;
    const scheduled = await claimDue(mailboxId, due);
    expect(scheduled).toHaveLength(1);
    await runSync(scheduled[0]!);
    expect(fake.tokenRequests.length).toBe(tokens + 1);
    expect(await view(mailboxId)).toMatchObject({ next_sync_on: iso(due + 60 * MINUTE), last_sync: { status: 'succeeded' } });

    // Asking for a sync brings the scheduled job forward: still one waiting job.
    const asked = await owner.api.post(`/api/v2/email-indexing/mailboxes/${mailboxId}/sync`);
    expect(asked.status, asked.text).toBe(202);
    expect(asked.body.data).toMatchObject({ next_sync_on: null, last_sync: { status: 'queued' } });
    expect((await mailboxJobs(mailboxId)).filter((job) => job.status === 'queued')).toEqual([expect.objectContaining({ run_after: iso(nowMs()) })]);

    // A second job claimed while the sync runs (held midway) ends at once, without syncing.
    fake.graph.add('scheduled', 'Held', 'Waits.', [file('held.txt', 'Held attachment.')]);
    fake.graph.holdAttachment = 'held.txt';
    const [running] = await claimDue(mailboxId, nowMs());
    const held = fake.graph.whenHeld();
    const runningSync = runSync(running!);
    await held;
    await t.app.services.store.repos.jobs.enqueue('mailbox.sync', { organizationId: owner.organizationId, mailboxId }, iso(nowMs()));
    const [duplicate] = await claimDue(mailboxId, nowMs());
    const before = fake.tokenRequests.length;
    await runSync(duplicate!);
    expect(fake.tokenRequests.length).toBe(before);
    expect((await view(mailboxId)).last_sync.status).toBe('running');

    // While it runs: a second request is a 409, and a schedule changed queues nothing yet.
    expect((await owner.api.post(`/api/v2/email-indexing/mailboxes/${mailboxId}/sync`)).status).toBe(409);
    const patched = await patchMailbox(owner, mailboxId, { schedule_minutes: 30 });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body.data).toMatchObject({ schedule_minutes: 30, next_sync_on: null });
    expect((await mailboxJobs(mailboxId)).filter((job) => job.status === 'queued')).toEqual([]);
    fake.graph.release();
    await runningSync;
    // Its end queues the next by the new schedule.
    expect(await view(mailboxId)).toMatchObject({ next_sync_on: iso(nowMs() + 30 * MINUTE), last_sync: { status: 'succeeded', added: 2 } });
    expect((await mailboxJobs(mailboxId)).filter((job) => job.status === 'queued')).toEqual([expect.objectContaining({ run_after: iso(nowMs() + 30 * MINUTE) })]);

    // Idle: a new schedule replaces the waiting job; none removes it.
    clock.step(MINUTE);
    expect((await patchMailbox(owner, mailboxId, { schedule_minutes: 120 })).body.data.next_sync_on).toBe(iso(nowMs() + 120 * MINUTE));
    expect((await mailboxJobs(mailboxId)).filter((job) => job.status === 'queued')).toEqual([expect.objectContaining({ run_after: iso(nowMs() + 120 * MINUTE) })]);
    expect((await patchMailbox(owner, mailboxId, { schedule_minutes: null })).body.data).toMatchObject({ schedule_minutes: null, next_sync_on: null });
    expect((await mailboxJobs(mailboxId)).filter((job) => job.status === 'queued')).toEqual([]);
    expect((await patchMailbox(owner, mailboxId, {})).status).toBe(200);
  });

  it('a sync job that failed for good ends the sync failed and keeps the schedule going', async () => {
    const { mailboxId } = await linkMailbox(t.app, fake, owner, 'microsoft', { folders: ['failing'], schedule_minutes: 15 });
    const [claimed] = await claimDue(mailboxId, nowMs());
    await t.app.services.mailSync.onFailed(claimed!.job, 'the database went away');
    await t.app.services.store.repos.jobs.finish(claimed!.job.id, claimed!.owner, 'failed', iso(nowMs()));
    expect(await view(mailboxId)).toMatchObject({ next_sync_on: iso(nowMs() + 15 * MINUTE), last_sync: { status: 'failed', error: 'The sync stopped: the database went away' } });
    expect((await mailboxJobs(mailboxId)).filter((job) => job.status === 'queued')).toEqual([expect.objectContaining({ run_after: iso(nowMs() + 15 * MINUTE) })]);
  });

  it('refuses a bad schedule with a 400 and another organization’s mailbox with a 404, changing nothing', async () => {
    const { mailboxId } = await linkMailbox(t.app, fake, owner, 'microsoft', { folders: ['refused'], schedule_minutes: 10 });
    for (const body of [{ schedule_minutes: 4 }, { schedule_minutes: 10_081 }, { schedule_minutes: 'often' }, { schedule_minutes: 1.5 }, { folders: ['x'] }]) {
      const reply = await patchMailbox(owner, mailboxId, body);
      expect(reply.status, JSON.stringify(body)).toBe(400);
    }
    expect((await owner.api.post('/api/email-indexing/authorize/', { provider: 'microsoft', corpus_id: 1, schedule_minutes: 1 })).status).toBe(400);
    const stranger = await createUser(t.app, { organizationId: await createOrganization(t.app), role: 'owner' });
    expect((await patchMailbox(stranger, mailboxId, { schedule_minutes: 60 })).status).toBe(404);
    expect(await view(mailboxId)).toMatchObject({ schedule_minutes: 10 });
  });

  it('a re-authorization while a sync runs: the stale sync writes no cursor, and the new labels’ sync follows', async () => {
    const gmail = fake.gmail;
    gmail.add(['INBOX'], 'Before', 'Already indexed.');
    const { mailboxId, corpusId } = await linkMailbox(t.app, fake, owner, 'google', { folders: ['INBOX'] });
    await runSync((await claimDue(mailboxId, nowMs()))[0]!);
    expect(await mailDocuments(owner, corpusId)).toEqual([['Before', 'txt']]);

    gmail.add(['INBOX'], 'During', 'Read while the owner authorizes again.', [file('during.txt', 'Held attachment.')]);
    gmail.add(['Label_9'], 'Chosen later', 'In the label chosen at re-authorization.');
    gmail.holdAttachment = 'during.txt';
    expect((await owner.api.post(`/api/v2/email-indexing/mailboxes/${mailboxId}/sync`)).status).toBe(202);
    const held = gmail.whenHeld();
    const stale = runSync((await claimDue(mailboxId, nowMs()))[0]!);
    await held;

    // Authorized again with another label while the sync is held: the cursor is reset for a full listing.
    const again = await linkMailbox(t.app, fake, owner, 'google', { corpusId, folders: ['Label_9'] });
    expect(again.mailboxId).toBe(mailboxId);
    const row = () => t.app.database.db.selectFrom('mailboxes').select(['sync_cursor', 'generation', 'sync_status']).where('id', '=', mailboxId).executeTakeFirstOrThrow();
    expect(await row()).toMatchObject({ sync_cursor: '{}', generation: 1, sync_status: 'running' });
    gmail.release();
    await stale;
    // The stale sync wrote no cursor over the reset one; the new state's sync is queued in its place.
    expect(await row()).toMatchObject({ sync_cursor: '{}', generation: 1, sync_status: 'queued' });
    expect((await mailboxJobs(mailboxId)).filter((job) => job.status === 'queued')).toHaveLength(1);

    await runSync((await claimDue(mailboxId, nowMs()))[0]!);
    expect((await view(mailboxId)).last_sync).toMatchObject({ status: 'succeeded', error_code: null });
    expect(await mailDocuments(owner, corpusId)).toEqual([['Chosen later', 'txt']]);
    expect(JSON.parse((await row()).sync_cursor)).not.toEqual({});
  });
});
