// Conditional reads of the agents and corpora (docs/api.md, "Conditional requests"): one agent, the
// agents listing, one corpus and the corpora listing name their answers by read versions (migration
// 0080) and the caller's permission epoch; every other JSON GET by a hash of its bytes. A change of any
// field, link or document moves the tag, a 304 answers a tag still current, another organization's
// tag never matches, and a caller who lost access gets the 404, never a 304.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './support/app.js';
import { createCorpus, uploadText, waitForProcessing } from './support/corpora.js';
import { databaseKinds } from './support/databases.js';
import { createAgent, createOrganization, createUser, type TestUser } from './support/factories.js';
import type { Reply } from './support/http.js';
import { addTeammate, createTeam } from './support/people.js';

describe.each(databaseKinds)('conditional reads of agents and corpora (%s)', (kind) => {
  let t: TestApp;
  let owner: TestUser;
  let reader: TestUser;
  let stranger: TestUser;
  let agentId: number;
  let corpusId: number;

  const get = (user: TestUser, url: string, held?: string) => user.api.get(url, held === undefined ? {} : { headers: { 'if-none-match': held } });
  const etagOf = (reply: Reply) => {
    expect(reply.status, reply.text).toBe(200);
    expect(reply.headers.etag).toMatch(/^"[\w-]+"$/);
    return reply.headers.etag as string;
  };
  const tagOf = async (user: TestUser, url: string) => etagOf(await get(user, url));
  const urls = () => ({ agent: `/api/v2/agents/${agentId}`, agents: '/api/v2/agents', corpus: `/api/v2/corpora/${corpusId}`, corpora: '/api/v2/corpora' });
  type Route = keyof ReturnType<typeof urls>;
  const ROUTES: Route[] = ['agent', 'agents', 'corpus', 'corpora'];
  const tagsOf = async (user: TestUser) => Object.fromEntries(await Promise.all(ROUTES.map(async (route) => [route, await tagOf(user, urls()[route])] as const))) as Record<Route, string>;
  /** The routes whose tag for the user moved across the write. */
  const movedBy = async (user: TestUser, write: () => Promise<unknown>) => {
    const before = await tagsOf(user);
    await write();
    const after = await tagsOf(user);
    return ROUTES.filter((route) => after[route] !== before[route]);
  };

  beforeAll(async () => {
    t = await startTestApp(kind);
    owner = await createUser(t.app, { role: 'owner' });
    reader = await createUser(t.app, { role: 'member' });
    stranger = await createUser(t.app, { organizationId: await createOrganization(t.app), role: 'owner' });
    agentId = (await createAgent(owner)).id;
    corpusId = (await createCorpus(owner)).id;
    expect((await owner.api.post(`/api/v2/corpora/${corpusId}/permissions`, { user_id: reader.id, permission: 'read' })).status).toBe(200);
  });
  afterAll(() => t.close());

  it('gives the same tag while nothing changes, 304 with no body for it, and the same bytes for a 200 of it', async () => {
    for (const url of Object.values(urls())) {
      const first = await get(reader, url);
      const tag = etagOf(first);
      const again = await get(reader, url);
      expect(again.headers.etag).toBe(tag);
      expect(again.text).toBe(first.text);
      const notModified = await get(reader, url, tag);
      expect(notModified.status).toBe(304);
      expect(notModified.text).toBe('');
      expect(notModified.headers.etag).toBe(tag);
      expect((await get(reader, url, `W/${tag}, "other"`)).status).toBe(304);
      expect((await get(reader, url, '"other"')).status).toBe(200);
    }
    // The listings' bytes were kept by their tags.
    expect(t.app.services.servedBytes.size.answers).toBeGreaterThanOrEqual(2);
  });

  it('moves the tags with a change of any field, link, document or e-mail, writes past the services included', async () => {
    expect(await movedBy(reader, () => owner.api.put(`/api/v2/agents/${agentId}`, { description: 'Answers about returns' }))).toEqual(['agent', 'agents']);
    expect(await movedBy(reader, () => owner.api.put(`/api/v2/corpora/${corpusId}`, { description: 'Policies' }))).toEqual(['corpus', 'corpora']);
    expect(await movedBy(reader, () => owner.api.put(`/api/v2/agents/${agentId}`, { corpus_ids: [corpusId] }))).toEqual(['agent', 'agents']);
    // A document moves the corpus's counts, and nothing of the agents.
    let uploaded = 0;
    expect(await movedBy(reader, async () => (uploaded = (await uploadText(owner, corpusId, 'Returns within 30 days.')).id))).toEqual(expect.arrayContaining(['corpus', 'corpora']));
    // The worker's steps move them too; from here on nothing changes but what the tests write.
    await waitForProcessing(owner, corpusId, [uploaded]);
    const { db } = t.app.database;
    // The agent shows its creator's e-mail; the corpus too.
    expect(await movedBy(reader, () => db.updateTable('users').set({ email: `renamed.${owner.id}@example.com` }).where('id', '=', owner.id).execute())).toEqual(ROUTES);
    expect(await movedBy(reader, () => db.updateTable('agents').set({ name: 'Renamed by hand' }).where('id', '=', agentId).execute())).toEqual(['agent', 'agents']);
    // A held tag no longer matches: a 200 with the new body.
    const held = await tagOf(reader, urls().agent);
    await owner.api.put(`/api/v2/agents/${agentId}`, { instructions: 'Quote the policy.' });
    const fresh = await get(reader, urls().agent, held);
    expect(fresh.status).toBe(200);
    expect(fresh.body.data.instructions).toBe('Quote the policy.');
  });

  it('moves every tag of a user whose role or team changes, and theirs alone', async () => {
    // Made first: its creator joins it, which moves the creator's own epoch.
    const team = await createTeam(owner);
    const ownerBefore = await tagsOf(owner);
    expect(await movedBy(reader, () => owner.api.put(`/api/v2/users/${reader.id}`, { role: 'viewer' }))).toEqual(ROUTES);
    reader.role = 'viewer';
    expect(await movedBy(reader, () => addTeammate(owner, team.id, reader, 'viewer'))).toEqual(ROUTES);
    expect(await tagsOf(owner)).toEqual(ownerBefore);
  });

  it('never matches another organization’s tag, and authorises before any 304', async () => {
    for (const route of ROUTES) {
      const url = urls()[route];
      const tag = await tagOf(reader, url);
      const foreign = await get(stranger, url, tag);
      if (route === 'agent' || route === 'corpus') {
        expect(foreign.status).toBe(404);
        expect((await get(stranger, url, '*')).status).toBe(404);
      } else {
        // The stranger's own listing, under a tag of their own.
        expect(foreign.status).toBe(200);
        expect(foreign.headers.etag).not.toBe(tag);
        expect(foreign.body.data.items).toEqual([]);
      }
    }
  });

  it('answers a revoked grant with 404, never 304, and moves the listing', async () => {
    const corpusTag = await tagOf(reader, urls().corpus);
    const corporaTag = await tagOf(reader, urls().corpora);
    expect((await get(reader, urls().corpus, corpusTag)).status).toBe(304);
    expect((await owner.api.delete(`/api/v2/corpora/${corpusId}/permissions/${reader.id}`)).status).toBe(200);
    const revoked = await get(reader, urls().corpus, corpusTag);
    expect(revoked.status).toBe(404);
    expect(revoked.headers.etag).toBeUndefined();
    const listing = await get(reader, urls().corpora, corporaTag);
    expect(listing.status).toBe(200);
    expect(listing.body.data.items).toEqual([]);
    // A deleted agent: 404 whatever the tag.
    const agentTag = await tagOf(reader, urls().agent);
    expect((await owner.api.delete(`/api/v2/agents/${agentId}`)).status).toBe(200);
    expect((await get(reader, urls().agent, agentTag)).status).toBe(404);
    expect((await get(reader, urls().agent, '*')).status).toBe(404);
  });

  it('tags every other JSON GET by its bytes and the caller: 304 while they stay, a new tag when they change', async () => {
    const other = await createAgent(owner);
    const history = `/api/v2/agents/${other.id}/history`;
    for (const url of [history, '/api/version', `/api/v2/agents/${other.id}/status`]) {
      const tag = await tagOf(owner, url);
      const notModified = await get(owner, url, tag);
      expect(notModified.status).toBe(304);
      expect(notModified.text).toBe('');
    }
    const tag = await tagOf(owner, history);
    // Another caller, the same bytes: a tag of their own.
    const readerTag = await tagOf(reader, history);
    expect(readerTag).not.toBe(tag);
    expect((await get(reader, history, tag)).status).toBe(200);
    await owner.api.put(`/api/v2/agents/${other.id}`, { description: 'A change, a record' });
    const changed = await get(owner, history, tag);
    expect(changed.status).toBe(200);
    expect(changed.headers.etag).not.toBe(tag);
    // Errors carry no tag.
    expect((await get(owner, '/api/v2/agents/99999999/history')).headers.etag).toBeUndefined();
  });
});
