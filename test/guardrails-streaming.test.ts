// The output guardrails over a stream (unit): the answer cut at every position, and into many random
// pieces, gives the same released text and the same findings as the whole answer pushed at once, and
// (where nothing blocks) as the guardrails applied to the whole text; pieces may split surrogate pairs
// and words hidden with zero-width characters; a block stops the stream where it is found; what is
// held back stays within what the longest term, pattern or phrase needs.
import { describe, expect, it } from 'vitest';
import { agentGuardrails } from '../src/guardrails/agent-guardrails.js';
import { compileGuardrail, type CompiledGuardrail } from '../src/guardrails/compile.js';
import type { GuardrailDefinition } from '../src/guardrails/definition.js';
import type { Finding, GuardrailVerdict, StreamingGuard } from '../src/guardrails/guardrail.js';
import { PII_ENTITY_TYPES } from '../src/guardrails/pii/detect.js';
import { seededRandom as random } from './support/seeded-random.js';

/** PII types found by their shape alone, the same in a window as in the whole text. */
const STRUCTURED = ['EMAIL_ADDRESS', 'CREDIT_CARD', 'IBAN_CODE', 'US_SSN', 'IP_ADDRESS'].filter((type) => PII_ENTITY_TYPES.includes(type));

const ANSWER =
  'Hello, write to jane.doe@example.com about the ѕесrеt  plan. The k\u200Bill switch for PROJECT-1234 is ready 😀 𝐤𝐢𝐥𝐥 now; ' +
  'skill and killer stay. Medical advice is not given here, medically advised or not: call bob@test.org. ' +
  'Card 4111 1111 1111 1111 expires. Ｐｒｏｊｅｃｔ-９８７６ is fullwidth. Done.';

let sequence = 0;
function guardrail(definition: Omit<GuardrailDefinition, 'id' | 'name' | 'stages'> & { stages?: GuardrailDefinition['stages'] }): CompiledGuardrail {
  const id = ++sequence;
  return compileGuardrail({ id, name: `g${id}`, stages: ['output'], ...definition } as GuardrailDefinition);
}

const terms = (action: GuardrailDefinition['action']) =>
  guardrail({ type: 'blocked_terms', action, config: { terms: ['kill', 'secret plan', 'switch for', 'plan the', 'secret'], patterns: ['project-\\d{4}', '\\b\\d{4} \\d{4}\\b'] } });

const SETS: Record<string, () => CompiledGuardrail[]> = {
  'pii, terms, patterns, topic and length': () => [
    guardrail({ type: 'pii', action: 'redact', config: { entities: STRUCTURED } }),
    terms('mask'),
    guardrail({ type: 'topic', action: 'redact', config: { denied: ['medical advice', 'not given'] } }),
    guardrail({ type: 'length', action: 'redact', config: { max_characters: 230 } }),
  ],
  'overlapping redactions and warnings': () => [terms('redact'), guardrail({ type: 'pii', action: 'warn', config: {} }), guardrail({ type: 'blocked_terms', action: 'warn', config: { terms: ['the k', 'kill switch'] } })],
  'a token limit that masks': () => [guardrail({ type: 'length', action: 'mask', config: { max_tokens: 30 } }), terms('warn')],
  'an allowed topic never mentioned': () => [guardrail({ type: 'topic', action: 'warn', config: { allowed: ['cooking recipes'] } }), terms('redact')],
  'patterns that look behind, anchor and read ahead': () => [
    guardrail({ type: 'blocked_terms', action: 'redact', config: { terms: [], patterns: ['^hello', '(?<=the )\\w{1,10}', '(?<![a-z])card(?= \\d{4})', 'done\\.$', 'is\\b'] } }),
  ],
  'a length cut before what a block would find': () => [guardrail({ type: 'length', action: 'redact', config: { max_characters: 40 } }), terms('block')],
};

const BLOCKING: Record<string, () => CompiledGuardrail[]> = {
  'a blocked term': () => [guardrail({ type: 'pii', action: 'redact', config: { entities: STRUCTURED } }), terms('block')],
  'a blocked length': () => [terms('redact'), guardrail({ type: 'length', action: 'block', config: { max_characters: 120 } })],
  'a blocked pii entity': () => [guardrail({ type: 'pii', action: 'block', config: { entities: STRUCTURED } })],
  'an allowed topic never mentioned, blocking': () => [terms('mask'), guardrail({ type: 'topic', action: 'block', config: { allowed: ['cooking'] } })],
};

interface Streamed {
  text: string;
  blocked: boolean;
  findings: Record<number, Finding[]>;
}

function findingsByGuardrail(verdicts: readonly GuardrailVerdict[], withEnds = true): Record<number, Finding[]> {
  const byGuardrail: Record<number, Finding[]> = {};
  for (const verdict of verdicts) {
    for (const finding of verdict.findings) (byGuardrail[verdict.guardrail_id] ??= []).push(withEnds || finding.entity_type !== 'LENGTH' ? finding : { ...finding, end: -1 });
  }
  for (const list of Object.values(byGuardrail)) list.sort((a, b) => a.start - b.start || a.end - b.end || a.entity_type.localeCompare(b.entity_type));
  return byGuardrail;
}

function stream(guard: StreamingGuard, pieces: string[], withEnds = true): Streamed {
  let text = '';
  for (const piece of pieces) text += guard.push(piece);
  text += guard.flush();
  return { text, blocked: guard.blocked, findings: findingsByGuardrail(guard.verdicts, withEnds) };
}

function randomPieces(text: string, seed: number): string[] {
  const next = random(seed);
  const pieces: string[] = [];
  for (let at = 0; at < text.length; ) {
    const size = next() < 0.3 ? 1 : 1 + Math.floor(next() * 12);
    pieces.push(text.slice(at, at + size));
    at += size;
  }
  return pieces;
}

describe('the streaming guard', () => {
  describe.each(Object.entries(SETS))('with %s', (_name, make) => {
    const guardrails = agentGuardrails(make());
    const whole = stream(guardrails.streamOutput(), [ANSWER]);

    it('releases what apply gives the whole answer, with the same findings', async () => {
      const applied = await guardrails.apply('output', ANSWER);
      expect(whole.text).toBe(applied.text);
      expect(whole.findings).toEqual(findingsByGuardrail(applied.verdicts));
      expect(Object.keys(whole.findings).length).toBeGreaterThan(0);
    });

    it('gives the same text and findings cut at every position', () => {
      for (let cut = 0; cut <= ANSWER.length; cut++) {
        expect(stream(guardrails.streamOutput(), [ANSWER.slice(0, cut), ANSWER.slice(cut)]), `cut at ${cut}`).toEqual(whole);
      }
    });

    it('gives the same text and findings in 300 random cuttings, single characters and split pairs included', () => {
      for (let seed = 1; seed <= 300; seed++) expect(stream(guardrails.streamOutput(), randomPieces(ANSWER, seed)), `seed ${seed}`).toEqual(whole);
      expect(stream(guardrails.streamOutput(), ANSWER.split('')), 'one unit at a time').toEqual(whole);
    });
  });

  describe.each(Object.entries(BLOCKING))('blocking on %s', (_name, make) => {
    const guardrails = agentGuardrails(make());
    const whole = stream(guardrails.streamOutput(), [ANSWER], false);

    it('stops: blocked, and nothing after the finding is released', () => {
      expect(whole.blocked).toBe(true);
      expect(whole.text.length).toBeLessThan(ANSWER.length);
    });

    it('stops at the same place with the same findings however the answer is cut', () => {
      for (let cut = 0; cut <= ANSWER.length; cut++) {
        expect(stream(guardrails.streamOutput(), [ANSWER.slice(0, cut), ANSWER.slice(cut)], false), `cut at ${cut}`).toEqual(whole);
      }
      for (let seed = 1; seed <= 100; seed++) expect(stream(guardrails.streamOutput(), randomPieces(ANSWER, seed), false), `seed ${seed}`).toEqual(whole);
    });

    it('takes nothing more once blocked', () => {
      const guard = guardrails.streamOutput();
      stream(guard, [ANSWER]);
      expect(guard.push('more text')).toBe('');
      expect(guard.flush()).toBe('');
    });
  });

  it('releases a blocked answer up to the block: the text before it, redacted', () => {
    const guard = agentGuardrails([guardrail({ type: 'pii', action: 'redact', config: {} }), guardrail({ type: 'blocked_terms', action: 'block', config: { terms: ['forbidden'] } })]).streamOutput();
    const result = stream(guard, ['Mail ann@example.org a ', 'forbidden', ' thing and more']);
    expect(result.text).toBe('Mail [EMAIL_ADDRESS] a ');
    expect(result.blocked).toBe(true);
  });

  it('holds back no more than its longest term needs, never the whole answer', () => {
    const longest = 'an extremely long blocked phrase';
    const guard = agentGuardrails([guardrail({ type: 'blocked_terms', action: 'redact', config: { terms: ['short', longest] } })]).streamOutput();
    const clean = 'Nothing to find in this sentence, said again and again. '.repeat(20);
    let pushed = 0;
    let released = 0;
    for (const piece of randomPieces(clean, 7)) {
      pushed += piece.length;
      released += guard.push(piece).length;
      expect(pushed - released).toBeLessThanOrEqual(longest.length + 1);
    }
    expect(released + guard.flush().length).toBe(clean.length);
  });

  it('holds back no more than its pattern reads, and finds fullwidth digits and words split by zero-width characters', () => {
    const guard = agentGuardrails([guardrail({ type: 'blocked_terms', action: 'redact', config: { terms: ['kill'], patterns: ['order-\\d{1,8}'] } })]).streamOutput();
    let pushed = '';
    let released = '';
    for (const piece of ['Your order-１２３４５ and k', '\u200B', 'i', 'l', 'l', ' ', 'switch; filler text goes on and on here.']) {
      pushed += piece;
      released += guard.push(piece);
      expect(pushed.length - released.length).toBeLessThanOrEqual(30);
    }
    released += guard.flush();
    expect(released).toBe('Your [REDACTED] and [REDACTED] switch; filler text goes on and on here.');
  });

  it('ends at flush: a second flush and later pieces give nothing and report nothing again', () => {
    const guard = agentGuardrails([guardrail({ type: 'length', action: 'redact', config: { max_characters: 5 } }), terms('warn')]).streamOutput();
    expect(guard.push('kill them all') + guard.flush()).toBe('kill [TRUNCATED]');
    const verdicts = guard.verdicts.length;
    expect(guard.flush()).toBe('');
    expect(guard.push('more')).toBe('');
    expect(guard.verdicts).toHaveLength(verdicts);
  });

  it('passes an answer through untouched when no output guardrail applies', () => {
    const guard = agentGuardrails([guardrail({ type: 'pii', action: 'redact', config: {}, stages: ['input'] })]).streamOutput();
    expect(guard.push('mail ann@example.org')).toBe('mail ann@example.org');
    expect(guard.flush()).toBe('');
    expect(guard.verdicts).toEqual([]);
  });

  it('never splits a surrogate pair, even when the answer ends in half of one', () => {
    const guard = agentGuardrails([guardrail({ type: 'blocked_terms', action: 'mask', config: { terms: ['kill'] } })]).streamOutput();
    const first = guard.push('a 😀 kill \uD83D');
    expect(first.endsWith('\uD83D')).toBe(false);
    const rest = guard.push('\uDE00 end') + guard.flush();
    expect(first + rest).toBe('a 😀 **** 😀 end');
  });
});
