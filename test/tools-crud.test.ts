// Tools over HTTP on both databases: each kind made, read, changed, enabled, disabled and removed;
// the settings checked when written (one 400 detail per problem, nothing saved); secrets sealed at
// rest and only hinted at; members' reduced view; names unique per organization; another
// organization's tools answering 404; the api-tools flag; templates; the legacy list; what the
// runtime is given (runnableTools, existing).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './support/app.js';
import { corpusWith } from './support/ask.js';
import { createCorpus } from './support/corpora.js';
import { databaseKinds } from './support/databases.js';
import { createOrganization, createUser, type TestUser } from './support/factories.js';
import { request } from './support/http.js';
import { SecretBox } from '../src/secrets/secret-box.js';
import { resealToolSecrets } from '../src/modules/tools/tool-secrets.js';

const SECRET = 'sk-tool-secret-abcdefghijklmnop';
const ITEM_PARAMETERS = { type: 'object', properties: { id: { type: 'integer' }, q: { type: 'string' } }, required: ['id'] };
const itemConfig = (overrides: Record<string, unknown> = {}) => ({ method: 'GET', url: 'https://api.example.com/v1/items/{id}', parameters: ITEM_PARAMETERS, ...overrides });

const MANAGER_FIELDS = ['config', 'created_by', 'created_on', 'description', 'enabled', 'id', 'kind', 'modified_by', 'modified_on', 'name', 'organization_id', 'secret_hint'];

describe.each(databaseKinds)('tools (%s)', (kind) => {
  let t: TestApp;
  let owner: TestUser;
  let admin: TestUser;
  let member: TestUser;
  let viewer: TestUser;
  let stranger: TestUser;
  let path: string;
  let sequence = 0;
  const nextName = (prefix = 'tool') => `${prefix}_${++sequence}`;

  beforeAll(async () => {
    t = await startTestApp(kind);
    const orgId = await createOrganization(t.app);
    owner = await createUser(t.app, { organizationId: orgId, role: 'owner' });
    admin = await createUser(t.app, { organizationId: orgId, role: 'admin' });
    member = await createUser(t.app, { organizationId: orgId, role: 'member' });
    viewer = await createUser(t.app, { organizationId: orgId, role: 'viewer' });
    stranger = await createUser(t.app, { organizationId: await createOrganization(t.app), role: 'owner' });
    path = `/api/v2/organizations/${orgId}/tools`;
    expect((await owner.api.put('/api/v2/feature-flags/api-tools', { enabled: true })).status).toBe(200);
  });
  afterAll(() => t?.close());

  const addApi = async (body: Record<string, unknown> = {}) => {
    const reply = await owner.api.post(`${path}/api`, { name: nextName('api'), description: 'An item by its id', config: itemConfig(), ...body });
    expect(reply.status, reply.text).toBe(201);
    return reply.body.data as Record<string, any>;
  };
  const pointersOf = (reply: { body: any }) => reply.body.error.details.map((detail: { pointer: string }) => detail.pointer);
  const total = async () => (await owner.api.get(path)).body.data.total as number;

  it('adds an API tool, seals its secret and shows only its hint', async () => {
    const made = await addApi({ config: itemConfig({ auth: { type: 'bearer' } }), secret: SECRET });
    expect(Object.keys(made).sort()).toEqual(MANAGER_FIELDS);
    expect(made).toMatchObject({ kind: 'api', enabled: true, secret_hint: 'sk-…mnop', created_by: owner.email, organization_id: owner.organizationId });
    expect(made.config).toMatchObject({ method: 'GET', url: 'https://api.example.com/v1/items/{id}', auth: { type: 'bearer' } });
    const row = await t.app.database.db.selectFrom('tools').selectAll().where('id', '=', made.id).executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain(SECRET);
    expect(JSON.stringify(row)).not.toContain(SECRET.slice(6, 20));
    expect(row.secret_key_id).toMatch(/^[0-9a-f]{16}$/);
    const read = await admin.api.get(`${path}/${made.id}`);
    expect(read.text).not.toContain(SECRET);
    expect(Object.keys(read.body.data).sort()).toEqual(MANAGER_FIELDS);
  });

  it('makes web search, retrieval and attachment tools, with a default description', async () => {
    const corpus = await createCorpus(owner);
    const search = await owner.api.post(`${path}/web-search`, { name: nextName('search'), config: { provider: 'tavily' }, secret: SECRET });
    expect(search.status, search.text).toBe(201);
    expect(search.body.data).toMatchObject({ kind: 'web_search', secret_hint: 'sk-…mnop', config: { provider: 'tavily', max_results: 5, fetch_pages: false } });
    expect(search.body.data.description).toMatch(/Searches the web/);
    const retrieval = await owner.api.post(`${path}/retrieval`, { name: nextName('retrieval'), description: 'Handbook search', config: { corpus_ids: [corpus.id] } });
    expect(retrieval.status, retrieval.text).toBe(201);
    expect(retrieval.body.data).toMatchObject({ kind: 'retrieval', description: 'Handbook search', secret_hint: null, config: { corpus_ids: [corpus.id], passages: 5 } });
    const attachment = await owner.api.post(`${path}/attachment`, { name: nextName('files'), config: {} });
    expect(attachment.status, attachment.text).toBe(201);
    expect(attachment.body.data.kind).toBe('attachment');
  });

  it('shows members and viewers id, kind, name, description and enabled only', async () => {
    const made = await addApi({ config: itemConfig({ auth: { type: 'api_key', in: 'header', name: 'X-Api-Key' } }), secret: SECRET });
    for (const user of [member, viewer]) {
      const one = await user.api.get(`${path}/${made.id}`);
      expect(one.status).toBe(200);
      expect(Object.keys(one.body.data).sort()).toEqual(['description', 'enabled', 'id', 'kind', 'name']);
      const list = await user.api.get(path);
      expect(list.body.data.items.every((item: object) => !('config' in item) && !('secret_hint' in item))).toBe(true);
    }
  });

  it('lets only owners and admins add, change, enable, disable, remove and test', async () => {
    const made = await addApi();
    for (const user of [member, viewer]) {
      const refused = [
        await user.api.post(`${path}/api`, { name: nextName(), description: 'x', config: itemConfig() }),
        await user.api.post(`${path}/attachment`, { name: nextName(), config: {} }),
        await user.api.put(`${path}/${made.id}`, { description: 'changed' }),
        await user.api.post(`${path}/${made.id}/disable`),
        await user.api.post(`${path}/${made.id}/test`, { input: { id: 1 } }),
        await user.api.delete(`${path}/${made.id}`),
      ];
      expect(refused.map((reply) => reply.status)).toEqual([403, 403, 403, 403, 403, 403]);
      expect(refused.every((reply) => reply.body.error.code === 'forbidden')).toBe(true);
    }
    expect((await owner.api.get(`${path}/${made.id}`)).body.data).toMatchObject({ description: 'An item by its id', enabled: true });
    expect((await admin.api.put(`${path}/${made.id}`, { description: 'Changed by an admin' })).body.data.description).toBe('Changed by an admin');
    expect((await request(t.app, 'GET', path)).status).toBe(401);
  });

  it('answers 404 for another organization’s tools and organization, and changes nothing', async () => {
    const made = await addApi();
    const foreign = `/api/v2/organizations/${owner.organizationId}/tools`;
    expect((await stranger.api.get(foreign)).status).toBe(404);
    expect((await stranger.api.post(`${foreign}/attachment`, { name: nextName(), config: {} })).status).toBe(404);
    const own = `/api/v2/organizations/${stranger.organizationId}/tools/${made.id}`;
    for (const reply of [
      await stranger.api.get(own),
      await stranger.api.put(own, { description: 'stolen' }),
      await stranger.api.post(`${own}/disable`),
      await stranger.api.post(`${own}/test`, { input: { id: 1 } }),
      await stranger.api.delete(own),
    ]) {
      expect(reply.status).toBe(404);
      expect(reply.body.error.code).toBe('not_found');
      expect(reply.text).not.toContain(made.name);
    }
    expect((await stranger.api.get(`/api/v2/organizations/${stranger.organizationId}/tools`)).body.data.total).toBe(0);
    expect((await owner.api.get(`${path}/${made.id}`)).body.data).toMatchObject({ description: 'An item by its id', enabled: true });
    expect(await t.app.services.tools.existing(stranger.organizationId, [made.id])).toEqual([]);
    expect(await t.app.services.tools.runnableTools({ ...owner, userId: stranger.id, organizationId: stranger.organizationId, credential: { kind: 'api_key', id: 0 } }, [made.id])).toEqual([]);
  });

  it.each([
    [{ name: 'has space' }, '/body/name'],
    [{ name: 'x'.repeat(65) }, '/body/name'],
    [{ config: itemConfig({ method: 'TRACE' }) }, '/body/config/method'],
    [{ config: itemConfig({ url: 'ftp://api.example.com/items/{id}' }) }, '/body/config/url'],
    [{ config: itemConfig({ url: 'https://user:pw@api.example.com/items/{id}' }) }, '/body/config/url'],
    [{ config: itemConfig({ url: 'https://{host}/items/{id}' }) }, '/body/config/url'],
    [{ config: itemConfig({ url: 'http://127.0.0.2:8080/items/{id}' }) }, '/body/config/url'],
    [{ config: itemConfig({ url: 'http://10.1.2.3/items/{id}' }) }, '/body/config/url'],
    [{ config: itemConfig({ url: 'http://[::ffff:169.254.169.254]/latest/{id}' }) }, '/body/config/url'],
    [{ config: itemConfig({ url: 'http://metadata.google.internal/{id}' }) }, '/body/config/url'],
    [{ config: itemConfig({ url: 'https://api.example.com/items/{missing}' }) }, '/body/config/url'],
    [{ config: itemConfig({ parameters: { type: 'array' } }) }, '/body/config/parameters/type'],
    [{ config: itemConfig({ parameters: { type: 'object', properties: { id: { type: 'integr' } } } }) }, '/body/config/parameters/properties/id/type'],
    [{ config: itemConfig({ parameters: { type: 'object', properties: { 'bad name': { type: 'string' }, id: { type: 'string' } } } }) }, '/body/config/parameters/properties/bad name'],
    [{ config: itemConfig({ locations: { nope: 'query' } }) }, '/body/config/locations/nope'],
    [{ config: itemConfig({ locations: { q: { in: 'header', name: 'Bad Header' } } }) }, '/body/config/locations/q'],
    [{ config: itemConfig({ locations: { q: 'body' } }) }, '/body/config/locations/q'],
    [{ config: itemConfig({ method: 'POST', body: { text: '{{nothing}}' } }) }, '/body/config/body'],
    [{ config: itemConfig({ auth: { type: 'bearer' } }) }, '/body/secret'],
    [{ config: itemConfig({ auth: { type: 'api_key', in: 'cookie', name: 'k' } }) }, '/body/config/auth'],
    [{ config: itemConfig({ extra: true }) }, '/body/config'],
    [{}, '/body'],
  ])('refuses the API tool %j with a 400 naming the field, and adds nothing', async (change, pointer) => {
    const before = await total();
    const body = Object.keys(change).length === 0 ? { name: nextName(), description: 'x' } : { name: nextName(), description: 'x', config: itemConfig(), ...change };
    const reply = await owner.api.post(`${path}/api`, body);
    expect(reply.status, reply.text).toBe(400);
    expect(reply.body.error.code).toBe('bad_request');
    expect(pointersOf(reply).some((found: string) => found.startsWith(pointer)), JSON.stringify(reply.body.error.details)).toBe(true);
    expect(await total()).toBe(before);
  });

  it('refuses a retrieval tool over a corpus of another organization or none, a searxng tool without base_url or at a private address, a tavily tool without key', async () => {
    const foreignCorpus = await createCorpus(stranger);
    const before = await total();
    const retrieval = await owner.api.post(`${path}/retrieval`, { name: nextName(), config: { corpus_ids: [foreignCorpus.id, 999_999] } });
    expect(retrieval.status).toBe(400);
    expect(pointersOf(retrieval)).toEqual(['/body/config/corpus_ids/0', '/body/config/corpus_ids/1']);
    expect(retrieval.text).not.toContain(foreignCorpus.name);
    const searx = await owner.api.post(`${path}/web-search`, { name: nextName(), config: { provider: 'searxng' } });
    expect(searx.status).toBe(400);
    const tavily = await owner.api.post(`${path}/web-search`, { name: nextName(), config: { provider: 'tavily' } });
    expect(tavily.status).toBe(400);
    expect(pointersOf(tavily)).toEqual(['/body/secret']);
    const privateSearch = await owner.api.post(`${path}/web-search`, { name: nextName(), config: { provider: 'searxng', base_url: 'http://192.168.1.10:8080' } });
    expect(privateSearch.status).toBe(400);
    expect(pointersOf(privateSearch)).toEqual(['/body/config/base_url']);
    expect(await total()).toBe(before);
  });

  it('answers 409 for a name taken in the organization, and allows it in another', async () => {
    await addApi({ name: 'taken_name' });
    const again = await owner.api.post(`${path}/attachment`, { name: 'taken_name', config: {} });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('conflict');
    expect((await stranger.api.post(`/api/v2/organizations/${stranger.organizationId}/tools/attachment`, { name: 'taken_name', config: {} })).status).toBe(201);
    const other = await addApi();
    expect((await owner.api.put(`${path}/${other.id}`, { name: 'taken_name' })).status).toBe(409);
  });

  it('updates only what is sent: config replaced whole and checked, the secret kept, replaced or removed', async () => {
    const made = await addApi({ config: itemConfig({ auth: { type: 'api_key', in: 'query', name: 'appid' } }), secret: SECRET });
    const renamed = await owner.api.put(`${path}/${made.id}`, { name: nextName('renamed'), description: 'Renamed' });
    expect(renamed.status).toBe(200);
    expect(renamed.body.data).toMatchObject({ description: 'Renamed', secret_hint: 'sk-…mnop', config: made.config });
    expect(renamed.body.data.modified_on >= made.modified_on).toBe(true);
    const replaced = await owner.api.put(`${path}/${made.id}`, { secret: 'another-secret-value-wxyz' });
    expect(replaced.body.data.secret_hint).toBe('ano…wxyz');
    // Removing the secret of a tool that authenticates with one is refused; with auth none it goes.
    expect((await owner.api.put(`${path}/${made.id}`, { secret: null })).status).toBe(400);
    const bad = await owner.api.put(`${path}/${made.id}`, { config: { method: 'GET' } });
    expect(bad.status).toBe(400);
    expect(pointersOf(bad)).toContain('/body/config');
    const plain = await owner.api.put(`${path}/${made.id}`, { config: itemConfig(), secret: null });
    expect(plain.status, plain.text).toBe(200);
    expect(plain.body.data.secret_hint).toBeNull();
    expect(plain.body.data.config.auth).toBeUndefined();
    const row = await t.app.database.db.selectFrom('tools').select(['secret_sealed', 'secret_key_id']).where('id', '=', made.id).executeTakeFirstOrThrow();
    expect(row).toEqual({ secret_sealed: null, secret_key_id: null });
  });

  it('enables and disables for every agent; lists filter by kind and enabled state, paged', async () => {
    const made = await addApi();
    const disabled = await owner.api.post(`${path}/${made.id}/disable`);
    expect(disabled.status).toBe(200);
    expect(disabled.body.data.enabled).toBe(false);
    const offList = (await owner.api.get(`${path}?enabled=false&page_size=100`)).body.data;
    expect(offList.items.map((item: { id: number }) => item.id)).toContain(made.id);
    expect(offList.items.every((item: { enabled: boolean }) => !item.enabled)).toBe(true);
    const actor = { userId: owner.id, organizationId: owner.organizationId, email: owner.email, role: owner.role, credential: { kind: 'api_key' as const, id: 0 } };
    expect(await t.app.services.tools.runnableTools(actor, [made.id])).toEqual([]);
    expect(await t.app.services.tools.existing(owner.organizationId, [made.id, 999_999])).toEqual([made.id]);
    expect((await owner.api.post(`${path}/${made.id}/enable`)).body.data.enabled).toBe(true);
    const runnable = await t.app.services.tools.runnableTools(actor, [999_999, made.id, made.id]);
    expect(runnable.map((tool) => [tool.id, tool.kind, tool.definition.name])).toEqual([[made.id, 'api', made.name]]);
    expect(runnable[0]!.definition.parameters).toEqual(ITEM_PARAMETERS);
    const apiOnly = (await owner.api.get(`${path}?kind=api&page=1&page_size=2`)).body.data;
    expect(apiOnly).toMatchObject({ page: 1, page_size: 2 });
    expect(apiOnly.items).toHaveLength(2);
    expect(apiOnly.items.every((item: { kind: string }) => item.kind === 'api')).toBe(true);
    expect((await owner.api.get(`${path}?kind=shell`)).status).toBe(400);
  });

  it('removes a tool: gone from reads, lists and the runtime', async () => {
    const made = await addApi();
    const removed = await owner.api.delete(`${path}/${made.id}`);
    expect(removed.status).toBe(200);
    expect(removed.body.data).toEqual({ id: made.id });
    expect((await owner.api.get(`${path}/${made.id}`)).status).toBe(404);
    expect((await owner.api.delete(`${path}/${made.id}`)).status).toBe(404);
    expect(await t.app.services.tools.existing(owner.organizationId, [made.id])).toEqual([]);
  });

  it('with the api-tools flag off: adding, changing and testing API tools is 403 feature_disabled; the runtime leaves them out', async () => {
    const made = await addApi();
    expect((await owner.api.put('/api/v2/feature-flags/api-tools', { enabled: false })).status).toBe(200);
    try {
      for (const reply of [
        await owner.api.post(`${path}/api`, { name: nextName(), description: 'x', config: itemConfig() }),
        await owner.api.put(`${path}/${made.id}`, { description: 'changed' }),
        await owner.api.post(`${path}/${made.id}/test`, { input: { id: 1 } }),
      ]) {
        expect(reply.status).toBe(403);
        expect(reply.body.error.code).toBe('feature_disabled');
      }
      // Other kinds are not behind the flag; an API tool can still be read, disabled and removed.
      expect((await owner.api.post(`${path}/attachment`, { name: nextName(), config: {} })).status).toBe(201);
      expect((await owner.api.get(`${path}/${made.id}`)).status).toBe(200);
      const actor = { userId: owner.id, organizationId: owner.organizationId, email: owner.email, role: owner.role, credential: { kind: 'api_key' as const, id: 0 } };
      expect(await t.app.services.tools.runnableTools(actor, [made.id])).toEqual([]);
    } finally {
      expect((await owner.api.put('/api/v2/feature-flags/api-tools', { enabled: true })).status).toBe(200);
    }
  });

  it('lists the templates, shows one, makes a tool from one with overrides, and 404s an unknown one', async () => {
    const list = await viewer.api.get('/api/v2/tool-templates?page_size=100');
    expect(list.status).toBe(200);
    const ids = list.body.data.items.map((template: { id: string }) => template.id);
    expect(ids).toEqual(expect.arrayContaining(['open-meteo-forecast', 'wikipedia-summary', 'rest-countries', 'frankfurter-rates', 'github-repository', 'hacker-news-item']));
    expect(list.body.data.total).toBe(ids.length);
    const one = await member.api.get('/api/v2/tool-templates/github-repository');
    expect(one.body.data).toMatchObject({ id: 'github-repository', name: 'github_repository', config: { url: 'https://api.github.com/repos/{owner}/{repo}' } });
    expect((await member.api.get('/api/v2/tool-templates/no-such-template')).status).toBe(404);
    expect((await member.api.get('/api/v2/tool-templates/Bad_Id')).status).toBe(400);

    const made = await owner.api.post(`${path}/api`, { template_id: 'github-repository', name: nextName('github'), overrides: { auth: { type: 'bearer' }, headers: { 'x-extra': '1' } }, secret: SECRET });
    expect(made.status, made.text).toBe(201);
    expect(made.body.data.config).toMatchObject({ auth: { type: 'bearer' }, headers: { accept: 'application/vnd.github+json', 'x-github-api-version': '2022-11-28', 'x-extra': '1' } });
    expect(made.body.data.description).toBe(one.body.data.description);
    const plain = await owner.api.post(`${path}/api`, { template_id: 'hacker-news-item' });
    expect(plain.status, plain.text).toBe(201);
    expect(plain.body.data.name).toBe('hacker_news_item');
    expect((await owner.api.post(`${path}/api`, { template_id: 'openweathermap-current', name: nextName() })).status).toBe(400);
    const unknown = await owner.api.post(`${path}/api`, { template_id: 'no-such-template' });
    expect(unknown.status).toBe(400);
    expect(pointersOf(unknown)).toEqual(['/body/template_id']);
    const both = await owner.api.post(`${path}/api`, { template_id: 'hacker-news-item', config: itemConfig(), name: nextName() });
    expect(both.status).toBe(400);
  });

  it('re-seals tool secrets under a new secret key, leaving those no known key opens as they are', async () => {
    const made = await addApi({ config: itemConfig({ auth: { type: 'bearer' } }), secret: SECRET });
    const rotated = new SecretBox('a new secret key of at least thirty-two characters', [t.app.secretKey]);
    const outcome = await resealToolSecrets(rotated, t.app.services.store.repos.tools);
    expect(outcome.resealed).toBeGreaterThanOrEqual(1);
    expect(outcome.unreadable).toEqual([]);
    const row = await t.app.database.db.selectFrom('tools').select(['secret_sealed', 'secret_key_id']).where('id', '=', made.id).executeTakeFirstOrThrow();
    expect(row.secret_key_id).toBe(rotated.currentKeyId);
    expect(rotated.open({ sealed: row.secret_sealed!, keyId: row.secret_key_id! })).toBe(SECRET);
    const stranger = new SecretBox('yet another secret key, thirty-two characters or more');
    expect((await resealToolSecrets(stranger, t.app.services.store.repos.tools)).unreadable).toContain(made.id);
    // Put back under the server's key, for the tests that follow.
    const back = new SecretBox(t.app.secretKey, ['a new secret key of at least thirty-two characters']);
    expect((await resealToolSecrets(back, t.app.services.store.repos.tools)).unreadable).toEqual([]);
  });

  it('test-runs a retrieval tool as the caller, and refuses input its parameters refuse', async () => {
    const { corpusId } = await corpusWith(owner, ['The expense policy: keep receipts for three months.']);
    const made = await owner.api.post(`${path}/retrieval`, { name: nextName('handbook'), config: { corpus_ids: [corpusId] } });
    expect(made.status, made.text).toBe(201);
    const run = await admin.api.post(`${path}/${made.body.data.id}/test`, { input: { query: 'receipts' } });
    expect(run.status, run.text).toBe(200);
    expect(run.body.data).toMatchObject({ status: 'ok', http_status: null, request: null, error: null });
    expect(run.body.data.output).toContain('keep receipts for three months');
    const bad = await admin.api.post(`${path}/${made.body.data.id}/test`, { input: { query: 7 } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details[0].pointer).toBe('/body/input/query');
  });

  it('lists tools in the legacy generation: a bare array with X-Total-Count, members’ view for members', async () => {
    const all = await owner.api.get('/api/tools/');
    expect(all.status).toBe(200);
    expect(Array.isArray(all.body)).toBe(true);
    expect(Number(all.headers['x-total-count'])).toBe(all.body.length);
    expect(all.body.length).toBe(await total());
    const window = await member.api.get('/api/tools/?limit=1&offset=1');
    expect(window.body).toHaveLength(1);
    expect(Object.keys(window.body[0]).sort()).toEqual(['description', 'enabled', 'id', 'kind', 'name']);
    expect((await stranger.api.get('/api/tools/')).body.map((tool: { name: string }) => tool.name)).toEqual(['taken_name']);
  });
});
