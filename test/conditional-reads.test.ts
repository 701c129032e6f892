// Conditional reads of a corpus's document listings (docs/api.md, "Conditional requests"): an ETag
// that moves with every write a listing shows (uploads, the worker's steps, tags, deletes) and with
// the query and the caller, a 304 for If-None-Match holding it, and the caller authorised first.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Actor } from '../src/modules/auth/actor.js';
import { restartTestApp, startTestApp, type TestApp } from './support/app.js';
import { createCorpus, uploadText, waitForProcessing } from './support/corpora.js';
import { databaseKinds } from './support/databases.js';
import { createOrganization, createUser, type TestUser } from './support/factories.js';
import { client, type Reply } from './support/http.js';
import { pollUntil } from './support/poll.js';

const v2 = (corpusId: number, query = '') => `/api/v2/corpora/${corpusId}/documents${query}`;
const legacy = (corpusId: number, query = '') => `/api/corpus/${corpusId}/document/${query}`;

const etagOf = (reply: Reply) => {
  expect(reply.status).toBe(200);
  const tag = reply.headers.etag;
  expect(tag).toMatch(/^"[\w-]+"$/);
  return tag as string;
};

describe.each(databaseKinds)('conditional reads of the document listings (%s)', (kind) => {
  let t: TestApp;
  let owner: TestUser;
  let reader: TestUser;
  let corpusId: number;

  const get = (user: TestUser, url: string, held?: string) => user.api.get(url, held === undefined ? {} : { headers: { 'if-none-match': held } });
  /** Starts the app again on its database, with the users' clients on the new one. */
  const restart = async (env: Record<string, string> = {}) => {
    t = await restartTestApp(t, env);
    for (const user of [owner, reader]) user.api = client(t.app, user.token);
  };
  const tagOf = async (user: TestUser, url: string) => etagOf(await get(user, url));

  beforeAll(async () => {
    t = await startTestApp(kind);
    owner = await createUser(t.app, { role: 'member' });
    reader = await createUser(t.app, { role: 'member' });
    corpusId = (await createCorpus(owner)).id;
    expect((await owner.api.post(`/api/v2/corpora/${corpusId}/permissions`, { user_id: reader.id, permission: 'read' })).status).toBe(200);
    await uploadText(owner, corpusId, 'The first document.', { tags: ['first'] });
  });
  afterAll(() => t.close());

  it('gives the same tag while nothing changes, and 304 with no body for If-None-Match holding it', async () => {
    for (const url of [v2(corpusId), legacy(corpusId)]) {
      const first = await get(owner, url);
      const tag = etagOf(first);
      // The worker may still be at the document: wait for two answers alike.
      const settled = await pollUntil(
        async () => [await get(owner, url), await get(owner, url)] as const,
        ([a, b]) => a.text === b.text && a.headers.etag === b.headers.etag && JSON.stringify(a.body).includes('"indexed"'),
        () => 'the listing kept changing',
        { timeoutMs: 20_000, everyMs: 50 },
      );
      const current = settled[0].headers.etag as string;
      if (settled[0].text === first.text) expect(current).toBe(tag);
      const notModified = await get(owner, url, current);
      expect(notModified.status).toBe(304);
      expect(notModified.text).toBe('');
      expect(notModified.headers.etag).toBe(current);
      // Weak comparison: W/ on the held tag, a list, `*`.
      expect((await get(owner, url, `W/${current}`)).status).toBe(304);
      expect((await get(owner, url, `"other", ${current}`)).status).toBe(304);
      expect((await get(owner, url, '*')).status).toBe(304);
      expect((await get(owner, url, '"other"')).status).toBe(200);
    }
  });

  it('moves the tag with an upload, the worker, a tag change and a delete', async () => {
    const urls = [v2(corpusId), legacy(corpusId)];
    const tagsNow = () => Promise.all(urls.map((url) => tagOf(owner, url)));
    const before = await tagsNow();

    // The worker off while the document is uploaded, so that the tag between upload and processing is seen.
    await restart({ WORKER_IN_PROCESS: 'false' });
    const uploaded = await uploadText(owner, corpusId, 'A second document, about returns.');
    const afterUpload = await tagsNow();
    afterUpload.forEach((tag, i) => expect(tag).not.toBe(before[i]));
    expect((await get(owner, urls[0]!, afterUpload[0])).status).toBe(304);

    await restart();
    expect((await waitForProcessing(owner, corpusId, [uploaded.id]))[0]!.step).toBe('indexed');
    const processed = await tagsNow();
    processed.forEach((tag, i) => expect(tag).not.toBe(afterUpload[i]));
    // The held tag no longer matches: a 200 with the new listing.
    const fresh = await get(owner, urls[0]!, afterUpload[0]);
    expect(fresh.status).toBe(200);
    expect(fresh.body.data.items.find((d: { id: number }) => d.id === uploaded.id).step).toBe('indexed');

    expect((await owner.api.put(`/api/v2/corpora/${corpusId}/documents/${uploaded.id}/tags`, { tags: ['returns'] })).status).toBe(200);
    const tagged = await tagsNow();
    tagged.forEach((tag, i) => expect(tag).not.toBe(processed[i]));

    expect((await owner.api.delete(`/api/v2/corpora/${corpusId}/documents/${uploaded.id}`)).status).toBe(200);
    const deleted = await tagsNow();
    deleted.forEach((tag, i) => expect(tag).not.toBe(tagged[i]));
  });

  it('moves the tag with a write made past the services (a job, an operator), through the triggers', async () => {
    const tag = await tagOf(owner, v2(corpusId));
    const { db } = t.app.database;
    const document = await db.selectFrom('documents').select('id').where('corpus_id', '=', corpusId).executeTakeFirstOrThrow();
    await db.insertInto('document_tags').values({ document_id: document.id, tag: 'by-hand' }).execute();
    const afterTag = await tagOf(owner, v2(corpusId));
    expect(afterTag).not.toBe(tag);
    await db.updateTable('users').set({ first_name: 'Renamed' }).where('id', '=', owner.id).execute();
    expect(await tagOf(owner, legacy(corpusId))).not.toBe(afterTag);
  });

  it('gives another page, filter or representation another tag', async () => {
    const tags = await Promise.all(
      [v2(corpusId), v2(corpusId, '?page=2'), v2(corpusId, '?page_size=5'), v2(corpusId, '?tag=first'), v2(corpusId, '?include_deleted=true'), legacy(corpusId), legacy(corpusId, '?limit=1'), legacy(corpusId, '?include_deleted=true')].map(
        (url) => tagOf(owner, url),
      ),
    );
    expect(new Set(tags).size).toBe(tags.length);
    // Parameters that say the default are the same query.
    expect(await tagOf(owner, v2(corpusId, '?page=1&include_deleted=false'))).toBe(tags[0]);
    // Another caller reading the same corpus has tags of their own.
    expect(await tagOf(reader, v2(corpusId))).not.toBe(tags[0]);
  });

  it('authorises the caller before any 304: another organization and a revoked grant get 404', async () => {
    const stranger = await createUser(t.app, { organizationId: await createOrganization(t.app), role: 'owner' });
    for (const url of [v2(corpusId), legacy(corpusId)]) {
      const tag = await tagOf(reader, url);
      expect((await get(reader, url, tag)).status).toBe(304);
      expect((await get(stranger, url, tag)).status).toBe(404);
      expect((await get(stranger, url, '*')).status).toBe(404);
    }
    const tag = await tagOf(reader, v2(corpusId));
    expect((await owner.api.delete(`/api/v2/corpora/${corpusId}/permissions/${reader.id}`)).status).toBe(200);
    const revoked = await get(reader, v2(corpusId), tag);
    expect(revoked.status).toBe(404);
    expect(revoked.headers.etag).toBeUndefined();
    expect((await get(reader, legacy(corpusId), '*')).status).toBe(404);
  });

  it('leaves the fixed listing’s body and type as they were, byte for byte', async () => {
    const third = await uploadText(owner, corpusId, 'A third "document", with quotes.');
    await waitForProcessing(owner, corpusId, [third.id]);
    const actor: Actor = { userId: owner.id, organizationId: owner.organizationId, email: owner.email, role: owner.role, credential: { kind: 'api_key', id: 0 } };
    for (const query of ['', '?include_deleted=true', '?limit=1&offset=1']) {
      const params = new URLSearchParams(query);
      const options = { includeDeleted: params.get('include_deleted') === 'true', limit: params.has('limit') ? Number(params.get('limit')) : undefined, offset: Number(params.get('offset') ?? 0) };
      // Without the feature: the listing as the service answers it, before any tag.
      const { body } = await t.app.services.legacyListing.open(await t.app.services.corpora.requireCorpus(actor, corpusId, 'read'), options);
      const unconditional = await get(owner, legacy(corpusId, query));
      const conditional = await get(owner, legacy(corpusId, query), '"not-the-tag"');
      expect(unconditional.text).toBe(body);
      expect(conditional.text).toBe(body);
      expect(unconditional.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(Array.isArray(JSON.parse(unconditional.text))).toBe(true);
    }
  });
});
