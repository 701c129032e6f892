// Document-library connectors on both databases against a fake Graph on loopback (token endpoint,
// drive delta, content download): the corpus equals the library after adds, changes, moves out of the
// folder, deletions and a 410 (full resync); an unchanged sync downloads nothing; Graph's 401, 403,
// 404, 429 (Retry-After obeyed, through an injected wait) and 5xx leave a clear state on the
// connector; files too large or unreadable are counted as failed while the sync goes on; a sync
// stopped by a restart midway goes on without duplicates; one sync at a time; the flag; other
// organizations' connectors are 404.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { restartTestApp, startTestApp, type TestApp } from './support/app.js';
import { createCorpus } from './support/corpora.js';
import { databaseKinds } from './support/databases.js';
import { PNG_BYTES } from './support/documents.js';
import { createOrganization, createUser, type TestUser } from './support/factories.js';
import { client } from './support/http.js';
import { CLIENT_ID, CLIENT_SECRET, DRIVE_ID, FakeGraph, TENANT } from './support/fake-graph.js';
import { pollUntil } from './support/poll.js';

const sha256 = (text: string | Buffer) => createHash('sha256').update(text).digest('hex');
const FILE_LIMIT = 2048;

describe.each(databaseKinds)('document-library connectors (%s)', (kind) => {
  let t: TestApp;
  let graph: FakeGraph;
  let owner: TestUser;
  let waits: number[] = [];

  const env = () => ({
    EGRESS_ALLOWED_HOSTS: `127.0.0.1:${graph.port}`,
    CONNECTOR_LOGIN_URL: graph.origin,
    CONNECTOR_GRAPH_URL: `${graph.origin}/v1.0`,
    LIMIT_UPLOAD_FILE_BYTES: String(FILE_LIMIT),
  });
  /** Retry-After is recorded, not slept through. */
  const injectWait = () => {
    t.app.services.connectorSync.wait = async (ms) => void waits.push(ms);
  };

  beforeAll(async () => {
    graph = await new FakeGraph().start();
    t = await startTestApp(kind, env());
    injectWait();
    owner = await createUser(t.app, { organizationId: await createOrganization(t.app), role: 'owner' });
  });
  afterAll(async () => {
    await t?.close();
    await graph?.close();
  });

  const settings = (corpusId: number, extra: Record<string, unknown> = {}) => ({
    name: `Library ${Math.random().toString(36).slice(2, 8)}`,
    corpus_id: corpusId,
    tenant_id: TENANT,
    client_id: CLIENT_ID,
    client_secret: CLIENT_SECRET,
    drive_id: DRIVE_ID,
    ...extra,
  });

  async function newConnector(extra: Record<string, unknown> = {}) {
    const corpus = await createCorpus(owner);
    const reply = await owner.api.post('/api/v2/connectors', settings(corpus.id, extra));
    expect(reply.status, reply.text).toBe(201);
    return { connectorId: reply.body.data.id as number, corpusId: corpus.id as number };
  }

  /** Asks for a sync and polls the connector (bounded) until it ends. */
  async function sync(connectorId: number, user = owner) {
    const reply = await user.api.post(`/api/v2/connectors/${connectorId}/sync`);
    expect(reply.status, reply.text).toBe(202);
    return waitForSync(connectorId, user);
  }

  async function waitForSync(connectorId: number, user = owner) {
    const view = await pollUntil(
      async () => (await user.api.get(`/api/v2/connectors/${connectorId}`)).body.data,
      (read) => read.last_sync.status === 'succeeded' || read.last_sync.status === 'failed',
      (read) => `Sync still ${read.last_sync.status}`,
    );
    return view.last_sync;
  }

  /** The corpus's documents that are not deleted: name → content hash. */
  async function corpusFiles(corpusId: number): Promise<Record<string, string>> {
    const reply = await owner.api.get(`/api/v2/corpora/${corpusId}/documents?page_size=100`);
    expect(reply.status, reply.text).toBe(200);
    const live = (reply.body.data.items as { source: string; content_hash: string; is_deleted: boolean; upload_from: string }[]).filter((d) => !d.is_deleted);
    for (const document of live) expect(document.upload_from).toBe('document_library');
    return Object.fromEntries(live.map((document) => [document.source, document.content_hash]));
  }

  it('is behind the document-library-index flag', async () => {
    const corpus = await createCorpus(owner);
    const off = await owner.api.post('/api/v2/connectors', settings(corpus.id));
    expect(off.status).toBe(403);
    expect(off.body.error.code).toBe('feature_disabled');
    // Reading, changing and removing existing connectors are not gated; creating and syncing are.
    expect((await owner.api.get('/api/v2/connectors')).status).toBe(200);
    expect((await owner.api.put('/api/v2/feature-flags/document-library-index', { enabled: true })).status).toBe(200);
    const created = await owner.api.post('/api/v2/connectors', settings(corpus.id));
    expect(created.status).toBe(201);
    expect((await owner.api.put('/api/v2/feature-flags/document-library-index', { enabled: false })).status).toBe(200);
    const sync = await owner.api.post(`/api/v2/connectors/${created.body.data.id}/sync`);
    expect(sync.status).toBe(403);
    expect(sync.body.error.code).toBe('feature_disabled');
    expect((await owner.api.get(`/api/v2/connectors/${created.body.data.id}`)).status).toBe(200);
    expect((await owner.api.put('/api/v2/feature-flags/document-library-index', { enabled: true })).status).toBe(200);
  });

  it('keeps the secret sealed, shows its hint, and refuses bad settings with a 4xx', async () => {
    const corpus = await createCorpus(owner);
    const created = await owner.api.post('/api/v2/connectors', settings(corpus.id, { folder_path: 'Policies', schedule_minutes: 60 }));
    expect(created.status, created.text).toBe(201);
    expect(created.text).not.toContain(CLIENT_SECRET);
    expect(created.body.data).toMatchObject({ client_secret_hint: 'gra…6789', folder_path: 'Policies', schedule_minutes: 60, last_sync: { status: 'never' } });
    expect(created.body.data.next_sync_on).not.toBeNull();
    const stored = await t.app.database.db.selectFrom('connectors').select('client_secret_sealed').where('id', '=', created.body.data.id).executeTakeFirstOrThrow();
    expect(stored.client_secret_sealed).not.toContain(CLIENT_SECRET);

    for (const bad of [
      settings(corpus.id, { drive_id: undefined }),
      settings(corpus.id, { site_id: 'contoso.sharepoint.com,1,2' }),
      settings(corpus.id, { schedule_minutes: 1 }),
      settings(corpus.id, { client_secret: '' }),
      { ...settings(corpus.id), tenant_id: 'bad tenant/../x' },
    ]) {
      const reply = await owner.api.post('/api/v2/connectors', bad);
      expect(reply.status, JSON.stringify(bad)).toBe(400);
    }
    expect((await owner.api.post('/api/v2/connectors', settings(999_999))).status).toBe(404);
    const name = created.body.data.name;
    expect((await owner.api.post('/api/v2/connectors', { ...settings(corpus.id), name })).status).toBe(409);
  });

  it('matches the corpus to the library through adds, changes, moves out of the folder, deletions and a 410, downloading nothing unchanged', async () => {
    const p1 = graph.add('Policies', 'leave.txt', 'Annual leave is 25 days.');
    const p2 = graph.add('Policies', 'travel.txt', 'Travel is booked through the portal.');
    const p3 = graph.add('Policies/HR', 'onboarding.txt', 'New starters meet their buddy on day one.');
    const o1 = graph.add('Other', 'menu.txt', 'Soup on Mondays.');
    const { connectorId, corpusId } = await newConnector({ folder_path: '/Policies/' });

    const first = await sync(connectorId);
    expect(first).toMatchObject({ status: 'succeeded', added: 3, updated: 0, removed: 0, failed: 0, error_code: null });
    expect(first.duration_ms).toBeGreaterThanOrEqual(0);
    expect(await corpusFiles(corpusId)).toEqual({
      'leave.txt': sha256('Annual leave is 25 days.'),
      'travel.txt': sha256('Travel is booked through the portal.'),
      'onboarding.txt': sha256('New starters meet their buddy on day one.'),
    });

    // Nothing changed: no file content is fetched.
    const downloaded = graph.downloads.length;
    expect(await sync(connectorId)).toMatchObject({ status: 'succeeded', added: 0, updated: 0, removed: 0, failed: 0 });
    expect(graph.downloads.length).toBe(downloaded);

    graph.change(p1, 'Annual leave is 27 days.');
    graph.delete(p2);
    graph.move(p3, 'Archive');
    graph.move(o1, 'Policies/Food');
    const p4 = graph.add('Policies', 'expenses.txt', 'Receipts within 30 days.');
    expect(await sync(connectorId)).toMatchObject({ status: 'succeeded', added: 2, updated: 1, removed: 2, failed: 0 });
    expect(graph.downloads.slice(downloaded).sort()).toEqual([o1, p1, p4].sort());
    expect(await corpusFiles(corpusId)).toEqual({
      'leave.txt': sha256('Annual leave is 27 days.'),
      'menu.txt': sha256('Soup on Mondays.'),
      'expenses.txt': sha256('Receipts within 30 days.'),
    });

    // The delta link expires, and a deletion no delta would tell of: the full resync removes it.
    graph.deleteUnlogged(p4);
    graph.deltaLinksExpired = true;
    const before = graph.downloads.length;
    try {
      expect(await sync(connectorId)).toMatchObject({ status: 'succeeded', added: 0, updated: 0, removed: 1, failed: 0 });
    } finally {
      graph.deltaLinksExpired = false;
    }
    expect(graph.downloads.length).toBe(before);
    expect(await corpusFiles(corpusId)).toEqual({ 'leave.txt': sha256('Annual leave is 27 days.'), 'menu.txt': sha256('Soup on Mondays.') });
  });

  it('counts files too large or unreadable as failed, with why, and goes on', async () => {
    graph.add('Big', 'huge.txt', 'x'.repeat(FILE_LIMIT + 1));
    graph.add('Big', 'picture.png', PNG_BYTES);
    graph.add('Big', 'fine.txt', 'A readable file.');
    const { connectorId, corpusId } = await newConnector({ folder_path: 'Big' });
    const result = await sync(connectorId);
    expect(result).toMatchObject({ status: 'succeeded', added: 1, failed: 2 });
    expect(result.failures).toEqual(
      expect.arrayContaining([
        { name: 'huge.txt', reason: `larger than the limit of ${FILE_LIMIT} bytes` },
        { name: 'picture.png', reason: 'this kind of file cannot be processed' },
      ]),
    );
    expect(Object.keys(await corpusFiles(corpusId))).toEqual(['fine.txt']);
    // Unchanged, they are not fetched again.
    const downloaded = graph.downloads.length;
    expect(await sync(connectorId)).toMatchObject({ status: 'succeeded', added: 0, failed: 0 });
    expect(graph.downloads.length).toBe(downloaded);
  });

  it('leaves a clear state on the connector when Graph answers 401, 403, 404 or 5xx', async () => {
    const corpus = await createCorpus(owner);
    const wrong = await owner.api.post('/api/v2/connectors', settings(corpus.id, { client_secret: 'not-the-secret' }));
    const auth = await sync(wrong.body.data.id);
    expect(auth).toMatchObject({ status: 'failed', error_code: 'auth' });
    expect(auth.error).toContain('invalid_client');
    expect(auth.error).not.toContain('not-the-secret');

    const { connectorId } = await newConnector({ folder_path: 'Nowhere' });
    for (const [status, code] of [
      [403, 'forbidden'],
      [404, 'not_found'],
      [500, 'upstream'],
      [401, 'auth'],
    ] as const) {
      graph.deltaFailure = { status, times: 1 };
      const state = await sync(connectorId);
      expect(state, String(status)).toMatchObject({ status: 'failed', error_code: code, error: `Graph answered HTTP ${status}: Failing with ${status}` });
    }
    // And the next sync recovers.
    expect(await sync(connectorId)).toMatchObject({ status: 'succeeded', error_code: null, error: null });
  });

  it('obeys Retry-After on 429 and 503, within bounds: throttled past them', async () => {
    const { connectorId } = await newConnector({ folder_path: 'Nowhere' });
    waits = [];
    graph.deltaFailure = { status: 429, retryAfter: '7', times: 1 };
    graph.contentFailure = undefined;
    expect(await sync(connectorId)).toMatchObject({ status: 'succeeded' });
    graph.deltaFailure = { status: 503, retryAfter: '2', times: 1 };
    expect(await sync(connectorId)).toMatchObject({ status: 'succeeded' });
    expect(waits).toEqual([7000, 2000]);

    waits = [];
    graph.deltaFailure = { status: 429, retryAfter: '1', times: Infinity };
    try {
      expect(await sync(connectorId)).toMatchObject({ status: 'failed', error_code: 'throttled' });
    } finally {
      graph.deltaFailure = undefined;
    }
    expect(waits).toEqual([1000, 1000, 1000, 1000]);
    // A wait longer than the bound is not waited.
    waits = [];
    graph.deltaFailure = { status: 429, retryAfter: '3600', times: 1 };
    expect(await sync(connectorId)).toMatchObject({ status: 'failed', error_code: 'throttled' });
    expect(waits).toEqual([]);
  });

  it('runs one sync at a time: a second request while one runs is a 409', async () => {
    const { connectorId } = await newConnector({ folder_path: 'Nowhere' });
    graph.holdDelta = true;
    expect((await owner.api.post(`/api/v2/connectors/${connectorId}/sync`)).status).toBe(202);
    const again = await owner.api.post(`/api/v2/connectors/${connectorId}/sync`);
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('conflict');
    graph.release();
    expect(await waitForSync(connectorId)).toMatchObject({ status: 'succeeded' });
  });

  it('goes on after a restart midway, without duplicates', async () => {
    const ids = ['one', 'two', 'three', 'four', 'five'].map((name) => graph.add('Restart', `${name}.txt`, `The file called ${name}.`));
    const { connectorId, corpusId } = await newConnector({ folder_path: 'Restart' });
    graph.holdDownloadOf = ids[3];
    expect((await owner.api.post(`/api/v2/connectors/${connectorId}/sync`)).status).toBe(202);
    expect(await graph.whenHeld()).toBe(ids[3]);
    // Stopping the server aborts the held download; the job is put back for the next start.
    const closing = restartTestApp(t, env());
    graph.release();
    t = await closing;
    injectWait();
    owner = { ...owner, api: client(t.app, owner.token) };
    expect(await waitForSync(connectorId)).toMatchObject({ status: 'succeeded', failed: 0 });
    const files = await corpusFiles(corpusId);
    expect(Object.keys(files).sort()).toEqual(['five.txt', 'four.txt', 'one.txt', 'three.txt', 'two.txt']);
    const all = (await owner.api.get(`/api/v2/corpora/${corpusId}/documents?page_size=100`)).body.data.items;
    expect(all).toHaveLength(5);
  });

  it('answers 404 for another organization’s connector, and lets corpus writers, not readers, manage', async () => {
    const { connectorId, corpusId } = await newConnector({ folder_path: 'Nowhere' });
    const stranger = await createUser(t.app, { organizationId: await createOrganization(t.app), role: 'owner' });
    expect((await stranger.api.put('/api/v2/feature-flags/document-library-index', { enabled: true })).status).toBe(200);
    expect((await stranger.api.get(`/api/v2/connectors/${connectorId}`)).status).toBe(404);
    expect((await stranger.api.put(`/api/v2/connectors/${connectorId}`, { name: 'Mine' })).status).toBe(404);
    expect((await stranger.api.post(`/api/v2/connectors/${connectorId}/sync`)).status).toBe(404);
    expect((await stranger.api.delete(`/api/v2/connectors/${connectorId}`)).status).toBe(404);
    expect((await stranger.api.get('/api/v2/connectors')).body.data.items).toEqual([]);

    const member = await createUser(t.app, { organizationId: owner.organizationId, role: 'member' });
    expect((await member.api.get(`/api/v2/connectors/${connectorId}`)).status).toBe(404);
    expect((await member.api.get('/api/v2/connectors')).body.data.items).toEqual([]);
    expect((await owner.api.post(`/api/v2/corpora/${corpusId}/permissions`, { user_id: member.id, permission: 'write' })).status).toBeLessThan(300);
    expect((await member.api.get(`/api/v2/connectors/${connectorId}`)).status).toBe(200);
    expect((await member.api.get('/api/v2/connectors')).body.data.items.map((c: { id: number }) => c.id)).toEqual([connectorId]);
    const renamed = await member.api.put(`/api/v2/connectors/${connectorId}`, { name: 'Renamed by a writer' });
    expect(renamed.status, renamed.text).toBe(200);
    expect((await member.api.delete(`/api/v2/connectors/${connectorId}`)).status).toBe(200);
    expect((await owner.api.get(`/api/v2/connectors/${connectorId}`)).status).toBe(404);
  });
});
