// E-mail indexing's authorization on both databases against fake OAuth providers on loopback: the
// authorization URL (PKCE S256, signed state), the callback's happy path (refresh token sealed, first
// sync queued), forged, expired, replayed and missing states and the provider's refusal (400, nothing
// written), the binding of an authorization to the mailbox it expects (another account signing in is a
// 400 that writes nothing), a re-consent without a refresh token keeping the stored one, and tenancy.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { restartTestApp, startTestApp, testConfig, type TestApp } from './support/app.js';
import { resealSecrets } from '../src/modules/llm/reseal-cli.js';
import { steppedClock } from './support/clock.js';
import { createCorpus } from './support/corpora.js';
import { databaseKinds } from './support/databases.js';
import { linkMailbox, PUBLIC_BASE_URL, waitForMailboxSync } from './support/email.js';
import { createOrganization, createUser, type TestUser } from './support/factories.js';
import { FakeMail, MAIL_CLIENT } from './support/fake-mail.js';
import { client, request } from './support/http.js';

describe.each(databaseKinds)('e-mail indexing authorization (%s)', (kind) => {
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

  const callback = (query: string) => request(t.app, 'GET', `/api/email-indexing/callback/${query}`);
  const counts = async () => ({
    mailboxes: (await t.app.database.db.selectFrom('mailboxes').select('id').execute()).length,
    jobs: (await t.app.database.db.selectFrom('jobs').select('id').where('kind', '=', 'mailbox.sync').execute()).length,
  });
  const authorize = async (provider: 'microsoft' | 'google' = 'microsoft', extra: { mailbox?: string; corpus_id?: number } = {}) => {
    const corpusId = extra.corpus_id ?? (await createCorpus(owner)).id;
    const reply = await owner.api.post('/api/email-indexing/authorize/', { provider, corpus_id: corpusId, ...(extra.mailbox ? { mailbox: extra.mailbox } : {}) });
    expect(reply.status, reply.text).toBe(200);
    return reply.body as { authorization_url: string; redirect_uri: string; expires_on: string; mailbox: string };
  };

  it('answers the provider’s URL with a PKCE S256 challenge and a signed state; the verifier stays on the server', async () => {
    for (const provider of ['microsoft', 'google'] as const) {
      const answer = await authorize(provider);
      const url = new URL(answer.authorization_url);
      expect(`${url.origin}${url.pathname}`).toBe(`${fake.origin}/${provider}/authorize`);
      expect(url.searchParams.get('client_id')).toBe(MAIL_CLIENT.id);
      expect(url.searchParams.get('response_type')).toBe('code');
      expect(url.searchParams.get('redirect_uri')).toBe(`${PUBLIC_BASE_URL}/api/email-indexing/callback/`);
      expect(answer.redirect_uri).toBe(`${PUBLIC_BASE_URL}/api/email-indexing/callback/`);
      expect(url.searchParams.get('code_challenge_method')).toBe('S256');
      expect(url.searchParams.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(url.searchParams.get('state')).toMatch(/^[A-Za-z0-9_-]+\.[a-z0-9]+\.[A-Za-z0-9_-]{43}\.[A-Za-z0-9_-]{43}$/);
      // The expected mailbox: preselected at the provider, but never written out in the state.
      expect(url.searchParams.get('login_hint')).toBe(owner.email);
      expect(url.searchParams.get('state')).not.toContain(owner.email.split('@')[0]);
      expect(url.searchParams.get('scope')).toContain(provider === 'microsoft' ? 'offline_access' : 'gmail.readonly');
      if (provider === 'google') expect(url.searchParams.get('access_type')).toBe('offline');
      // The verifier is sealed in the database, and nowhere in the answer.
      const row = await t.app.database.db.selectFrom('email_authorizations').selectAll().orderBy('id', 'desc').executeTakeFirstOrThrow();
      expect(row.verifier_sealed.startsWith('v1.')).toBe(true);
      expect(answer.authorization_url).not.toContain(row.verifier_sealed);
    }
    // Bad input: a 4xx, nothing kept.
    const before = (await t.app.database.db.selectFrom('email_authorizations').select('id').execute()).length;
    const corpus = await createCorpus(owner);
    for (const body of [{ provider: 'yahoo', corpus_id: corpus.id }, { provider: 'google' }, { provider: 'google', corpus_id: corpus.id, folders: [] }, { provider: 'google', corpus_id: corpus.id, folders: ['../x y'] }, { provider: 'google', corpus_id: corpus.id, mailbox: 'not an address' }]) {
      expect((await owner.api.post('/api/email-indexing/authorize/', body)).status, JSON.stringify(body)).toBe(400);
    }
    expect((await owner.api.post('/api/email-indexing/authorize/', { provider: 'google', corpus_id: 999_999 })).status).toBe(404);
    expect((await t.app.database.db.selectFrom('email_authorizations').select('id').execute()).length).toBe(before);
    expect((await request(t.app, 'POST', '/api/email-indexing/authorize/', { provider: 'google', corpus_id: corpus.id })).status).toBe(401);
  });

  it('links the mailbox on the callback: the refresh token sealed, the first sync queued', async () => {
    const { mailboxId, corpusId, callback: reply } = await linkMailbox(t.app, fake, owner, 'microsoft');
    expect(reply.body).toMatchObject({ provider: 'microsoft', address: fake.graph.address, corpus_id: corpusId, folders: ['inbox'], authorization_status: 'active' });
    expect(reply.text).not.toMatch(/refresh-|access-/);
    const exchange = fake.tokenRequests.find((form) => form.get('grant_type') === 'authorization_code')!;
    expect(exchange.get('redirect_uri')).toBe(`${PUBLIC_BASE_URL}/api/email-indexing/callback/`);
    expect(exchange.get('code_verifier')).toMatch(/^[A-Za-z0-9_-]{43,128}$/);
    const row = await t.app.database.db.selectFrom('mailboxes').selectAll().where('id', '=', mailboxId).executeTakeFirstOrThrow();
    expect(row.refresh_token_sealed).not.toContain('refresh-');
    expect((await waitForMailboxSync(owner, mailboxId)).last_sync.status).toBe('succeeded');
  });

  it('refuses a missing, forged, expired or replayed state, and the provider’s refusal, writing nothing', async () => {
    const answer = await authorize();
    const query = fake.consent(answer.authorization_url);
    const state = new URLSearchParams(query).get('state')!;
    const code = new URLSearchParams(query).get('code')!;
    const before = await counts();
    const [nonce, expires, mailbox, mac] = state.split('.');
    const forgedMac = createHash('sha256').update('x').digest('base64url');
    const otherMailbox = createHash('sha256').update('mallory@example.net').digest('base64url');
    for (const bad of [
      `?code=${code}`,
      `?code=${code}&state=`,
      `?code=${code}&state=garbage`,
      `?code=${code}&state=${nonce}.${expires}.${mailbox}.${forgedMac}`,
      `?code=${code}&state=${nonce}.${(Date.now() + 3_600_000).toString(36)}.${mailbox}.${mac}`,
      // The expected mailbox swapped: the signature no longer holds.
      `?code=${code}&state=${nonce}.${expires}.${otherMailbox}.${mac}`,
      `?code=${code}&state=${nonce}.${expires}.${mac}`,
      `?code=${code}&state=${'A'.repeat(600)}`,
    ]) {
      const reply = await callback(bad);
      expect(reply.status, bad).toBe(400);
      expect(reply.body.error.code).toBe('bad_request');
    }
    expect(await counts()).toEqual(before);

    // Late: past its ten minutes.
    const clock = steppedClock();
    try {
      clock.step(11 * 60_000);
      const late = await callback(`?${query}`);
      expect(late.status).toBe(400);
      expect(late.body.message).toContain('expired');
    } finally {
      clock.restore();
    }
    expect(await counts()).toEqual(before);

    // Used once, refused the second time.
    const fresh = fake.consent((await authorize()).authorization_url, owner.email);
    expect((await callback(`?${fresh}`)).status).toBe(200);
    const after = await counts();
    const replay = await callback(`?${fresh}`);
    expect(replay.status).toBe(400);
    expect(replay.body.message).toContain('already used');
    expect(await counts()).toEqual(after);

    // The owner said no.
    const denied = new URL((await authorize()).authorization_url).searchParams.get('state')!;
    const refusal = await callback(`?error=access_denied&error_description=The+user+declined&state=${encodeURIComponent(denied)}`);
    expect(refusal.status).toBe(400);
    expect(refusal.body.message).toContain('access_denied');
    expect(await counts()).toEqual(after);
  });

  describe.each(['microsoft', 'google'] as const)('the mailbox an authorization expects (%s)', (provider) => {
    it('refuses an account other than the starter’s completing it: a 400, no mailbox, no token, no sync', async () => {
      const intruder = await createUser(t.app, { organizationId: owner.organizationId, role: 'member' });
      const answer = await authorize(provider);
      const before = await counts();
      // The starter's link opened by someone else, who signs in with their own account and consents.
      const reply = await callback(`?${fake.consent(answer.authorization_url, intruder.email)}`);
      expect(reply.status, reply.text).toBe(400);
      expect(answer.mailbox).toBe(owner.email);
      expect(reply.body.error.code).toBe('bad_request');
      expect(reply.body.message).toContain(`(${intruder.email}) is not the mailbox this authorization was started for`);
      expect(reply.text).not.toMatch(/refresh-|access-/);
      expect(await counts()).toEqual(before);
      expect(await t.app.database.db.selectFrom('mailboxes').select('id').where('address', '=', intruder.email).execute()).toEqual([]);
      // The authorization is spent: the same link is refused to its own starter too.
      expect((await callback(`?${fake.consent(answer.authorization_url, owner.email)}`)).status).toBe(400);
      expect(await counts()).toEqual(before);
    });

    it('links the starter’s own mailbox (the provider’s identity compared without case), and syncs it', async () => {
      const answer = await authorize(provider);
      expect(answer.mailbox).toBe(owner.email);
      expect(new URL(answer.authorization_url).searchParams.get('login_hint')).toBe(owner.email);
      const reply = await callback(`?${fake.consent(answer.authorization_url, owner.email.toUpperCase())}`);
      expect(reply.status, reply.text).toBe(200);
      expect(reply.body).toMatchObject({ provider, address: owner.email, authorization_status: 'active' });
      expect((await waitForMailboxSync(owner, reply.body.id)).last_sync.status).toBe('succeeded');
    });

    it('links a mailbox named when starting, and only that one', async () => {
      const shared = `Shared.Inbox+${provider}@Example.NET`;
      const answer = await authorize(provider, { mailbox: shared });
      expect(answer.mailbox).toBe(shared.toLowerCase());
      expect(new URL(answer.authorization_url).searchParams.get('login_hint')).toBe(shared.toLowerCase());
      const before = await counts();
      // Named, the starter's own account no longer fits.
      const wrong = await callback(`?${fake.consent(answer.authorization_url, owner.email)}`);
      expect(wrong.status, wrong.text).toBe(400);
      expect(await counts()).toEqual(before);

      const again = await authorize(provider, { mailbox: shared });
      const reply = await callback(`?${fake.consent(again.authorization_url, shared)}`);
      expect(reply.status, reply.text).toBe(200);
      expect(reply.body.address).toBe(shared.toLowerCase());
      expect((await waitForMailboxSync(owner, reply.body.id)).last_sync.status).toBe('succeeded');
    });
  });

  it('keeps the stored refresh token when a re-consent brings none', async () => {
    const { mailboxId, corpusId } = await linkMailbox(t.app, fake, owner, 'google');
    await waitForMailboxSync(owner, mailboxId);
    const sealed = async () => (await t.app.database.db.selectFrom('mailboxes').select('refresh_token_sealed').where('id', '=', mailboxId).executeTakeFirstOrThrow()).refresh_token_sealed;
    const stored = await sealed();
    fake.omitRefreshToken = true;
    const again = await linkMailbox(t.app, fake, owner, 'google', { corpusId, folders: ['INBOX', 'SENT'] });
    expect(again.mailboxId).toBe(mailboxId);
    expect(again.callback.body.folders).toEqual(['INBOX', 'SENT']);
    expect(await sealed()).toBe(stored);
    // And the stored token still works.
    expect((await waitForMailboxSync(owner, mailboxId)).last_sync.status).toBe('succeeded');
  });

  it('lets no one of another organization, nor a reader of the corpus, see or use a mailbox', async () => {
    const { mailboxId, corpusId } = await linkMailbox(t.app, fake, owner, 'microsoft');
    await waitForMailboxSync(owner, mailboxId);
    const stranger = await createUser(t.app, { organizationId: await createOrganization(t.app), role: 'owner' });
    expect((await stranger.api.get(`/api/v2/email-indexing/mailboxes/${mailboxId}`)).status).toBe(404);
    expect((await stranger.api.post(`/api/v2/email-indexing/mailboxes/${mailboxId}/sync`)).status).toBe(404);
    expect((await stranger.api.delete(`/api/v2/email-indexing/mailboxes/${mailboxId}`)).status).toBe(404);
    expect((await stranger.api.get('/api/v2/email-indexing/mailboxes')).body.data.items).toEqual([]);
    expect((await stranger.api.post('/api/email-indexing/authorize/', { provider: 'microsoft', corpus_id: corpusId })).status).toBe(404);

    const member = await createUser(t.app, { organizationId: owner.organizationId, role: 'member' });
    expect((await member.api.get(`/api/v2/email-indexing/mailboxes/${mailboxId}`)).status).toBe(404);
    expect((await owner.api.post(`/api/v2/corpora/${corpusId}/permissions`, { user_id: member.id, permission: 'read' })).status).toBeLessThan(300);
    expect((await member.api.post('/api/email-indexing/authorize/', { provider: 'microsoft', corpus_id: corpusId })).status).toBe(403);
    expect((await owner.api.post(`/api/v2/corpora/${corpusId}/permissions`, { user_id: member.id, permission: 'write' })).status).toBeLessThan(300);
    // A writer links their own mailbox, and may not name someone else's (a link to phish them with).
    const authorizations = async () => (await t.app.database.db.selectFrom('email_authorizations').select('id').execute()).length;
    const before = await authorizations();
    expect((await member.api.post('/api/email-indexing/authorize/', { provider: 'microsoft', corpus_id: corpusId, mailbox: member.email.toUpperCase() })).status).toBe(200);
    const named = await member.api.post('/api/email-indexing/authorize/', { provider: 'microsoft', corpus_id: corpusId, mailbox: owner.email });
    expect(named.status, named.text).toBe(403);
    expect(await authorizations()).toBe(before + 1);
    expect((await member.api.get('/api/v2/email-indexing/mailboxes')).body.data.items.map((m: { id: number }) => m.id)).toEqual([mailboxId]);
    expect((await member.api.delete(`/api/v2/email-indexing/mailboxes/${mailboxId}`)).status).toBe(200);
    expect((await owner.api.get(`/api/v2/email-indexing/mailboxes/${mailboxId}`)).status).toBe(404);
  });

  it('re-seals refresh tokens with the current secret key (reseal-secrets), and the mailbox syncs on', async () => {
    const { mailboxId } = await linkMailbox(t.app, fake, owner, 'google');
    await waitForMailboxSync(owner, mailboxId);
    const keyId = async () => (await t.app.database.db.selectFrom('mailboxes').select('refresh_token_key_id').where('id', '=', mailboxId).executeTakeFirstOrThrow()).refresh_token_key_id;
    const former = await keyId();
    const env = { ...fake.env(PUBLIC_BASE_URL), SECRET_KEY: 'a-new-secret-key-for-rotation-0123456789', SECRET_KEY_PREVIOUS: t.app.secretKey };
    t = await restartTestApp(t, env);
    owner = { ...owner, api: client(t.app, owner.token) };
    const outcome = await resealSecrets(testConfig(t.scratch, env));
    expect(outcome.unreadableMailboxes).toEqual([]);
    expect(await keyId()).not.toBe(former);
    const reply = await owner.api.post(`/api/v2/email-indexing/mailboxes/${mailboxId}/sync`);
    expect(reply.status, reply.text).toBe(202);
    expect((await waitForMailboxSync(owner, mailboxId)).last_sync.status).toBe('succeeded');
  });
});
