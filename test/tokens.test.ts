import { describe, expect, it } from 'vitest';
import { forEachPreToken } from '../src/ingest/pre-tokens.js';
import { joinedCount, joinPieces, type Piece } from '../src/ingest/text-pieces.js';
import { countText, countTokens, countTokensByRegex, tokensAddedByJoin } from '../src/ingest/tokens.js';

// gpt-tokenizer's cl100k pattern (encodingParams/constants.js), which the scanner reproduces.
const CL100K_SPLIT =
  /'(?:[sS]|[dD]|[mM]|[tT]|[lL][lL]|[vV][eE]|[rR][eE])|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s+$|\s*[\r\n]|\s+(?!\S)|\s/gu;

function scannerCuts(text: string): string[] {
  const cuts: string[] = [];
  forEachPreToken(text, (start, end) => cuts.push(text.slice(start, end)));
  return cuts;
}

const regexCuts = (text: string) => [...text.matchAll(CL100K_SPLIT)].map((match) => match[0]);

/** Pieces of every class the pattern tells apart, and the joins between them. */
const PIECES = [
  ...'abcXYZ'.split(''),
  'é', 'ß', 'Ω', 'ж', '中', 'ひ', 'ا', '𝐀', '𝑥', // letters, two of them outside the BMP
  ...'0189'.split(''), '٣', '½', '²', 'Ⅻ', '𝟙', // numbers
  ' ', ' ', ' ', '\t', '\n', '\r', '\r\n', '\u00a0', '\u2028', '\u3000', '\ufeff', '\v', '\f', '\u001c', // white space, and one that is not
  ...".,;:!?-_()[]{}<>/\\\"'`*#@$%^&|~+=".split(''), '…', '—', '“', '€', '😀', '👍🏽', // the rest
  "'s", "'S", "'t", "'ll", "'LL", "'lL", "'ve", "'Ve", "'re", "'d", "'m", "'x", "'", // contractions and near misses
  '\ud800', '\udc00', // lone surrogates
  '<|endoftext|>', 'http://example.com/a?b=1', 'don\'t', "it's", '  \n  ', ' \n\n ', '\n \n',
];

function randomText(random: () => number, pieces: number): string {
  let text = '';
  for (let i = 0; i < pieces; i++) text += PIECES[Math.floor(random() * PIECES.length)];
  return text;
}

function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 4294967296;
  };
}

describe('token counts', () => {
  it('cuts text where the cl100k pattern cuts it', () => {
    const random = seeded(42);
    for (let i = 0; i < 5000; i++) {
      const text = randomText(random, 1 + Math.floor(random() * 30));
      expect(scannerCuts(text), JSON.stringify(text)).toEqual(regexCuts(text));
    }
  });

  it('counts what gpt-tokenizer counts', () => {
    const random = seeded(7);
    for (let i = 0; i < 2000; i++) {
      const text = randomText(random, 1 + Math.floor(random() * 40));
      expect(countTokens(text), JSON.stringify(text)).toBe(countTokensByRegex(text));
    }
    const prose = 'The quick brown fox jumps over the lazy dog. It\'s 2024, and we\'ll see: 1,234.56 € — “quoted”.\n\n  Indented\tline\r\n';
    expect(countTokens(prose)).toBe(countTokensByRegex(prose));
    expect(countTokens('')).toBe(0);
    expect(countTokens('<|endoftext|>')).toBe(countTokensByRegex('<|endoftext|>'));
  });

  it('merges words it has never seen as gpt-tokenizer does (made-up ASCII words, identifiers, numbers)', () => {
    const random = seeded(99);
    const ascii = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-.:/';
    for (let i = 0; i < 3000; i++) {
      const length = 1 + Math.floor(random() * 24);
      let word = random() < 0.5 ? ' ' : '';
      for (let k = 0; k < length; k++) word += ascii[Math.floor(random() * (random() < 0.8 ? 26 : ascii.length))];
      expect(countTokens(word), JSON.stringify(word)).toBe(countTokensByRegex(word));
    }
  });

  it('counts long words as gpt-tokenizer does: ASCII, accented, CJK, emoji, mixed scripts, invisible characters', () => {
    const random = seeded(314);
    const drawn = (units: readonly string[], length: number) => Array.from({ length }, () => units[Math.floor(random() * units.length)]!).join('');
    const words = [
      'x'.repeat(3000),
      ` ${'ab'.repeat(1500)}`,
      drawn([...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ'], 3000),
      drawn([...'éèàüößçñåøæœ'], 2000),
      'é'.repeat(2000),
      drawn([...'中文字日本語漢字한국어ひらがなカタカナ'], 1500),
      drawn(['😀', '👍🏽', '🎉', '❤️', '🇫🇷', '👨‍👩‍👧', '…', '—'], 600),
      drawn([...'aжΩ中ひاक', 'é', '𝐀', '𝑥'], 2000),
      drawn(['a', 'é', 'ж', '中', '\u200b', '\u200c', '\u200d', '\u2060', '\ufeff', '\u00ad', '\u0301', '\u0316'], 3000),
      drawn(['\u0301', '\u0316', '\u200b', '\u200d', '\ufe0f', '\ud800', '\udc00'], 1500),
      // gpt-tokenizer reads a candidate starting with a byte-order mark as the text after it.
      '\ufeffusing', '\ufeffnamespace', `\ufeff${'x'.repeat(2000)}`, `\ufeff\ufeff${drawn([...'éa中'], 500)}`, '\ufeff//', '\ufeff',
    ];
    for (const word of words) expect(countTokens(word), JSON.stringify(word.slice(0, 40))).toBe(countTokensByRegex(word));
  });

  it('counts two texts joined from their own counts and a look at the join, or says it cannot', () => {
    const random = seeded(2024);
    let counted = 0;
    for (let i = 0; i < 20000; i++) {
      const previous = randomText(random, 1 + Math.floor(random() * 12));
      const next = randomText(random, 1 + Math.floor(random() * 12));
      const joiner = ['', ' ', '\n', '\n\n'][Math.floor(random() * 4)]!;
      const added = tokensAddedByJoin(countText(previous), joiner, countText(next));
      if (added === undefined) continue;
      counted++;
      const label = JSON.stringify([previous, joiner, next]);
      expect(countTokens(previous) + countTokens(next) + added, label).toBe(countTokensByRegex(previous + joiner + next));
    }
    // Most joins are counted this way; the rest (a next text of one pre-token, say) are counted whole.
    expect(counted).toBeGreaterThan(10000);
  });

  it('counts sentences joined as a chunk joins them', () => {
    const sentences = ['The quick brown fox jumps.', 'It\'s 2024!', '“Quoted” text…', 'x', '--force-with-lease', '  indented code();', 'https://example.com/a?b=1.', '中文句子。', '1,234.56 €'];
    for (const previous of sentences) {
      for (const next of sentences) {
        for (const joiner of [' ', '\n', '\n\n']) {
          const added = tokensAddedByJoin(countText(previous), joiner, countText(next));
          if (added !== undefined) expect(countTokens(previous) + countTokens(next) + added).toBe(countTokens(previous + joiner + next));
        }
      }
    }
  });

  it('counts a chain of pieces from their counts and their joins, as a chunk is counted', () => {
    const random = seeded(77);
    const joiners: Piece['joiner'][] = ['', ' ', '\n', '\n\n'];
    let counted = 0;
    for (let i = 0; i < 5000; i++) {
      const pieces: Piece[] = Array.from({ length: 2 + Math.floor(random() * 6) }, () => {
        const text = randomText(random, 1 + Math.floor(random() * 8));
        const piece = countText(text);
        return { text, tokens: piece.tokens, counted: piece, joiner: joiners[Math.floor(random() * joiners.length)]!, page: undefined };
      });
      const total = joinedCount(pieces);
      if (total === undefined) continue;
      counted++;
      const text = joinPieces(pieces);
      expect(total, JSON.stringify(text)).toBe(countTokensByRegex(text));
    }
    expect(counted).toBeGreaterThan(1000);
  });
});
