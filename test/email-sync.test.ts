// E-mail indexing's sync on both databases against fake Graph mail and Gmail on loopback: messages and
// attachments become documents (upload_from email), an incremental sync fetches only the changes and an
// unchanged one nothing, deleted and moved-out messages leave, an expired delta link (410) or history
// id (404) brings a full resync, a refused grant or a 401 marks the mailbox for re-authorization, 429
// is waited out (Retry-After, through an injected wait), refresh tokens rotate (never to an empty one),
// and a sync stopped by a restart midway (a second request meanwhile is a 409) goes on without duplicates.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { restartTestApp, startTestApp, type TestApp } from './support/app.js';
import { databaseKinds } from './support/databases.js';
import { linkMailbox, mailDocuments, PUBLIC_BASE_URL, syncMailbox, waitForMailboxSync } from './support/email.js';
import { createOrganization, createUser, type TestUser } from './support/factories.js';
import { FakeMail } from './support/fake-mail.js';
import { PNG_BYTES } from './support/documents.js';
import { client } from './support/http.js';

const FILE_LIMIT = 4096;
const file = (name: string, text: string) => ({ name, content: Buffer.from(text) });

describe.each(databaseKinds)('e-mail indexing sync (%s)', (kind) => {
  let t: TestApp;
  let fake: FakeMail;
  let owner: TestUser;
  let waits: number[] = [];

  const env = () => ({ ...fake.env(PUBLIC_BASE_URL), LIMIT_UPLOAD_FILE_BYTES: String(FILE_LIMIT) });
  const injectWait = () => {
    t.app.services.mailSync.wait = async (ms) => void waits.push(ms);
  };

  beforeAll(async () => {
    fake = await new FakeMail().start();
    t = await startTestApp(kind, env());
    injectWait();
    owner = await createUser(t.app, { organizationId: await createOrganization(t.app), role: 'owner' });
  });
  afterAll(async () => {
    await t?.close();
    await fake?.close();
  });

  it('Microsoft: brings messages and attachments in, then only the changes; deleted and moved-out messages leave; a 410 resyncs in full', async () => {
    const graph = fake.graph;
    const m1 = graph.add('inbox', 'Quarterly figures', 'Revenue rose 4%.', [file('figures.csv', 'quarter,revenue\nQ1,10\nQ2,12\n'), file('logo.png', PNG_BYTES.toString('latin1')), file('huge.txt', 'x'.repeat(FILE_LIMIT + 1))]);
    const m2 = graph.add('inbox', 'Lunch', 'Soup on Monday.');
    const m3 = graph.add('archive', 'Old news', 'Archived.');
    graph.add('drafts', 'Draft', 'Not chosen.');
    const { mailboxId, corpusId } = await linkMailbox(t.app, fake, owner, 'microsoft', { folders: ['inbox', 'archive'] });
    const first = await waitForMailboxSync(owner, mailboxId);
    expect(first.last_sync).toMatchObject({ status: 'succeeded', added: 4, removed: 0, failed: 2, error_code: null });
    expect(await mailDocuments(owner, corpusId)).toEqual([
      ['figures.csv', 'csv'],
      ['Lunch', 'txt'],
      ['Old news', 'txt'],
      ['Quarterly figures', 'txt'],
    ]);
    const text = await owner.api.get(`/api/v2/corpora/${corpusId}/documents?page_size=100`);
    expect(text.body.data.items.find((d: { source: string }) => d.source === 'Lunch').access_url).toContain(m2);

    // Nothing changed: no message or attachment is fetched.
    const downloads = graph.attachmentDownloads.length;
    expect((await syncMailbox(owner, mailboxId)).last_sync).toMatchObject({ status: 'succeeded', added: 0, removed: 0, failed: 0 });
    expect(graph.attachmentDownloads.length).toBe(downloads);

    graph.delete(m1);
    graph.move(m2, 'deleteditems');
    graph.move(m3, 'inbox');
    const m4 = graph.add('inbox', 'New hire', 'Welcome Erin.', [file('welcome.txt', 'Welcome aboard, Erin.')]);
    expect((await syncMailbox(owner, mailboxId)).last_sync).toMatchObject({ status: 'succeeded', added: 2, removed: 3 });
    expect(graph.attachmentDownloads.slice(downloads)).toEqual(['welcome.txt']);
    expect(await mailDocuments(owner, corpusId)).toEqual([
      ['New hire', 'txt'],
      ['Old news', 'txt'],
      ['welcome.txt', 'txt'],
    ]);

    // The delta links expire, and a deletion no delta would tell of: the full resync removes it, fetching nothing again.
    graph.deleteUnlogged(m4);
    graph.deltaLinksExpired = true;
    try {
      expect((await syncMailbox(owner, mailboxId)).last_sync).toMatchObject({ status: 'succeeded', added: 0, removed: 2 });
    } finally {
      graph.deltaLinksExpired = false;
    }
    expect(graph.attachmentDownloads.length).toBe(downloads + 1);
    expect(await mailDocuments(owner, corpusId)).toEqual([['Old news', 'txt']]);
  });

  it('Google: lists the labels first, then reads the history; a label removed or a message deleted leaves; a 404 on the history id resyncs in full', async () => {
    const gmail = fake.gmail;
    const g1 = gmail.add(['INBOX', 'IMPORTANT'], 'Board minutes', 'The board met.', [file('minutes.txt', 'Minutes of the board.')]);
    const g2 = gmail.add(['INBOX'], 'Newsletter', '<p>Our <b>news</b></p>', [], true);
    gmail.add(['SPAM'], 'Win a prize', 'Spam.');
    const { mailboxId, corpusId } = await linkMailbox(t.app, fake, owner, 'google');
    expect((await waitForMailboxSync(owner, mailboxId)).last_sync).toMatchObject({ status: 'succeeded', added: 3, failed: 0 });
    expect(await mailDocuments(owner, corpusId)).toEqual([
      ['Board minutes', 'txt'],
      ['minutes.txt', 'txt'],
      ['Newsletter', 'html'],
    ]);
    expect(gmail.historyRequests).toEqual([]);

    const fetched = gmail.fullFetches.length;
    expect((await syncMailbox(owner, mailboxId)).last_sync).toMatchObject({ status: 'succeeded', added: 0, removed: 0 });
    expect(gmail.fullFetches.length).toBe(fetched);
    expect(gmail.historyRequests.length).toBe(1);

    gmail.relabel(g2, ['CATEGORY_PROMOTIONS']);
    gmail.delete(g1);
    const g3 = gmail.add(['INBOX'], 'Invoice', 'Invoice 42 is due.');
    expect((await syncMailbox(owner, mailboxId)).last_sync).toMatchObject({ status: 'succeeded', added: 1, removed: 3 });
    expect(gmail.fullFetches.slice(fetched)).toEqual([g3]);
    expect(await mailDocuments(owner, corpusId)).toEqual([['Invoice', 'txt']]);

    gmail.deleteUnlogged(g3);
    gmail.add(['INBOX'], 'After the gap', 'Hello again.');
    gmail.expireHistory();
    expect((await syncMailbox(owner, mailboxId)).last_sync).toMatchObject({ status: 'succeeded', added: 1, removed: 1 });
    expect(await mailDocuments(owner, corpusId)).toEqual([['After the gap', 'txt']]);
  });

  it('marks the mailbox for re-authorization when the grant is refused or the API answers 401; 403, 404 and 5xx leave a clear state', async () => {
    const { mailboxId } = await linkMailbox(t.app, fake, owner, 'microsoft', { folders: ['sentitems'] });
    await waitForMailboxSync(owner, mailboxId);
    for (const [status, code] of [
      [403, 'forbidden'],
      [404, 'not_found'],
      [500, 'upstream'],
    ] as const) {
      fake.graph.deltaFailure = { status, times: 1 };
      const view = await syncMailbox(owner, mailboxId);
      expect(view.last_sync, String(status)).toMatchObject({ status: 'failed', error_code: code, error: `Graph answered HTTP ${status}: Failing with ${status}` });
      expect(view.authorization_status).toBe('active');
    }
    fake.apiUnauthorized = true;
    try {
      const view = await syncMailbox(owner, mailboxId);
      expect(view.last_sync).toMatchObject({ status: 'failed', error_code: 'auth' });
      expect(view.authorization_status).toBe('reauthorization_required');
    } finally {
      fake.apiUnauthorized = false;
    }
    // Authorizing again mends it.
    const relinked = await linkMailbox(t.app, fake, owner, 'microsoft', { corpusId: (await owner.api.get(`/api/v2/email-indexing/mailboxes/${mailboxId}`)).body.data.corpus_id, folders: ['sentitems'] });
    expect(relinked.mailboxId).toBe(mailboxId);
    expect(relinked.callback.body.authorization_status).toBe('active');
    expect((await waitForMailboxSync(owner, mailboxId)).last_sync.status).toBe('succeeded');

    fake.revokeRefreshTokens();
    const revoked = await syncMailbox(owner, mailboxId);
    expect(revoked.last_sync).toMatchObject({ status: 'failed', error_code: 'auth' });
    expect(revoked.last_sync.error).toContain('invalid_grant');
    expect(revoked.authorization_status).toBe('reauthorization_required');
  });

  it('waits out a 429’s Retry-After, and keeps a rotated refresh token but never an empty one', async () => {
    const { mailboxId } = await linkMailbox(t.app, fake, owner, 'microsoft', { folders: ['junkemail'] });
    await waitForMailboxSync(owner, mailboxId);
    waits = [];
    fake.graph.deltaFailure = { status: 429, retryAfter: '7', times: 1 };
    expect((await syncMailbox(owner, mailboxId)).last_sync.status).toBe('succeeded');
    expect(waits).toEqual([7000]);

    const sealed = async () => (await t.app.database.db.selectFrom('mailboxes').select('refresh_token_sealed').where('id', '=', mailboxId).executeTakeFirstOrThrow()).refresh_token_sealed;
    const before = await sealed();
    fake.rotateRefreshTokens = 'empty';
    try {
      expect((await syncMailbox(owner, mailboxId)).last_sync.status).toBe('succeeded');
      expect(await sealed()).toBe(before);
      fake.rotateRefreshTokens = 'new';
      expect((await syncMailbox(owner, mailboxId)).last_sync.status).toBe('succeeded');
      const rotated = await sealed();
      expect(rotated).not.toBe(before);
      // The rotated token is the one used next: the one it replaced was revoked, and the sync still succeeds.
      fake.rotateRefreshTokens = undefined;
      const used = fake.tokenRequests.length;
      expect((await syncMailbox(owner, mailboxId)).last_sync.status).toBe('succeeded');
      expect(fake.tokenRequests.length).toBe(used + 1);
    } finally {
      fake.rotateRefreshTokens = undefined;
    }
  });

  it('goes on after a restart midway, without duplicates', async () => {
    const names = ['one', 'two', 'three', 'four', 'five'];
    for (const name of names) fake.graph.add('restart', `Message ${name}`, `The message called ${name}.`, [file(`${name}.txt`, `Attachment ${name}.`)]);
    fake.graph.holdAttachment = 'four.txt';
    const { mailboxId, corpusId } = await linkMailbox(t.app, fake, owner, 'microsoft', { folders: ['restart'] });
    expect(await fake.graph.whenHeld()).toBe('four.txt');
    // One sync at a time: asking again while this one runs is a 409.
    const again = await owner.api.post(`/api/v2/email-indexing/mailboxes/${mailboxId}/sync`);
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('conflict');
    const closing = restartTestApp(t, env());
    fake.graph.release();
    t = await closing;
    injectWait();
    owner = { ...owner, api: client(t.app, owner.token) };
    expect((await waitForMailboxSync(owner, mailboxId)).last_sync).toMatchObject({ status: 'succeeded', failed: 0 });
    const documents = await mailDocuments(owner, corpusId);
    expect(documents.map(([source]) => source).sort()).toEqual([...names.map((n) => `Message ${n}`), ...names.map((n) => `${n}.txt`)].sort());
    const all = (await owner.api.get(`/api/v2/corpora/${corpusId}/documents?page_size=100`)).body.data.items;
    expect(all).toHaveLength(10);
  });
});
