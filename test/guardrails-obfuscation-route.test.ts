// POST /api/v2/guardrails/{id}/test on both databases with obfuscated values: findings are spans of
// the text sent (API.md §8), the invisible characters inside and attached to them included, and the
// text comes back redacted over exactly those characters.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './support/app.js';
import { databaseKinds } from './support/databases.js';
import { createOrganization, createUser, type TestUser } from './support/factories.js';

const PATH = '/api/v2/guardrails';

describe.each(databaseKinds)('obfuscated values through the guardrail test route (%s)', (kind) => {
  let t: TestApp;
  let owner: TestUser;

  beforeAll(async () => {
    t = await startTestApp(kind);
    const orgId = await createOrganization(t.app);
    owner = await createUser(t.app, { organizationId: orgId, role: 'owner' });
  });
  afterAll(async () => {
    await t?.close();
  });

  let sequence = 0;
  const tested = async (body: Record<string, unknown>, text: string) => {
    const created = await owner.api.post(PATH, { name: `Obfuscation ${++sequence}`, stages: ['input'], action: 'redact', ...body });
    expect(created.status, created.text).toBe(201);
    const reply = await owner.api.post(`${PATH}/${created.body.data.id}/test`, { text });
    expect(reply.status, reply.text).toBe(200);
    const data = reply.body.data as { text: string; findings: Array<{ entity_type: string; start: number; end: number }> };
    return { text: data.text, found: data.findings.map((finding) => [finding.entity_type, text.slice(finding.start, finding.end)]) };
  };

  it('finds an e-mail address with zero-width characters and a fullwidth at sign', async () => {
    const text = 'Write to ann\u200B.lee＠exam\u200Dple.org\u200B today';
    expect(await tested({ type: 'pii', config: {} }, text)).toEqual({
      text: 'Write to [EMAIL_ADDRESS] today',
      found: [['EMAIL_ADDRESS', 'ann\u200B.lee＠exam\u200Dple.org\u200B']],
    });
  });

  it('finds a card in Arabic-Indic digits with thin spaces and an IBAN with a Cyrillic letter and dashes', async () => {
    const text = 'Pay ٤١١١\u2009١١١١ ١١١١\u00A0١١١١ or D\u041589-3704-0044-0532-0130-00.';
    expect(await tested({ type: 'pii', config: { entities: ['CREDIT_CARD', 'IBAN_CODE'] } }, text)).toEqual({
      text: 'Pay [CREDIT_CARD] or [IBAN_CODE].',
      found: [
        ['CREDIT_CARD', '٤١١١\u2009١١١١ ١١١١\u00A0١١١١'],
        ['IBAN_CODE', 'D\u041589-3704-0044-0532-0130-00'],
      ],
    });
  });

  it('finds blocked phrases written with a zero-width space, a braille blank and struck-through letters, leaving no mark behind', async () => {
    const text = 'a secret\u200Bplan, a secret\u2800plan, a s̶e̶c̶r̶e̶t̶ ̶p̶l̶a̶n̶.';
    expect(await tested({ type: 'blocked_terms', config: { terms: ['secret plan'] } }, text)).toEqual({
      text: 'a [REDACTED], a [REDACTED], a [REDACTED].',
      found: [
        ['BLOCKED_TERM', 'secret\u200Bplan'],
        ['BLOCKED_TERM', 'secret\u2800plan'],
        ['BLOCKED_TERM', 's̶e̶c̶r̶e̶t̶ ̶p̶l̶a̶n̶'],
      ],
    });
  });
});
