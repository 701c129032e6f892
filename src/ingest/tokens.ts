// Token counts for chunk budgets: the cl100k_base encoding (the tokenizer of OpenAI's
// text-embedding-3 models and GPT-4), from gpt-tokenizer, which ships its ranks inside the npm
// package. Other embedding models tokenize differently; a budget in cl100k tokens is close enough
// to keep chunks under their limits with the usual margin.
//
// Counting is exact and fast. cl100k first cuts a text into pre-tokens with one regular expression,
// then encodes each pre-token alone; so a text's count is the sum of its pre-tokens' counts. The cut
// is done here by a scanner over character classes (pre-tokens.ts), several times faster than V8
// running the Unicode regular expression, and each distinct pre-token (a word with its leading
// space, a run of punctuation) is counted once and remembered: text repeats its words. A pre-token
// is merged here (cl100k-merge.ts), in O(n log n) of its length: a long word (base64, a run of one
// letter) costs what its length says. test/tokens.test.ts checks the counts against gpt-tokenizer's
// own on varied text.
import { createRequire } from 'node:module';
import { LONGEST_TOKEN, countPreToken } from './cl100k-merge.js';
import { preTokenEnd } from './pre-tokens.js';

// Text that happens to contain "<|endoftext|>" is text: counted as characters, never refused.
const AS_PLAIN_TEXT = { disallowedSpecial: new Set<string>() };

/**
 * Distinct pre-tokens remembered, a large vocabulary's words (a few MB): up to 100,000 in the newer
 * generation and as many in the older one. When the newer is full it becomes the older and the older
 * is forgotten, at once. (Forgetting the oldest entry one at a time made every new word cost more
 * once the memory was full: a Map finds its first entry by stepping over every one deleted before.)
 * A word met again in the older generation moves to the newer, so the words text keeps using stay.
 */
const GENERATION = 100_000;
let newer = new Map<string, number>();
let older = new Map<string, number>();
/**
 * Longer pre-tokens are counted each time: they are rarely met twice, and remembering one would keep
 * its text (a word of megabytes) in memory until 200,000 others came.
 */
const LONGEST_REMEMBERED = 1_000;

function remember(preToken: string, count: number): void {
  if (newer.size >= GENERATION) {
    older = newer;
    newer = new Map();
  }
  newer.set(preToken, count);
}

function preTokenCount(preToken: string): number {
  if (preToken.length > LONGEST_REMEMBERED) return countPreToken(preToken);
  let count = newer.get(preToken);
  if (count !== undefined) return count;
  count = older.get(preToken) ?? countPreToken(preToken);
  remember(preToken, count);
  return count;
}

/** The tokens of the pre-token from `start` to `end`. Every ASCII character is a token of its own: a lone one needs no lookup. */
function tokensBetween(text: string, start: number, end: number): number {
  return end - start === 1 && text.charCodeAt(start) < 0x80 ? 1 : preTokenCount(text.slice(start, end));
}

export function countTokens(text: string): number {
  const length = text.length;
  let total = 0;
  for (let start = 0; start < length; ) {
    const end = preTokenEnd(text, start, length);
    total += tokensBetween(text, start, end);
    start = end;
  }
  return total;
}

/**
 * The text's count when it is at most `limit`; otherwise a number above `limit`. A pre-token whose
 * length alone puts the count over (each token is at most 128 bytes, each UTF-16 unit at least one)
 * is not merged: a limit met by a word of megabytes costs nothing to decide.
 */
export function countTokensUpTo(text: string, limit: number): number {
  const length = text.length;
  let total = 0;
  for (let start = 0; start < length && total <= limit; ) {
    const end = preTokenEnd(text, start, length);
    const fewest = Math.ceil((end - start) / LONGEST_TOKEN);
    total += total + fewest > limit ? fewest : tokensBetween(text, start, end);
    start = end;
  }
  return total;
}

/** A text's count, with where its last pre-token starts and that pre-token's count: what joining it to another text needs. */
export interface CountedText {
  text: string;
  tokens: number;
  lastStart: number;
  lastTokens: number;
}

export function countText(text: string): CountedText {
  const length = text.length;
  let tokens = 0;
  let lastStart = 0;
  let lastTokens = 0;
  for (let start = 0; start < length; ) {
    const end = preTokenEnd(text, start, length);
    lastTokens = tokensBetween(text, start, end);
    tokens += lastTokens;
    lastStart = start;
    start = end;
  }
  return { text, tokens, lastStart, lastTokens };
}

/**
 * What joining `next` after `previous` (with `joiner` between) adds to their own counts, without
 * counting either again. The cut into pre-tokens depends only on the text from a cut on (and, for the
 * last pre-token, on where the text ends), so the joined text is cut as `previous` is up to its last
 * pre-token, and as `next` is once a cut of the joined text falls where `next` alone has one. Only
 * that stretch is cut again. Undefined when the cuts meet only within `next`'s last pre-token (a
 * short piece): a stretch that could reach the next join, so the caller counts the whole text.
 */
export function tokensAddedByJoin(previous: CountedText, joiner: string, next: CountedText): number | undefined {
  const tail = previous.text.slice(previous.lastStart);
  const offset = tail.length + joiner.length;
  const joined = tail + joiner + next.text;
  const length = joined.length;
  const nextLength = next.text.length;
  let counted = 0;
  let nextCut = 0;
  let nextCounted = 0;
  for (let start = 0; start < length; ) {
    const end = preTokenEnd(joined, start, length);
    counted += tokensBetween(joined, start, end);
    start = end;
    if (start < offset) continue;
    const inNext = start - offset;
    while (nextCut < inNext) {
      const cutEnd = preTokenEnd(next.text, nextCut, nextLength);
      nextCounted += tokensBetween(next.text, nextCut, cutEnd);
      nextCut = cutEnd;
    }
    if (nextCut === inNext) return inNext <= next.lastStart ? counted - previous.lastTokens - nextCounted : undefined;
  }
  return undefined;
}

/**
 * The count gpt-tokenizer gives, without the scanner or the memory of pre-tokens (for tests and
 * measurements). Its encoder (some 20 MB) is loaded on the first call only.
 */
export function countTokensByRegex(text: string): number {
  const encoder = createRequire(import.meta.url)('gpt-tokenizer/encoding/cl100k_base') as typeof import('gpt-tokenizer/encoding/cl100k_base');
  return encoder.countTokens(text, AS_PLAIN_TEXT);
}
