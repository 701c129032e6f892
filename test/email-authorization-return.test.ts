// E-mail authorization started from one of this server's pages (the console's sources page), on both
// databases: with `return_to`, the public callback sends the browser back to that page with the
// outcome (303 with ?linked_mailbox=<id>, or ?link_error=<reason> for a refusal, an expired or replayed
// state, another account, the provider's failure) instead of answering JSON. Only a path of this origin
// is accepted, it travels signed inside the state, and a state altered to name another is refused.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './support/app.js';
import { createCorpus } from './support/corpora.js';
import { databaseKinds } from './support/databases.js';
import { PUBLIC_BASE_URL } from './support/email.js';
import { createOrganization, createUser, type TestUser } from './support/factories.js';
import { FakeMail } from './support/fake-mail.js';
import { request } from './support/http.js';

const SOURCES = '/organization/sources';

describe.each(databaseKinds)('e-mail authorization returning to the console (%s)', (kind) => {
  let t: TestApp;
  let fake: FakeMail;
  let owner: TestUser;

  beforeAll(async () => {
    fake = await new FakeMail().start();
    t = await startTestApp(kind, fake.env(PUBLIC_BASE_URL));
    owner = await createUser(t.app, { organizationId: await createOrganization(t.app), role: 'owner' });
  });
  afterAll(async () => {
    await t?.close();
    await fake?.close();
  });

  const callback = (query: string) => request(t.app, 'GET', `/api/email-indexing/callback/?${query}`);
  const mailboxCount = async () => (await t.app.database.db.selectFrom('mailboxes').select('id').execute()).length;
  async function authorize(extra: Record<string, unknown> = {}) {
    const corpus = await createCorpus(owner);
    const reply = await owner.api.post('/api/email-indexing/authorize/', { provider: 'microsoft', corpus_id: corpus.id, mailbox: fake.graph.address, return_to: SOURCES, ...extra });
    expect(reply.status, reply.text).toBe(200);
    return reply.body as { authorization_url: string };
  }
  /** The Location of a 303, split into its path and query. */
  function returned(reply: { status: number; headers: Record<string, unknown>; text: string }) {
    expect(reply.status, reply.text).toBe(303);
    const location = String(reply.headers.location);
    expect(location.startsWith('/')).toBe(true);
    const url = new URL(location, 'http://x.invalid');
    return { path: url.pathname, query: url.searchParams };
  }

  it('links the mailbox and sends the browser back with its id; a replay goes back with the reason', async () => {
    const query = fake.consent((await authorize()).authorization_url);
    const linked = returned(await callback(query));
    expect(linked.path).toBe(SOURCES);
    const mailboxId = Number(linked.query.get('linked_mailbox'));
    expect((await owner.api.get(`/api/v2/email-indexing/mailboxes/${mailboxId}`)).body.data).toMatchObject({ address: fake.graph.address });

    const replay = returned(await callback(query));
    expect(replay.path).toBe(SOURCES);
    expect(replay.query.get('link_error')).toMatch(/already used/);
    expect(replay.query.get('linked_mailbox')).toBeNull();
  });

  it('goes back with the reason when the provider refuses, or another account signs in; nothing is linked', async () => {
    const before = await mailboxCount();
    const refused = new URL((await authorize()).authorization_url).searchParams.get('state')!;
    const denied = returned(await callback(`error=access_denied&state=${encodeURIComponent(refused)}`));
    expect(denied.path).toBe(SOURCES);
    expect(denied.query.get('link_error')).toMatch(/refused the authorization: access_denied/);

    const other = returned(await callback(fake.consent((await authorize()).authorization_url, 'mallory@contoso.example')));
    expect(other.query.get('link_error')).toMatch(/mallory@contoso\.example.*is not the mailbox/);

    fake.tokenFailure = { status: 503, times: 1 };
    const upstream = returned(await callback(fake.consent((await authorize()).authorization_url)));
    expect(upstream.query.get('link_error')).toMatch(/could not complete the authorization/);
    expect(await mailboxCount()).toBe(before);
  });

  it('answers JSON without return_to, and a state altered to point elsewhere is refused as forged', async () => {
    const corpus = await createCorpus(owner);
    const plain = await owner.api.post('/api/email-indexing/authorize/', { provider: 'microsoft', corpus_id: corpus.id, mailbox: fake.graph.address });
    const reply = await callback(fake.consent(plain.body.authorization_url));
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body).toMatchObject({ address: fake.graph.address });

    const query = new URLSearchParams(fake.consent((await authorize()).authorization_url));
    const parts = query.get('state')!.split('.');
    expect(parts).toHaveLength(5);
    parts[3] = Buffer.from('//evil.example/', 'utf8').toString('base64url');
    query.set('state', parts.join('.'));
    const forged = await callback(query.toString());
    expect(forged.status, forged.text).toBe(400);
    expect(forged.headers.location).toBeUndefined();
  });

  it('accepts only a path of this origin as return_to', async () => {
    const corpus = await createCorpus(owner);
    const before = (await t.app.database.db.selectFrom('email_authorizations').select('id').execute()).length;
    for (const returnTo of ['//evil.example/x', 'https://evil.example/', '/\\evil.example', '/a b', '/tab\there', 'organization/sources', `/${'a'.repeat(250)}`, '/ünïcode', '']) {
      const reply = await owner.api.post('/api/email-indexing/authorize/', { provider: 'microsoft', corpus_id: corpus.id, mailbox: fake.graph.address, return_to: returnTo });
      expect(reply.status, returnTo).toBe(400);
    }
    expect((await t.app.database.db.selectFrom('email_authorizations').select('id').execute()).length).toBe(before);
    // A path with its own query keeps it, the outcome added beside it.
    const query = fake.consent((await authorize({ return_to: '/organization/sources?tab=mailboxes' })).authorization_url);
    const back = returned(await callback(query));
    expect(back.query.get('tab')).toBe('mailboxes');
    expect(back.query.get('linked_mailbox')).toMatch(/^\d+$/);
  });
});
