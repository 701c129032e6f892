// POST /api/v2/guardrails/{id}/test on both databases, with the shape of API.md §8: each type and each
// action, offsets into the text sent, look-alike letters, ten thousand terms, stages, topics by
// keywords and by embeddings (a fake embeddings server on loopback), a provider that fails, and the
// latency measured by the server's clock.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useClock } from '../src/clock.js';
import { PII_ENTITY_TYPES } from '../src/guardrails/pii/detect.js';
import { startTestApp, type TestApp } from './support/app.js';
import { databaseKinds } from './support/databases.js';
import { startFakeEmbeddingServer, type FakeEmbeddingServer } from './support/fake-embeddings.js';
import { createOrganization, createUser, type TestUser } from './support/factories.js';

const PATH = '/api/v2/guardrails';
const EMAIL_TEXT = 'Write to ann.lee@example.org today';

describe.each(databaseKinds)('the guardrail test route (%s)', (kind) => {
  let t: TestApp;
  let embeddings: FakeEmbeddingServer;
  let owner: TestUser;
  let member: TestUser;

  beforeAll(async () => {
    embeddings = await startFakeEmbeddingServer();
    t = await startTestApp(kind, embeddings.env({ EMBEDDING_MAX_RETRIES: '0' }));
    const orgId = await createOrganization(t.app);
    owner = await createUser(t.app, { organizationId: orgId, role: 'owner' });
    member = await createUser(t.app, { organizationId: orgId, role: 'member' });
  });
  afterAll(async () => {
    await t?.close();
    await embeddings?.close();
  });

  let sequence = 0;
  const create = async (body: Record<string, unknown>) => {
    const reply = await owner.api.post(PATH, { name: `Tested ${++sequence}`, stages: ['input'], ...body });
    expect(reply.status, reply.text).toBe(201);
    return reply.body.data.id as number;
  };
  const test = async (id: number, text: string, stage?: string) => {
    const reply = await member.api.post(`${PATH}/${id}/test`, { text, ...(stage ? { stage } : {}) });
    expect(reply.status, reply.text).toBe(200);
    expect(Object.keys(reply.body.data).sort()).toEqual(['action', 'blocked', 'findings', 'latency_ms', 'stage', 'text']);
    return reply.body.data as { action: string; text: string; findings: Array<{ entity_type: string; start: number; end: number; rule: string }>; latency_ms: number; blocked: boolean; stage: string };
  };
  const slices = (text: string, findings: Array<{ start: number; end: number }>) => findings.map((finding) => text.slice(finding.start, finding.end));

  it.each([
    ['redact', 'Write to [EMAIL_ADDRESS] today', false],
    ['mask', 'Write to ******************* today', false],
    ['warn', EMAIL_TEXT, false],
    ['block', 'Write to [EMAIL_ADDRESS] today', true],
  ])('pii with %s', async (action, expected, blocked) => {
    const id = await create({ type: 'pii', action, config: { entities: ['EMAIL_ADDRESS'] } });
    const result = await test(id, EMAIL_TEXT);
    expect(result).toMatchObject({ action, text: expected, blocked, stage: 'input' });
    expect(result.findings).toEqual([{ entity_type: 'EMAIL_ADDRESS', start: 9, end: 28, rule: expect.any(String) }]);
    expect(slices(EMAIL_TEXT, result.findings)).toEqual(['ann.lee@example.org']);
  });

  it.runIf(PII_ENTITY_TYPES.length > 1)('pii looks only for the entity types configured', async () => {
    const id = await create({ type: 'pii', action: 'redact', config: { entities: PII_ENTITY_TYPES.filter((type) => type !== 'EMAIL_ADDRESS').slice(0, 1) } });
    expect(await test(id, EMAIL_TEXT)).toMatchObject({ action: 'none', text: EMAIL_TEXT, findings: [], blocked: false });
  });

  it.each([
    ['redact', 'Plans: [REDACTED], [REDACTED] and [REDACTED], not skills.'],
    ['mask', 'Plans: ****, ****** and **********, not skills.'],
    ['warn', 'Plans: кіll, ＳＥＣＲＥＴ and Order-1234, not skills.'],
    ['block', 'Plans: [REDACTED], [REDACTED] and [REDACTED], not skills.'],
  ])('blocked terms and patterns with %s, through look-alike letters, offsets into the text sent', async (action, expected) => {
    const id = await create({ type: 'blocked_terms', action, config: { terms: ['kill', 'secret'], patterns: ['order-\\d{4}'] } });
    const text = 'Plans: кіll, ＳＥＣＲＥＴ and Order-1234, not skills.';
    const result = await test(id, text);
    expect(result).toMatchObject({ action, text: expected, blocked: action === 'block' });
    expect(slices(text, result.findings)).toEqual(['кіll', 'ＳＥＣＲＥＴ', 'Order-1234']);
    expect(result.findings.map((finding) => finding.entity_type)).toEqual(['BLOCKED_TERM', 'BLOCKED_TERM', 'BLOCKED_PATTERN']);
  });

  it('finds one of ten thousand terms, written with zero-width characters and Cyrillic letters', async () => {
    const terms = Array.from({ length: 10_000 }, (_, i) => `codeword${i}`);
    const id = await create({ type: 'blocked_terms', action: 'redact', config: { terms } });
    const read = await owner.api.get(`${PATH}/${id}`);
    expect(read.body.data.config.terms).toHaveLength(10_000);
    const text = `${'Nothing here. '.repeat(500)}Say с\u200Bodеword9999 and codeword12 but not codeword99999.`;
    const result = await test(id, text);
    expect(slices(text, result.findings)).toEqual(['с\u200Bodеword9999', 'codeword12']);
    expect(result.text.endsWith('Say [REDACTED] and [REDACTED] but not codeword99999.')).toBe(true);
  });

  it.each([
    ['redact', { max_characters: 10 }, 'one two th[TRUNCATED]', 'max_characters'],
    ['mask', { max_characters: 10 }, 'one two th', 'max_characters'],
    ['warn', { max_tokens: 2 }, 'one two three four', 'max_tokens'],
    ['block', { max_tokens: 2 }, 'one two three four', 'max_tokens'],
  ])('length with %s', async (action, config, expected, rule) => {
    const id = await create({ type: 'length', action, config });
    const text = 'one two three four';
    const result = await test(id, text);
    expect(result).toMatchObject({ action, text: expected, blocked: action === 'block' });
    expect(result.findings).toEqual([{ entity_type: 'LENGTH', start: rule === 'max_tokens' ? 7 : 10, end: text.length, rule }]);
  });

  it.each([
    ['redact', 'Is this [REDACTED]? It is.'],
    ['mask', 'Is this ******* ******? It is.'],
    ['warn', 'Is this medical advice? It is.'],
    ['block', 'Is this [REDACTED]? It is.'],
  ])('a denied topic by keywords with %s', async (action, expected) => {
    const id = await create({ type: 'topic', action, config: { denied: ['medical advice'] } });
    const result = await test(id, 'Is this medical advice? It is.');
    expect(result).toMatchObject({ action, text: expected, blocked: action === 'block' });
    expect(result.findings).toEqual([{ entity_type: 'DENIED_TOPIC', start: 8, end: 22, rule: 'keyword' }]);
  });

  it('a denied topic by meaning, where the embedder places the text close to it', async () => {
    const id = await create({ type: 'topic', action: 'block', config: { denied: ['cars'], threshold: 0.5 } });
    const result = await test(id, 'I love automobiles');
    expect(result).toMatchObject({ action: 'block', blocked: true, text: 'I love automobiles' });
    expect(result.findings).toEqual([{ entity_type: 'DENIED_TOPIC', start: 0, end: 18, rule: 'embedding' }]);
    expect(await test(id, 'Pasta needs salted water')).toMatchObject({ action: 'none', findings: [] });
  });

  it('an allowed topic: mentioned, or close in meaning, is on topic; otherwise the whole text is off topic', async () => {
    const id = await create({ type: 'topic', action: 'redact', config: { allowed: ['dogs'], threshold: 0.6 } });
    expect(await test(id, 'Walking dogs daily')).toMatchObject({ action: 'none' });
    expect(await test(id, 'my puppy')).toMatchObject({ action: 'none' });
    const off = await test(id, 'Stock prices fell');
    expect(off).toMatchObject({ action: 'redact', text: '[REDACTED]', findings: [{ entity_type: 'OFF_TOPIC', start: 0, end: 17, rule: 'keyword' }] });
  });

  it('topics fall back on keywords when the embedder fails', async () => {
    const id = await create({ type: 'topic', action: 'warn', config: { denied: ['cars'] } });
    embeddings.script({ status: 500 }, { status: 500 });
    expect(await test(id, 'I love automobiles')).toMatchObject({ action: 'none', findings: [] });
    expect(await test(id, 'Fast cars')).toMatchObject({ action: 'warn', findings: [{ entity_type: 'DENIED_TOPIC', start: 5, end: 9, rule: 'keyword' }] });
  });

  it('applies at the stage named, and does nothing at a stage the guardrail does not watch', async () => {
    const id = await create({ type: 'pii', action: 'redact', stages: ['output', 'context'], config: {} });
    expect(await test(id, EMAIL_TEXT)).toMatchObject({ stage: 'output', action: 'redact' });
    expect(await test(id, EMAIL_TEXT, 'context')).toMatchObject({ stage: 'context', action: 'redact' });
    expect(await test(id, EMAIL_TEXT, 'input')).toMatchObject({ stage: 'input', action: 'none', text: EMAIL_TEXT, findings: [], blocked: false });
  });

  it('measures the latency with the server’s clock', async () => {
    const id = await create({ type: 'blocked_terms', action: 'warn', config: { terms: ['alpha'] } });
    const actor = await t.app.services.auth.authenticate(`Bearer ${member.token}`);
    let ms = Date.now();
    const restore = useClock(() => (ms += 7));
    try {
      expect((await t.app.services.guardrails.test(actor, id, { text: 'alpha' })).latency_ms).toBe(7);
    } finally {
      restore();
    }
  });

  it('refuses a text that is missing, not a string, or too long, and an unknown stage (400)', async () => {
    const id = await create({ type: 'pii', action: 'warn' });
    for (const body of [{}, { text: 42 }, { text: 'x'.repeat(200_001) }, { text: 'x', stage: 'middle' }, { text: 'x', extra: 1 }]) {
      const reply = await member.api.post(`${PATH}/${id}/test`, body);
      expect(reply.status, JSON.stringify(body).slice(0, 50)).toBe(400);
    }
    expect((await member.api.post(`${PATH}/999999/test`, { text: 'x' })).status).toBe(404);
  });
});
