// Values written to slip past a filter are read as a person reads them (src/guardrails/reading-form.ts):
// zero-width and bidi characters, fullwidth forms, digits of other scripts, odd spaces and dashes,
// look-alike letters, enclosed and regional-indicator letters, strike-through marks. Each is found, and
// its finding and its redaction cover exactly the characters sent, the invisible ones inside it and
// attached to its end included. The same through a stream cut anywhere; and the work grows with the
// length of the text, counted in steps.
import { describe, expect, it } from 'vitest';
import { agentGuardrails } from '../src/guardrails/agent-guardrails.js';
import { applyGuardrails } from '../src/guardrails/apply.js';
import { compileGuardrail } from '../src/guardrails/compile.js';
import type { GuardrailDefinition } from '../src/guardrails/definition.js';
import { windowedDetector } from '../src/guardrails/detector.js';
import { FoldedText } from '../src/guardrails/folded-text.js';
import type { StreamingGuard } from '../src/guardrails/guardrail.js';
import { detectPiiInReading, PII_HOLD_BACK } from '../src/guardrails/pii/detect.js';
import { readingForm } from '../src/guardrails/reading-form.js';
import { buildTermAutomaton, type TermAutomaton } from '../src/guardrails/term-automaton.js';
import { termDetector } from '../src/guardrails/term-scan.js';
import { foldForTerms, foldString } from '../src/guardrails/text-folding.js';
import { seededRandom as random } from './support/seeded-random.js';

let sequence = 0;
const define = (type: GuardrailDefinition['type'], config: object, action: GuardrailDefinition['action'] = 'redact') =>
  compileGuardrail({ id: ++sequence, name: `g${sequence}`, type, stages: ['input', 'output'], action, config } as GuardrailDefinition);

const PII = define('pii', {});
const TERMS = define('blocked_terms', { terms: ['secret plan', 'kill'] });

async function applied(guardrail: ReturnType<typeof define>, text: string) {
  const result = await applyGuardrails([guardrail], 'input', text);
  const findings = result.verdicts.flatMap((verdict) => verdict.findings);
  return { text: result.text, found: findings.map((finding) => [finding.entity_type, text.slice(finding.start, finding.end)]) };
}

describe('obfuscated PII', () => {
  it.each([
    ['zero-width characters inside an e-mail address (and one after it)', 'Write to ann\u200B.lee@exam\u200Dple.org\u200B today', 'EMAIL_ADDRESS', 'ann\u200B.lee@exam\u200Dple.org\u200B'],
    ['a fullwidth at sign', 'Write to ann.lee＠example.org today', 'EMAIL_ADDRESS', 'ann.lee＠example.org'],
    ['fullwidth digits', 'Pay with ４１１１ １１１１ １１１１ １１１１ today', 'CREDIT_CARD', '４１１１ １１１１ １１１１ １１１１'],
    ['Arabic-Indic digits', 'Pay with ٤١١١ ١١١١ ١١١١ ١١١١ today', 'CREDIT_CARD', '٤١١١ ١١١١ ١١١١ ١١١١'],
    ['Devanagari digits', 'Pay with ४१११ ११११ ११११ ११११ today', 'CREDIT_CARD', '४१११ ११११ ११११ ११११'],
    ['a card with no-break and thin spaces', 'Pay with 4111\u00A01111\u2009\u20091111\u202F1111 today', 'CREDIT_CARD', '4111\u00A01111\u2009\u20091111\u202F1111'],
    ['a card with mixed separators', 'Pay with 4111 1111-1111\u20131111 today', 'CREDIT_CARD', '4111 1111-1111\u20131111'],
    ['an IBAN with a Cyrillic letter', 'Send it to D\u041589 3704 0044 0532 0130 00 today', 'IBAN_CODE', 'D\u041589 3704 0044 0532 0130 00'],
    ['an IBAN with dashes', 'Send it to DE89-3704-0044-0532-0130-00 today', 'IBAN_CODE', 'DE89-3704-0044-0532-0130-00'],
    ['a card struck through', 'Pay with 4\u03361\u03361\u03361\u0336 1111 1111 1111\u0336 today', 'CREDIT_CARD', '4\u03361\u03361\u03361\u0336 1111 1111 1111\u0336'],
  ])('finds %s, the span covering exactly what was sent', async (_case, text, type, value) => {
    const result = await applied(PII, text);
    expect(result.found).toEqual([[type, value]]);
    expect(result.text).toBe(text.replace(value, `[${type}]`));
  });

  it('masks a card in any digits, keeping its last four', async () => {
    const result = await applyGuardrails([define('pii', { entities: ['CREDIT_CARD'] }, 'mask')], 'input', 'Pay with ٤١١١ ١١١١ ١١١١ ١١١١ today');
    expect(result.text).toBe('Pay with **** **** **** ١١١١ today');
  });
});

describe('obfuscated blocked terms', () => {
  it.each([
    ['two spaces between the words', 'the secret  plan is', 'secret  plan'],
    ['a line break between the words', 'the secret\r\nplan is', 'secret\r\nplan'],
    ['a zero-width space for the space', 'the secret\u200Bplan is', 'secret\u200Bplan'],
    ['enclosed letters, negative circled and squared ones too', 'the ⓈⒺⒸⓇⒺⓉ 🅟🅻🅐🅽 is', 'ⓈⒺⒸⓇⒺⓉ 🅟🅻🅐🅽'],
    ['regional-indicator letters', 'the 🇸🇪🇨🇷🇪🇹 🇵🇱🇦🇳 is', '🇸🇪🇨🇷🇪🇹 🇵🇱🇦🇳'],
    ['a braille blank for the space', 'the secret\u2800plan is', 'secret\u2800plan'],
    ['an ideographic space and a no-break space', 'the secret\u3000\u00A0plan is', 'secret\u3000\u00A0plan'],
    ['a right-to-left override inside', 'the se\u202Ecret plan\u202C is', 'se\u202Ecret plan\u202C'],
    ['a strike-through mark after every letter', 'the s̶e̶c̶r̶e̶t̶ ̶p̶l̶a̶n̶ is', 's̶e̶c̶r̶e̶t̶ ̶p̶l̶a̶n̶'],
  ])('finds a phrase written with %s, the span covering exactly what was sent', async (_case, text, value) => {
    const result = await applied(TERMS, text);
    expect(result.found).toEqual([['BLOCKED_TERM', value]]);
    expect(result.text).toBe(text.replace(value, '[REDACTED]'));
  });

  it('leaves no combining mark behind a redaction, and an invisible character does not make a word of two', async () => {
    const result = await applied(TERMS, 'we k\u0336i\u0336l\u0336l\u0336 it');
    expect(result.text).toBe('we [REDACTED] it');
    expect((await applied(TERMS, 'skill s\u200Bkill killer')).found).toEqual([]);
  });

  it('reads patterns on the same reading: fullwidth letters, Arabic-Indic digits, a Cyrillic letter, odd dashes', async () => {
    const patterns = define('blocked_terms', { terms: ['unused'], patterns: ['order-\\d{3}'] });
    const text = 'ｏｒｄｅｒ\u2011١٢٣ and \u043erder\u2014456';
    expect((await applied(patterns, text)).found).toEqual([
      ['BLOCKED_PATTERN', 'ｏｒｄｅｒ\u2011١٢٣'],
      ['BLOCKED_PATTERN', '\u043erder\u2014456'],
    ]);
  });

  it('folds a term written with odd spaces as one space', () => {
    expect(foldString('Secret \u2009\n Plan', foldForTerms)).toBe('secret plan');
  });
});

function stream(guard: StreamingGuard, pieces: string[]) {
  let text = '';
  for (const piece of pieces) text += guard.push(piece);
  text += guard.flush();
  return { text, findings: guard.verdicts.flatMap((verdict) => verdict.findings.map((finding) => [finding.entity_type, finding.start, finding.end])) };
}

describe('obfuscated values in a stream', () => {
  const ANSWER =
    'Mail ann\u200B.lee@exam\u200Dple.org\u200B, pay ٤١١١ ١١١١ ١١١١ ١١١١ or D\u041589-3704-0044-0532-0130-00; ' +
    'the s̶e̶c̶r̶e̶t̶ ̶p̶l̶a̶n̶ and the secret\u200Bplan, 🇸🇪🇨🇷🇪🇹 🇵🇱🇦🇳, k\u0336i\u0336l\u0336l\u0336.';
  const guardrails = agentGuardrails([define('pii', {}), define('blocked_terms', { terms: ['secret plan', 'kill'] })]);

  it('gives the same text and findings cut at every position as the whole answer at once', async () => {
    const whole = stream(guardrails.streamOutput(), [ANSWER]);
    const applied = await guardrails.apply('output', ANSWER);
    expect(whole.text).toBe(applied.text);
    expect(whole.text).toBe('Mail [EMAIL_ADDRESS], pay [CREDIT_CARD] or [IBAN_CODE]; the [REDACTED] and the [REDACTED], [REDACTED], [REDACTED].');
    for (let cut = 1; cut < ANSWER.length; cut++) {
      expect(stream(guardrails.streamOutput(), [ANSWER.slice(0, cut), ANSWER.slice(cut)]), `cut at ${cut}`).toEqual(whole);
    }
    expect(stream(guardrails.streamOutput(), ANSWER.split('')), 'one unit at a time').toEqual(whole);
  });
});

const ALPHABETS = ['abcdefghijklmnopqrstuvwxyz', 'АВЕКМНОРСТХаеорсху', 'αβγδεοικ', 'ａｂｃ１２３', '٠١٢٣٤٥٦٧٨٩', '०१२३', '𝐚𝐛𝐜🇦🇧Ⓐ', '@.-–—'];
const INVISIBLES = ['\u200B', '\u200D', '\u00AD', '\u202E', '\u2066', '\uFE0F', '\u0336', '\u0301', '\u2800', '\u00A0', '\u3000', '\n'];

/** Random long words of mixed scripts, invisible characters and odd spaces in and between them. */
function obfuscatedText(length: number, seed: number): string {
  const next = random(seed);
  const pick = (list: string | readonly string[]) => [...list][Math.floor(next() * [...list].length)]!;
  let text = '';
  while (text.length < length) {
    const alphabet = pick(ALPHABETS);
    const word = Array.from({ length: 1 + Math.floor(next() * 400) }, () => (next() < 0.2 ? pick(INVISIBLES) : pick(alphabet))).join('');
    text += `${word}${pick([' ', '  ', '\u200B', '\u2009', '\n'])}`;
  }
  return text.slice(0, length).replace(/[\uD800-\uDBFF]$/, '');
}

/**
 * Steps of the work on a text: code points read, automaton steps, characters given to PII detection;
 * and the reading, which must have no invisible character left and no run of white space.
 */
function countedWork(text: string, pieceSize: number): { steps: number; reading: string } {
  let steps = 0;
  const counting = (codePoint: number) => {
    steps++;
    return readingForm(codePoint);
  };
  const read = new FoldedText(counting);
  const automaton = buildTermAutomaton(['secret plan', 'secretplan', 'kill', 'aaaa', 'ааа']);
  const counted: TermAutomaton = { ...automaton, step: (node, unit) => (steps++, automaton.step(node, unit)) };
  const detectors = [
    termDetector(counted, { entity_type: 'BLOCKED_TERM', rule: 'term' }),
    windowedDetector((reading) => ((steps += reading.length), detectPiiInReading(reading)), PII_HOLD_BACK, 128),
  ];
  const runs = detectors.map((detector) => detector.start());
  for (let at = 0; at < text.length; at += pieceSize) {
    const piece = text.slice(at, at + pieceSize);
    read.append(piece);
    for (const run of runs) {
      run.append(piece);
      run.collect(false);
    }
  }
  read.finish();
  for (const run of runs) run.collect(true);
  return { steps, reading: read.text };
}

describe('the work of reading obfuscated text', () => {
  it.each([
    ['whole', 1_000_000],
    ['in pieces of 7 characters', 7],
  ])('grows linearly with the text, read %s', (_how, pieceSize) => {
    for (const seed of [1, 2, 3]) {
      const short = obfuscatedText(4_000, seed);
      const long = obfuscatedText(32_000, seed);
      const perCharacterShort = countedWork(short, pieceSize).steps / short.length;
      const { steps, reading } = countedWork(long, pieceSize);
      const perCharacterLong = steps / long.length;
      expect(reading).not.toMatch(/[\p{Cf}\p{Mn}\p{Me}\u00A0\u2800\u3000\u2009]|\s\s/u);
      // Eight times the text, at most a little more than eight times the steps.
      expect(perCharacterLong, `seed ${seed}`).toBeLessThan(perCharacterShort * 1.25);
      expect(perCharacterLong, `seed ${seed}`).toBeLessThan(12);
    }
  });
});
