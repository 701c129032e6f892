// Guardrails over HTTP on both databases: create, read, list, change and delete; the settings of each
// type checked with one detail per problem; names unique in an organization; who may do what; the two
// feature flags; another organization's guardrails answering 404; what forAgent hands the runtime.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './support/app.js';
import { databaseKinds } from './support/databases.js';
import { createOrganization, createUser, type TestUser } from './support/factories.js';

const PATH = '/api/v2/guardrails';
const FIELDS = ['action', 'config', 'created_by', 'created_on', 'id', 'modified_by', 'modified_on', 'name', 'organization_id', 'stages', 'type'];

describe.each(databaseKinds)('guardrails (%s)', (kind) => {
  let t: TestApp;
  let owner: TestUser;
  let admin: TestUser;
  let member: TestUser;
  let viewer: TestUser;
  let stranger: TestUser;

  beforeAll(async () => {
    t = await startTestApp(kind);
    const orgId = await createOrganization(t.app);
    owner = await createUser(t.app, { organizationId: orgId, role: 'owner' });
    admin = await createUser(t.app, { organizationId: orgId, role: 'admin' });
    member = await createUser(t.app, { organizationId: orgId, role: 'member' });
    viewer = await createUser(t.app, { organizationId: orgId, role: 'viewer' });
    stranger = await createUser(t.app, { organizationId: await createOrganization(t.app), role: 'owner' });
  });
  afterAll(() => t?.close());

  let sequence = 0;
  const create = async (body: Record<string, unknown>, by: TestUser = owner) => {
    const reply = await by.api.post(PATH, { name: `Guardrail ${++sequence}`, stages: ['input'], action: 'warn', ...body });
    expect(reply.status, reply.text).toBe(201);
    return reply.body.data as Record<string, any>;
  };
  const setFlag = async (flag: string, enabled: boolean) => expect((await owner.api.put(`/api/v2/feature-flags/${flag}`, { enabled })).status).toBe(200);

  it('creates a guardrail of each type and reads it back as written', async () => {
    const pii = await create({ type: 'pii', stages: ['input', 'output'], action: 'redact', config: { entities: ['EMAIL_ADDRESS'] } });
    expect(Object.keys(pii).sort()).toEqual(FIELDS);
    expect(pii).toMatchObject({ type: 'pii', stages: ['input', 'output'], action: 'redact', config: { entities: ['EMAIL_ADDRESS'] }, created_by: owner.email, modified_by: owner.email });
    const terms = await create({ type: 'blocked_terms', action: 'block', config: { terms: ['forbidden'], patterns: ['secret[-_ ]?key'] } });
    const length = await create({ type: 'length', stages: ['output'], action: 'mask', config: { max_characters: 100, max_tokens: 20 } });
    const topic = await create({ type: 'topic', stages: ['context'], config: { denied: ['medical advice'], threshold: 0.7, language: 'english' } });
    for (const made of [pii, terms, length, topic]) {
      const read = await member.api.get(`${PATH}/${made.id}`);
      expect(read.status).toBe(200);
      expect(read.body.data).toEqual(made);
    }
    const allPii = await create({ type: 'pii' });
    expect(allPii.config).toEqual({});
  });

  it('lists the organization’s guardrails by page, and by type', async () => {
    await create({ type: 'length', config: { max_characters: 5 } });
    const page = await viewer.api.get(`${PATH}?page=1&page_size=2`);
    expect(page.status).toBe(200);
    expect(page.body.data.items).toHaveLength(2);
    expect(page.body.data.total).toBeGreaterThanOrEqual(3);
    const ids = page.body.data.items.map((item: { id: number }) => item.id);
    expect(ids).toEqual([...ids].sort((a: number, b: number) => a - b));
    const lengths = await viewer.api.get(`${PATH}?type=length&page_size=100`);
    expect(lengths.body.data.items.every((item: { type: string }) => item.type === 'length')).toBe(true);
    expect((await viewer.api.get(`${PATH}?type=nonsense`)).status).toBe(400);
    expect((await viewer.api.get(`${PATH}?page_size=1000`)).status).toBe(400);
  });

  it('changes only the fields sent, and needs the config of a new type', async () => {
    const made = await create({ type: 'blocked_terms', config: { terms: ['alpha'] } });
    const renamed = await admin.api.put(`${PATH}/${made.id}`, { name: 'Renamed guardrail', stages: ['input', 'context'] });
    expect(renamed.status, renamed.text).toBe(200);
    expect(renamed.body.data).toMatchObject({ name: 'Renamed guardrail', stages: ['input', 'context'], action: 'warn', config: { terms: ['alpha'] }, modified_by: admin.email, created_by: owner.email });
    const withoutConfig = await owner.api.put(`${PATH}/${made.id}`, { type: 'length' });
    expect(withoutConfig.status).toBe(400);
    expect(withoutConfig.body.error.details[0].pointer).toBe('/body/config');
    const retyped = await owner.api.put(`${PATH}/${made.id}`, { type: 'length', config: { max_tokens: 3 } });
    expect(retyped.status, retyped.text).toBe(200);
    expect(retyped.body.data).toMatchObject({ type: 'length', config: { max_tokens: 3 } });
    const badConfig = await owner.api.put(`${PATH}/${made.id}`, { config: { terms: ['x'] } });
    expect(badConfig.status).toBe(400);
    expect((await owner.api.get(`${PATH}/${made.id}`)).body.data.config).toEqual({ max_tokens: 3 });
  });

  it('refuses names taken in the organization (409), not in another', async () => {
    await create({ name: 'Unique name', type: 'pii' });
    const again = await owner.api.post(PATH, { name: 'Unique name', type: 'pii', stages: ['input'], action: 'warn' });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('conflict');
    expect((await stranger.api.post(PATH, { name: 'Unique name', type: 'pii', stages: ['input'], action: 'warn' })).status).toBe(201);
  });

  it('deletes a guardrail; it is gone', async () => {
    const made = await create({ type: 'pii' });
    const removed = await owner.api.delete(`${PATH}/${made.id}`);
    expect(removed.status).toBe(200);
    expect(removed.body.data).toEqual({ id: made.id });
    expect((await owner.api.get(`${PATH}/${made.id}`)).status).toBe(404);
    expect((await owner.api.delete(`${PATH}/${made.id}`)).status).toBe(404);
  });

  it.each([
    ['an unknown type', { type: 'profanity', config: {} }, '/body/type'],
    ['no stage', { type: 'pii', stages: [] }, '/body/stages'],
    ['a stage twice', { type: 'pii', stages: ['input', 'input'] }, '/body/stages'],
    ['an unknown action', { type: 'pii', action: 'delete' }, '/body/action'],
    ['an unknown entity type', { type: 'pii', config: { entities: ['EMAIL_ADDRESS', 'SHOE_SIZE'] } }, '/body/config/entities/1'],
    ['a setting of another type', { type: 'length', config: { max_characters: 10, terms: ['x'] } }, '/body/config'],
    ['a length without limit', { type: 'length', config: {} }, '/body/config'],
    ['a zero limit', { type: 'length', config: { max_tokens: 0 } }, '/body/config/max_tokens'],
    ['blocked terms without terms', { type: 'blocked_terms', config: {} }, '/body/config'],
    ['an empty list of terms', { type: 'blocked_terms', config: { terms: [] } }, '/body/config/terms'],
    ['an invisible term', { type: 'blocked_terms', config: { terms: ['ok', '\u200b\u200d'] } }, '/body/config/terms/1'],
    ['a term too long', { type: 'blocked_terms', config: { terms: ['x'.repeat(201)] } }, '/body/config/terms/0'],
    ['a pattern that is not one', { type: 'blocked_terms', config: { terms: ['a'], patterns: ['(unclosed'] } }, '/body/config/patterns/0'],
    ['an unbounded pattern', { type: 'blocked_terms', config: { terms: [], patterns: ['\\d{3}', 'token-\\w+'] } }, '/body/config/patterns/1'],
    ['a pattern reading too far', { type: 'blocked_terms', config: { terms: [], patterns: ['.{1,2000}'] } }, '/body/config/patterns/0'],
    ['too many patterns', { type: 'blocked_terms', config: { terms: [], patterns: Array.from({ length: 51 }, (_, i) => `p${i}`) } }, '/body/config/patterns'],
    ['a topic without topics', { type: 'topic', config: { threshold: 0.5 } }, '/body/config'],
    ['a topic of stop words and signs', { type: 'topic', config: { denied: ['weapons', '!!!'] } }, '/body/config/denied/1'],
    ['a threshold above 1', { type: 'topic', config: { denied: ['weapons'], threshold: 2 } }, '/body/config/threshold'],
    ['an unknown language', { type: 'topic', config: { denied: ['weapons'], language: 'klingon' } }, '/body/config/language'],
  ])('refuses %s with a 400 that points at it, and stores nothing', async (_case, body, pointer) => {
    const before = (await owner.api.get(`${PATH}?page_size=1`)).body.data.total;
    const reply = await owner.api.post(PATH, { name: `Invalid ${++sequence}`, stages: ['input'], action: 'warn', ...body });
    expect(reply.status, reply.text).toBe(400);
    expect(reply.body.error.code).toBe('bad_request');
    expect(reply.body.error.details.map((detail: { pointer: string }) => detail.pointer)).toContain(pointer);
    expect((await owner.api.get(`${PATH}?page_size=1`)).body.data.total).toBe(before);
  });

  it('refuses at save a pattern that could backtrack catastrophically, naming it', async () => {
    const reply = await owner.api.post(PATH, {
      name: 'Catastrophic',
      type: 'blocked_terms',
      stages: ['input'],
      action: 'block',
      config: { terms: ['fine'], patterns: ['order-\\d{4}', '(.|\\s){1,50}x'] },
    });
    expect(reply.status, reply.text).toBe(400);
    expect(reply.body.error.details).toEqual([{ pointer: '/body/config/patterns/1', message: expect.stringMatching(/backtrack catastrophically|could not be shown safe/) }]);
    const updated = await owner.api.put(`${PATH}/${(await create({ type: 'blocked_terms', config: { terms: ['fine'] } })).id}`, {
      config: { terms: ['fine'], patterns: ['(a|a){1,30}b'] },
    });
    expect(updated.status).toBe(400);
  });

  it('lets owners and admins write; members and viewers read and test (403 to write, nothing changed)', async () => {
    const made = await create({ type: 'blocked_terms', config: { terms: ['alpha'] } }, admin);
    for (const user of [member, viewer]) {
      expect((await user.api.post(PATH, { name: `By ${user.role}`, type: 'pii', stages: ['input'], action: 'warn' })).status).toBe(403);
      expect((await user.api.put(`${PATH}/${made.id}`, { name: 'Changed' })).status).toBe(403);
      expect((await user.api.delete(`${PATH}/${made.id}`)).status).toBe(403);
      expect((await user.api.get(`${PATH}/${made.id}`)).status).toBe(200);
      const tested = await user.api.post(`${PATH}/${made.id}/test`, { text: 'alpha beta' });
      expect(tested.status).toBe(200);
      expect(tested.body.data.action).toBe('warn');
    }
    expect((await owner.api.get(`${PATH}/${made.id}`)).body.data.name).toBe(made.name);
  });

  it('answers 404 for another organization’s guardrail, whatever the operation, and lists only its own', async () => {
    const made = await create({ type: 'blocked_terms', config: { terms: ['victim-secret'] } });
    expect((await stranger.api.get(`${PATH}/${made.id}`)).status).toBe(404);
    expect((await stranger.api.put(`${PATH}/${made.id}`, { name: 'Taken over' })).status).toBe(404);
    expect((await stranger.api.post(`${PATH}/${made.id}/test`, { text: 'victim-secret' })).status).toBe(404);
    expect((await stranger.api.delete(`${PATH}/${made.id}`)).status).toBe(404);
    const list = await stranger.api.get(`${PATH}?page_size=100`);
    expect(list.text).not.toContain('victim-secret');
    expect(list.body.data.items.every((item: { organization_id: number }) => item.organization_id === stranger.organizationId)).toBe(true);
    expect((await owner.api.get(`${PATH}/${made.id}`)).body.data.name).toBe(made.name);
    expect(await t.app.services.guardrails.existing(stranger.organizationId, [made.id])).toEqual([]);
  });

  it('ignores fields a client may not set, and 400s for an id that is not one', async () => {
    const reply = await owner.api.post(PATH, { name: 'With extras', type: 'pii', stages: ['input'], action: 'warn', organization_id: stranger.organizationId });
    expect(reply.status).toBe(400);
    expect((await owner.api.get(`${PATH}/abc`)).status).toBe(400);
    expect((await owner.api.get(`${PATH}/0`)).status).toBe(400);
  });

  it('with the guardrail flag off: creating, changing and testing answer 403; reading and deleting do not; agents answer without guardrails', async () => {
    const made = await create({ type: 'blocked_terms', action: 'block', config: { terms: ['alpha'] } });
    const doomed = await create({ type: 'pii' });
    await setFlag('guardrail', false);
    try {
      const created = await owner.api.post(PATH, { name: 'Flag off', type: 'pii', stages: ['input'], action: 'warn' });
      expect(created.status).toBe(403);
      expect(created.body.error.code).toBe('feature_disabled');
      expect((await owner.api.put(`${PATH}/${made.id}`, { name: 'Flag off' })).body.error.code).toBe('feature_disabled');
      expect((await member.api.post(`${PATH}/${made.id}/test`, { text: 'alpha' })).body.error.code).toBe('feature_disabled');
      expect((await owner.api.get(`${PATH}/${made.id}`)).status).toBe(200);
      expect((await owner.api.get(PATH)).status).toBe(200);
      expect((await owner.api.delete(`${PATH}/${doomed.id}`)).status).toBe(200);
      const guardrails = await t.app.services.guardrails.forAgent(owner.organizationId, [made.id]);
      expect(await guardrails.apply('input', 'alpha')).toEqual({ text: 'alpha', blocked: false, verdicts: [] });
    } finally {
      await setFlag('guardrail', true);
    }
    const guardrails = await t.app.services.guardrails.forAgent(owner.organizationId, [made.id]);
    expect((await guardrails.apply('input', 'alpha')).blocked).toBe(true);
  });

  it('with the pii-redaction flag off: guardrails of type pii answer 403 to write and test, and agents skip them', async () => {
    const pii = await create({ type: 'pii', action: 'redact' });
    const terms = await create({ type: 'blocked_terms', action: 'redact', config: { terms: ['alpha'] } });
    await setFlag('pii-redaction', false);
    try {
      expect((await owner.api.post(PATH, { name: 'PII off', type: 'pii', stages: ['input'], action: 'warn' })).body.error.code).toBe('feature_disabled');
      expect((await owner.api.put(`${PATH}/${pii.id}`, { action: 'mask' })).status).toBe(403);
      expect((await owner.api.put(`${PATH}/${terms.id}`, { type: 'pii', config: {} })).status).toBe(403);
      expect((await owner.api.post(`${PATH}/${pii.id}/test`, { text: 'mail bob@example.com' })).status).toBe(403);
      expect((await owner.api.post(`${PATH}/${terms.id}/test`, { text: 'alpha' })).status).toBe(200);
      const guardrails = await t.app.services.guardrails.forAgent(owner.organizationId, [pii.id, terms.id]);
      expect((await guardrails.apply('input', 'alpha to bob@example.com')).text).toBe('[REDACTED] to bob@example.com');
    } finally {
      await setFlag('pii-redaction', true);
    }
    const guardrails = await t.app.services.guardrails.forAgent(owner.organizationId, [pii.id, terms.id]);
    expect((await guardrails.apply('input', 'alpha to bob@example.com')).text).toBe('[REDACTED] to [EMAIL_ADDRESS]');
  });

  it('hands the runtime the guardrails named, in order, skipping ids that name nothing, with a streaming filter for the output', async () => {
    const first = await create({ type: 'blocked_terms', stages: ['output'], action: 'redact', config: { terms: ['alpha'] } });
    const second = await create({ type: 'length', stages: ['input', 'output'], action: 'redact', config: { max_characters: 12 } });
    expect(await t.app.services.guardrails.existing(owner.organizationId, [second.id, 999_999, first.id])).toEqual(expect.arrayContaining([first.id, second.id]));
    const guardrails = await t.app.services.guardrails.forAgent(owner.organizationId, [second.id, 999_999, first.id]);
    const input = await guardrails.apply('input', 'alpha and more than twelve');
    expect(input.text).toBe('alpha and mo[TRUNCATED]');
    expect(input.verdicts.map((verdict) => verdict.guardrail_id)).toEqual([second.id]);
    const stream = guardrails.streamOutput();
    const sent = ['al', 'pha an', 'd more than twelve'].map((piece) => stream.push(piece)).join('') + stream.flush();
    expect(sent).toBe('[REDACTED] and mo[TRUNCATED]');
    expect(stream.verdicts.map((verdict) => verdict.guardrail_id).sort()).toEqual([first.id, second.id].sort());
    const none = await t.app.services.guardrails.forAgent(owner.organizationId, []);
    expect(none.streamOutput().push('anything')).toBe('anything');
  });
});
