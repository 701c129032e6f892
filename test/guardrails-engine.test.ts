// The guardrail engine on whole texts (unit): folding and confusables, the terms automaton with ten
// thousand terms, word boundaries and overlaps, pattern reach, masks and redactions, length limits in
// characters and tokens, topics by stemmed keywords, and offsets mapped back to the original text.
import { describe, expect, it } from 'vitest';
import { applyGuardrails } from '../src/guardrails/apply.js';
import { compileGuardrail } from '../src/guardrails/compile.js';
import type { GuardrailDefinition } from '../src/guardrails/definition.js';
import { regexReach } from '../src/guardrails/regex-reach.js';
import { foldForPatterns, foldForTerms, foldString } from '../src/guardrails/text-folding.js';
import { countTokens } from '../src/ingest/tokens.js';

let sequence = 0;
const compiled = (definition: Pick<GuardrailDefinition, 'type' | 'action' | 'config'>) =>
  compileGuardrail({ id: ++sequence, name: `g${sequence}`, stages: ['input'], ...definition } as GuardrailDefinition);
const apply = (definition: Pick<GuardrailDefinition, 'type' | 'action' | 'config'>, text: string) => applyGuardrails([compiled(definition)], 'input', text);
const found = async (definition: Pick<GuardrailDefinition, 'type' | 'action' | 'config'>, text: string) =>
  (await apply(definition, text)).verdicts.flatMap((verdict) => verdict.findings.map((finding) => text.slice(finding.start, finding.end)));
const terms = (list: string[], patterns?: string[]) => ({ type: 'blocked_terms' as const, action: 'warn' as const, config: { terms: list, ...(patterns ? { patterns } : {}) } });

describe('folding', () => {
  it.each([
    ['Cyrillic look-alikes', 'ѕесrеt кіll', 'secret kill'],
    ['Greek look-alikes', 'ΡΑΥΡΑL', 'paypal'],
    ['fullwidth letters', 'ＫＩＬＬ', 'kill'],
    ['mathematical alphabets', '𝐤𝐢𝐥𝐥 𝓀𝒾𝓁𝓁', 'kill kill'],
    ['zero-width and soft hyphens', 'k\u200Bi\u00ADl\u200Dl\uFEFF', 'kill'],
    ['accents and case', 'CAFÉ Straße', 'cafe strasse'],
    ['ligatures', 'ﬁnal ﬂag', 'final flag'],
    ['digits that read as letters', 'b0mb 1ie', 'bomb lie'],
  ])('reads %s as their Latin skeleton', (_case, text, expected) => {
    expect(foldString(text, foldForTerms)).toBe(expected);
  });

  it('keeps letters that only look alike in pairs apart (burn is not bum) and punctuation as punctuation', () => {
    expect(foldString('burn', foldForTerms)).not.toBe(foldString('bum', foldForTerms));
    expect(foldString('foo|bar', foldForTerms)).toBe('foo|bar');
  });

  it('folds patterns only by NFKC and invisible characters', () => {
    expect(foldString('Ｏｒｄｅｒ-１２３\u200B4', foldForPatterns)).toBe('Order-1234');
  });
});

describe('blocked terms', () => {
  it('finds terms whole, on word boundaries, with offsets into the original text', async () => {
    const text = 'Skill and killer are fine; kill is not, nor "KILL", nor k\u200Bіll.';
    const result = await apply(terms(['kill']), text);
    const findings = result.verdicts[0]!.findings;
    expect(findings.map((finding) => text.slice(finding.start, finding.end))).toEqual(['kill', 'KILL', 'k\u200Bіll']);
    expect(findings[0]).toEqual({ entity_type: 'BLOCKED_TERM', start: 27, end: 31, rule: 'term' });
  });

  it('finds phrases and terms that begin or end with punctuation, the longest first where they overlap', async () => {
    expect(await found(terms(['secret plan', 'secret', 'plan b', '#hashtag', 'c++']), 'The secret plan b, a #hashtag and c++ code, #hashtags.')).toEqual([
      'secret plan',
      '#hashtag',
      'c++',
    ]);
  });

  it('matches ten thousand terms in one pass', async () => {
    const list = Array.from({ length: 10_000 }, (_, i) => `term${i.toString(36)}word`);
    const guardrail = compiled(terms(list));
    const text = `${'Ordinary words, nothing to see. '.repeat(300)} then term${(9_999).toString(36)}word and ｔｅｒｍ${(5_000).toString(36)}ｗｏｒｄ.`;
    const result = await applyGuardrails([guardrail], 'input', text);
    expect(result.verdicts[0]!.findings.map((finding) => text.slice(finding.start, finding.end))).toEqual([`term${(9_999).toString(36)}word`, `ｔｅｒｍ${(5_000).toString(36)}ｗｏｒｄ`]);
  });

  it('finds patterns case-insensitively in the text folded by NFKC, and not inside what they do not match', async () => {
    expect(await found(terms([], ['order-\\d{4}', '\\bsecret[-_ ]?key\\b']), 'ORDER-1234, order-１２３４, order-12, my Secret_Key and secretkeys')).toEqual([
      'ORDER-1234',
      'order-１２３４',
      'Secret_Key',
    ]);
  });
});

describe('pattern reach', () => {
  it.each([
    ['\\d{3}-\\d{2}-\\d{4}', 11],
    ['(?:ab|c){2,4}', 8],
    ['foo(?=bar{1,3})', 8],
    ['(?<=x)y', 1],
    ['\\p{L}{3}', 6],
    ['a+', Number.POSITIVE_INFINITY],
    ['x{2,}', Number.POSITIVE_INFINITY],
  ])('of %s is %s', (pattern, reach) => {
    expect(regexReach(pattern)).toBe(reach);
  });
});

describe('actions', () => {
  const pii = (action: GuardrailDefinition['action']) => ({ type: 'pii' as const, action, config: {} });

  it('redacts PII by entity type and terms as [REDACTED]; a block redacts too and refuses', async () => {
    expect((await apply(pii('redact'), 'Mail ann@example.org now')).text).toBe('Mail [EMAIL_ADDRESS] now');
    expect((await apply({ ...terms(['alpha']), action: 'redact' }, 'alpha beta')).text).toBe('[REDACTED] beta');
    const blocked = await apply({ ...terms(['alpha']), action: 'block' }, 'alpha beta');
    expect(blocked).toMatchObject({ blocked: true, text: '[REDACTED] beta' });
  });

  it('masks every character but white space, keeping the length; a card keeps its last four digits', async () => {
    const masked = await apply(pii('mask'), 'Mail ann@example.org now');
    expect(masked.text).toBe('Mail *************** now');
    const card = await apply({ type: 'pii', action: 'mask', config: {} }, 'Card 4111 1111 1111 1111 please');
    if (card.verdicts[0]?.findings.some((finding) => finding.entity_type === 'CREDIT_CARD')) expect(card.text).toBe('Card **** **** **** 1111 please');
  });

  it('warns without changing the text', async () => {
    const warned = await apply(pii('warn'), 'Mail ann@example.org now');
    expect(warned).toMatchObject({ text: 'Mail ann@example.org now', blocked: false });
    expect(warned.verdicts[0]!.findings).toEqual([{ entity_type: 'EMAIL_ADDRESS', start: 5, end: 20, rule: expect.any(String) }]);
  });

  it('cuts a text that is too long: redact leaves [TRUNCATED], mask nothing, block refuses it whole', async () => {
    const text = 'one two three four five six';
    expect((await apply({ type: 'length', action: 'redact', config: { max_characters: 7 } }, text)).text).toBe('one two[TRUNCATED]');
    expect((await apply({ type: 'length', action: 'mask', config: { max_characters: 7 } }, text)).text).toBe('one two');
    expect(await apply({ type: 'length', action: 'block', config: { max_characters: 7 } }, text)).toMatchObject({ text, blocked: true });
    expect((await apply({ type: 'length', action: 'redact', config: { max_characters: 100 } }, text)).verdicts).toEqual([]);
  });

  it('counts tokens with the project’s counter and cuts between pre-tokens', async () => {
    const text = 'Tokenization splits unbelievable words into pieces.';
    const result = await apply({ type: 'length', action: 'mask', config: { max_tokens: 4 } }, text);
    expect(countTokens(result.text)).toBeLessThanOrEqual(4);
    expect(text.startsWith(result.text)).toBe(true);
    expect(result.verdicts[0]!.findings).toEqual([{ entity_type: 'LENGTH', start: result.text.length, end: text.length, rule: 'max_tokens' }]);
  });
});

describe('topics by keywords', () => {
  it('finds denied topics stemmed, ignoring case and stop words', async () => {
    expect(await found({ type: 'topic', action: 'warn', config: { denied: ['medical advice', 'weapons'] } }, 'Is this MEDICAL ADVICES? A weapon, or the weapons?')).toEqual([
      'MEDICAL ADVICES',
      'weapon',
      'weapons',
    ]);
  });

  it('calls a text that mentions no allowed topic off topic, as a whole', async () => {
    const allowed = { type: 'topic' as const, action: 'redact' as const, config: { allowed: ['cooking', 'recipe'] } };
    expect((await apply(allowed, 'Two recipes for soup')).verdicts).toEqual([]);
    const off = await apply(allowed, 'Who won the match?');
    expect(off.text).toBe('[REDACTED]');
    expect(off.verdicts[0]!.findings).toEqual([{ entity_type: 'OFF_TOPIC', start: 0, end: 18, rule: 'keyword' }]);
    expect((await apply(allowed, '  ?! ')).verdicts).toEqual([]);
  });
});
