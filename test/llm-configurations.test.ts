// LLM configurations over HTTP on both databases: the routes and their statuses, keys sealed at rest
// and never returned, the members' reduced view, one default per organization, the delete rules,
// tenancy, the legacy list, the test call against the fake providers (ok and each error class), and
// the resolver the runtime answers with.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './support/app.js';
import { databaseKinds } from './support/databases.js';
import { startFakeAnthropic } from './support/fake-anthropic.js';
import { FAKE_LLM_KEY, startFakeOpenAi, type FakeLlmServer } from './support/fake-openai.js';
import { createAgent, createOrganization, createUser, type TestUser } from './support/factories.js';
import { request } from './support/http.js';

const MANAGER_FIELDS = [
  'api_key_hint', 'api_version', 'base_url', 'context_window', 'created_by', 'created_on', 'id', 'input_price_per_million', 'is_default', 'max_answer_tokens',
  'model', 'modified_by', 'modified_on', 'name', 'organization_id', 'output_price_per_million', 'provider',
];

describe.each(databaseKinds)('LLM configurations (%s)', (kind) => {
  let t: TestApp;
  let openai: FakeLlmServer;
  let anthropic: FakeLlmServer;
  let owner: TestUser;
  let admin: TestUser;
  let member: TestUser;
  let viewer: TestUser;
  let stranger: TestUser;
  let path: string;

  beforeAll(async () => {
    openai = await startFakeOpenAi();
    anthropic = await startFakeAnthropic();
    // The deadline of a model call: long enough for the fakes, short enough to wait for in the timeout test.
    t = await startTestApp(kind, { EGRESS_ALLOWED_HOSTS: `${openai.host},${anthropic.host}`, LIMIT_LLM_TIMEOUT_MS: '1500' });
    const orgId = await createOrganization(t.app);
    owner = await createUser(t.app, { organizationId: orgId, role: 'owner' });
    admin = await createUser(t.app, { organizationId: orgId, role: 'admin' });
    member = await createUser(t.app, { organizationId: orgId, role: 'member' });
    viewer = await createUser(t.app, { organizationId: orgId, role: 'viewer' });
    stranger = await createUser(t.app, { organizationId: await createOrganization(t.app), role: 'owner' });
    path = `/api/v2/organizations/${orgId}/llm-configurations`;
  });
  afterAll(async () => {
    await t?.close();
    await openai?.close();
    await anthropic?.close();
  });

  let sequence = 0;
  const add = async (overrides: Record<string, unknown> = {}) => {
    const reply = await owner.api.post(path, { name: `Model ${++sequence}`, provider: 'openai_compatible', model: 'fake-model', base_url: openai.baseUrl, api_key: FAKE_LLM_KEY, ...overrides });
    expect(reply.status, reply.text).toBe(201);
    return reply.body.data as Record<string, any>;
  };
  const testOf = async (id: number) => {
    const reply = await owner.api.post(`${path}/${id}/test`);
    expect(reply.status, reply.text).toBe(200);
    return reply.body.data as { ok: boolean; latency_ms: number; model: string; error_class: string | null; message: string };
  };

  it('adds the first configuration as the default, seals the key at rest and shows only its hint', async () => {
    const made = await add({ name: 'Primary', input_price_per_million: 0.15, output_price_per_million: 0.6, context_window: 128000 });
    expect(Object.keys(made).sort()).toEqual(MANAGER_FIELDS);
    expect(made).toMatchObject({ name: 'Primary', provider: 'openai_compatible', is_default: true, api_key_hint: 'sk-…mnop', input_price_per_million: 0.15, context_window: 128000, created_by: owner.email });
    const row = await t.app.database.db.selectFrom('llm_configurations').selectAll().where('id', '=', made.id).executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain(FAKE_LLM_KEY);
    expect(JSON.stringify(row)).not.toContain(FAKE_LLM_KEY.slice(8, 24));
    expect(row.api_key_key_id).toMatch(/^[0-9a-f]{16}$/);
    const read = await owner.api.get(`${path}/${made.id}`);
    expect(read.text).not.toContain(FAKE_LLM_KEY);
    expect(read.body.data).not.toHaveProperty('api_key');
  });

  it('shows members and viewers names and models only; owners and admins everything but the key', async () => {
    const made = await add();
    for (const user of [member, viewer]) {
      const one = await user.api.get(`${path}/${made.id}`);
      expect(one.status).toBe(200);
      expect(Object.keys(one.body.data).sort()).toEqual(['context_window', 'id', 'is_default', 'max_answer_tokens', 'model', 'name', 'provider']);
      const list = await user.api.get(path);
      expect(list.body.data.items.every((item: object) => !('base_url' in item) && !('api_key_hint' in item))).toBe(true);
    }
    expect(Object.keys((await admin.api.get(`${path}/${made.id}`)).body.data).sort()).toEqual(MANAGER_FIELDS);
  });

  it('lets only owners and admins add, change, remove and test', async () => {
    const made = await add();
    for (const user of [member, viewer]) {
      expect((await user.api.post(path, { name: 'Nope', provider: 'openai', model: 'x' })).status).toBe(403);
      expect((await user.api.put(`${path}/${made.id}`, { model: 'y' })).status).toBe(403);
      expect((await user.api.delete(`${path}/${made.id}`)).status).toBe(403);
      expect((await user.api.post(`${path}/${made.id}/test`)).status).toBe(403);
    }
    expect((await admin.api.put(`${path}/${made.id}`, { model: 'changed' })).body.data.model).toBe('changed');
    expect((await request(t.app, 'GET', path)).status).toBe(401);
  });

  it.each([
    [{ provider: 'cohere' }, '/body/provider'],
    [{ base_url: null }, '/body/base_url'],
    [{ base_url: 'ftp://models.example.com' }, '/body/base_url'],
    [{ base_url: 'http://user:secret@models.example.com' }, '/body/base_url'],
    [{ input_price_per_million: -1 }, '/body/input_price_per_million'],
    [{ context_window: 0 }, '/body/context_window'],
    [{ context_window: 1.5 }, '/body/context_window'],
    [{ name: '' }, '/body/name'],
    [{ api_key: 'sk-pasted with a space' }, '/body/api_key'],
  ])('refuses %j with a 400 naming the field, and adds nothing', async (change, pointer) => {
    const before = (await owner.api.get(path)).body.data.total;
    const reply = await owner.api.post(path, { name: `Bad ${++sequence}`, provider: 'openai_compatible', model: 'm', base_url: openai.baseUrl, ...change });
    expect(reply.status).toBe(400);
    expect(reply.body.error.details.map((detail: { pointer: string }) => detail.pointer)).toContain(pointer);
    expect((await owner.api.get(path)).body.data.total).toBe(before);
  });

  it('requires base_url for Azure OpenAI, also when an update changes the provider', async () => {
    expect((await owner.api.post(path, { name: `Azure ${++sequence}`, provider: 'azure_openai', model: 'gpt' })).status).toBe(400);
    const made = await add({ provider: 'openai', base_url: null });
    expect((await owner.api.put(`${path}/${made.id}`, { provider: 'azure_openai' })).status).toBe(400);
    expect((await owner.api.get(`${path}/${made.id}`)).body.data.provider).toBe('openai');
  });

  it('answers 409 for a name taken in the organization, and allows it in another', async () => {
    await add({ name: 'Taken' });
    const again = await owner.api.post(path, { name: 'Taken', provider: 'openai', model: 'x' });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('conflict');
    expect((await stranger.api.post(`/api/v2/organizations/${stranger.organizationId}/llm-configurations`, { name: 'Taken', provider: 'openai', model: 'x' })).status).toBe(201);
  });

  it('keeps one default: making another the default clears the previous one', async () => {
    const first = await add();
    await owner.api.put(`${path}/${first.id}`, { is_default: true });
    const second = await add({ is_default: true });
    const defaults = (await owner.api.get(`${path}?page_size=100`)).body.data.items.filter((item: { is_default: boolean }) => item.is_default);
    expect(defaults.map((item: { id: number }) => item.id)).toEqual([second.id]);
    await owner.api.put(`${path}/${first.id}`, { is_default: true });
    expect((await owner.api.get(`${path}/${second.id}`)).body.data.is_default).toBe(false);
    expect((await t.app.services.llm.resolveForAnswering(owner.organizationId, null))?.configuration.id).toBe(first.id);
  });

  it('ends with exactly one default when several are made the default at once', async () => {
    const made = await Promise.all([1, 2, 3, 4].map(() => add()));
    const replies = await Promise.all(made.map((configuration) => owner.api.put(`${path}/${configuration.id}`, { is_default: true })));
    for (const reply of replies) expect([200, 409]).toContain(reply.status);
    const defaults = (await owner.api.get(`${path}?page_size=100`)).body.data.items.filter((item: { is_default: boolean }) => item.is_default);
    expect(defaults).toHaveLength(1);
  });

  it('keeps the key when an update leaves it out, and removes it on api_key: null', async () => {
    const made = await add();
    await owner.api.put(`${path}/${made.id}`, { context_window: 4096 });
    expect((await owner.api.get(`${path}/${made.id}`)).body.data.api_key_hint).toBe('sk-…mnop');
    expect((await testOf(made.id)).ok).toBe(true);
    expect(openai.chatRequests().at(-1)!.headers.authorization).toBe(`Bearer ${FAKE_LLM_KEY}`);
    const cleared = await owner.api.put(`${path}/${made.id}`, { api_key: null });
    expect(cleared.body.data.api_key_hint).toBeNull();
    expect((await testOf(made.id)).ok).toBe(true);
    expect(openai.chatRequests().at(-1)!.headers.authorization).toBeUndefined();
  });

  it('refuses to remove a configuration agents answer with, naming them; clears model-deployment choices', async () => {
    const made = await add();
    const agent = await createAgent(owner, { name: 'Uses the model', llm_configuration_id: made.id });
    const refused = await owner.api.delete(`${path}/${made.id}`);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toContain('Uses the model');
    await owner.api.put(`/api/v2/agents/${agent.id}`, { llm_configuration_id: null });
    const deployment = `/api/v2/organizations/${owner.organizationId}/model-deployment`;
    expect((await owner.api.put(deployment, { chat: made.id, judge: made.id })).status).toBe(200);
    const removed = await owner.api.delete(`${path}/${made.id}`);
    expect(removed.status).toBe(200);
    expect(removed.body.data).toEqual({ id: made.id });
    expect((await owner.api.get(`${path}/${made.id}`)).status).toBe(404);
    expect((await owner.api.get(deployment)).body.data).toMatchObject({ chat: null, judge: null });
  });

  it('answers 404 for another organization’s configuration, whatever the operation', async () => {
    const made = await add();
    const theirs = `/api/v2/organizations/${stranger.organizationId}/llm-configurations/${made.id}`;
    for (const reply of [
      await stranger.api.get(`${path}/${made.id}`),
      await stranger.api.get(path),
      await stranger.api.get(theirs),
      await stranger.api.put(theirs, { model: 'stolen' }),
      await stranger.api.delete(theirs),
      await stranger.api.post(`${theirs}/test`),
    ]) {
      expect(reply.status).toBe(404);
      expect(reply.body.error.code).toBe('not_found');
    }
    expect((await owner.api.get(`${path}/${made.id}`)).body.data.model).toBe('fake-model');
    expect(await t.app.services.llm.resolveForAnswering(stranger.organizationId, made.id)).toBeUndefined();
  });

  it('lists them in the legacy generation as a bare array, shown as to the caller’s role', async () => {
    const all = (await owner.api.get(`${path}?page_size=100`)).body.data;
    const legacy = await owner.api.get('/api/llm-config/');
    expect(legacy.status).toBe(200);
    expect(legacy.body).toEqual(all.items);
    expect(legacy.headers['x-total-count']).toBe(String(all.total));
    const window = await member.api.get('/api/llm-config/?limit=1&offset=1');
    expect(window.body).toEqual([expect.not.objectContaining({ base_url: expect.anything() })]);
    expect(window.body[0].id).toBe(all.items[1].id);
  });

  it('resolves the named configuration or the default for answering, and nothing where there is none', async () => {
    const lonely = await createUser(t.app, { organizationId: await createOrganization(t.app), role: 'owner' });
    expect(await t.app.services.llm.resolveForAnswering(lonely.organizationId, null)).toBeUndefined();
    const made = await add({ input_price_per_million: 1, output_price_per_million: 2, context_window: 1000 });
    const resolved = await t.app.services.llm.resolveForAnswering(owner.organizationId, made.id);
    expect(resolved?.configuration).toEqual({ id: made.id, name: made.name, provider: 'openai_compatible', model: 'fake-model', input_price_per_million: 1, output_price_per_million: 2, context_window: 1000, max_answer_tokens: 4096 });
    expect(resolved?.chatModel.model).toBe('fake-model');
    expect(await t.app.services.llm.resolveForAnswering(owner.organizationId, 999_999)).toBeUndefined();
  });

  describe('the test call', () => {
    it.each(['openai_compatible', 'anthropic'] as const)('answers ok with the latency for %s', async (provider) => {
      const fake = provider === 'anthropic' ? anthropic : openai;
      fake.answer = 'OK';
      const made = await add({ provider, model: 'tested-model', base_url: fake.baseUrl });
      const result = await testOf(made.id);
      expect(result).toMatchObject({ ok: true, model: 'tested-model', error_class: null });
      expect(result.latency_ms).toBeGreaterThanOrEqual(0);
      expect(result.message).toContain('OK');
    });

    it.each([
      [401, 'auth'],
      [404, 'not_found'],
      [429, 'rate_limited'],
      [500, 'bad_response'],
    ] as const)('classifies a %i as %s without retrying, for both providers', async (status, errorClass) => {
      for (const fake of [openai, anthropic]) {
        const made = await add({ provider: fake === anthropic ? 'anthropic' : 'openai', base_url: fake.baseUrl });
        const before = fake.chatRequests().length;
        fake.failNext(status, { retryAfter: '0', message: `failure echoing ${FAKE_LLM_KEY}` });
        const result = await testOf(made.id);
        expect(result).toMatchObject({ ok: false, error_class: errorClass });
        expect(result.message).not.toContain(FAKE_LLM_KEY);
        expect(fake.chatRequests().length - before).toBe(1);
      }
    });

    it('says timeout when the provider stalls past LIMIT_LLM_TIMEOUT_MS', async () => {
      const made = await add();
      const stall = openai.stallNext();
      const result = await testOf(made.id);
      expect(result).toMatchObject({ ok: false, error_class: 'timeout' });
      expect(result.latency_ms).toBeGreaterThanOrEqual(1400);
      await stall.disconnected;
    });

    it('says unreachable for a loopback base_url outside EGRESS_ALLOWED_HOSTS, and sends nothing', async () => {
      const outsider = await startFakeOpenAi();
      try {
        const made = await add({ base_url: outsider.baseUrl });
        expect(await testOf(made.id)).toMatchObject({ ok: false, error_class: 'unreachable' });
        expect(outsider.listener.connections()).toBe(0);
      } finally {
        await outsider.close();
      }
    });

    it('says bad_response when the stream breaks off', async () => {
      const made = await add();
      openai.answer = 'One two three four';
      openai.cutNext(2);
      expect(await testOf(made.id)).toMatchObject({ ok: false, error_class: 'bad_response' });
    });
  });
});
