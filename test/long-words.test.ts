// Long words (one pre-token of tens of thousands of characters, runs without spaces, mixed scripts,
// invisible characters) cost work in proportion to their length: token counting, sentence splitting
// and the search analyser. Work is counted (merge steps, characters looked at), never timed.
import { describe, expect, it } from 'vitest';
import { countPreToken } from '../src/ingest/cl100k-merge.js';
import { forEachPreToken } from '../src/ingest/pre-tokens.js';
import { splitSentences } from '../src/ingest/text-pieces.js';
import { analyze, streamSafe } from '../src/search/analyzer.js';

function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 4294967296;
  };
}

/** `length` units drawn from `units` (a unit may be several characters: an emoji, a letter and its mark). */
function drawn(units: readonly string[], length: number, seed: number): string[] {
  const random = seeded(seed);
  return Array.from({ length }, () => units[Math.floor(random() * units.length)]!);
}

const SIZES = [10_000, 20_000, 40_000, 80_000];

/** Texts of each kind, as units: a text of size n is the first n units, so each size extends the one before. */
const KINDS: Record<string, string[]> = {
  'one letter': Array.from({ length: 80_000 }, () => 'x'),
  'ASCII letters': drawn([...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ'], 80_000, 1),
  'two letters': drawn(['a', 'b'], 80_000, 2),
  accented: drawn([...'éèàüößçñåøæœ'], 80_000, 3),
  CJK: drawn([...'中文字日本語漢字한국어ひらがなカタカナ'], 80_000, 4),
  emoji: drawn(['😀', '👍🏽', '🎉', '❤️', '🇫🇷', '👨‍👩‍👧'], 80_000, 5),
  'mixed scripts': drawn([...'aжΩ中ひاक', 'é', '𝐀'], 80_000, 6),
  'invisible characters': drawn(['a', 'é', 'ж', '中', '\u200b', '\u200c', '\u200d', '\u2060', '\ufeff', '\u00ad', '\u0301', '\u0316', '\u0327'], 80_000, 7),
  'marks and zero-width only': drawn(['\u0301', '\u0316', '\u0327', '\u200b', '\u200d', '\ufe0f'], 80_000, 8),
};

/** The merge steps of counting a text's tokens, pre-token by pre-token, as countTokens does. */
function mergeSteps(text: string): number {
  const work = { steps: 0 };
  forEachPreToken(text, (start, end) => countPreToken(text.slice(start, end), work));
  return work.steps;
}

describe('long words', () => {
  it('counts the tokens of a long word with work that grows as n log n, not n²', () => {
    for (const [kind, units] of Object.entries(KINDS)) {
      const steps = SIZES.map((size) => {
        const text = units.slice(0, size).join('');
        const bytes = Buffer.byteLength(text);
        const counted = mergeSteps(text);
        expect(counted, `${kind}, ${size}`).toBeLessThanOrEqual(4 * bytes * Math.log2(bytes) + 1_000);
        return counted;
      });
      for (let i = 1; i < steps.length; i++) {
        expect(steps[i], `${kind}: ${SIZES[i]} units after ${SIZES[i - 1]}`).toBeLessThanOrEqual(2.2 * steps[i - 1]! + 1_000);
      }
    }
  });

  it('splits a paragraph into sentences looking at each character at most twice', () => {
    const paragraphs: Record<string, string[]> = {
      'closing brackets after a full stop': ['.', ...Array.from({ length: 80_000 }, () => ')')],
      'closers, stops and spaces': drawn(['.', '!', '?', '…', '"', "'", '”', '’', ')', ']', ' ', 'a', '。'], 80_000, 9),
      ...KINDS,
    };
    for (const [kind, units] of Object.entries(paragraphs)) {
      for (const size of SIZES) {
        const text = units.slice(0, size).join('');
        const work = { steps: 0 };
        splitSentences(text, work);
        expect(work.steps, `${kind}, ${size}`).toBeGreaterThan(0);
        expect(work.steps, `${kind}, ${size}`).toBeLessThanOrEqual(2 * text.length);
      }
    }
  });

  it('splits sentences where the pattern it replaces did', () => {
    // The earlier cut: at white space after ., !, ? or … and closers (looked behind for), and after CJK full stops.
    const PATTERN = /(?<=[.!?…]["'”’)\]]*)\s+|(?<=[。！？])/u;
    const byPattern = (paragraph: string) => paragraph.replace(/\s+/g, ' ').trim().split(PATTERN).filter((sentence) => sentence !== '');
    const units = ['.', '!', '?', '…', '"', "'", '”', '’', ')', ']', '(', ' ', '  ', '\n', '\t', 'a', 'B', 'é', '中', '。', '！', '？', '😀', '\u00a0'];
    const random = seeded(11);
    for (let i = 0; i < 20_000; i++) {
      const paragraph = drawn(units, 1 + Math.floor(random() * 16), i).join('');
      expect(splitSentences(paragraph), JSON.stringify(paragraph)).toEqual(byPattern(paragraph));
    }
  });

  it('gives the analyser no run of more than 30 combining marks to normalize, and leaves real text as it is', () => {
    // Normalizing sorts a run of marks in time that grows with the square of its length; the
    // combining grapheme joiner (U+034F) is a mark that ends a run.
    const longestMarkRun = (text: string) => Math.max(0, ...[...text.matchAll(/(?:(?!\u034f)\p{M})+/gu)].map((run) => [...run[0]].length));
    for (const [kind, units] of Object.entries({ ...KINDS, 'one mark': Array.from({ length: 80_000 }, () => '\u0301') })) {
      for (const size of SIZES) {
        const text = `a${units.slice(0, size).join('')} word`;
        expect(longestMarkRun(streamSafe(text)), `${kind}, ${size}`).toBeLessThanOrEqual(30);
      }
    }
    const zalgo = `word${'\u0301\u0316'.repeat(40_000)} second`;
    expect(analyze(zalgo, 'english')).toEqual(['word', 'second']);
    const real = 'Crème brûlée, naïve café. Tiếng Việt có dấu: Nguyễn. हिन्दी भाषा. ภาษาไทย. 中文。 Zalgo-ish: a\u0301\u0316\u0327.';
    expect(streamSafe(real)).toBe(real);
    const thirty = `a${'\u0301'.repeat(30)}b`;
    expect(streamSafe(thirty)).toBe(thirty);
  });
});
