// Token counts for chunk budgets: the cl100k_base encoding (the tokenizer of OpenAI's
// text-embedding-3 models and GPT-4), from gpt-tokenizer, which ships its ranks inside the npm
// package. Other embedding models tokenize differently; a budget in cl100k tokens is close enough
// to keep chunks under their limits with the usual margin.
//
// Counting is exact and fast. cl100k first cuts a text into pre-tokens with one regular expression,
// then encodes each pre-token alone; so a text's count is the sum of its pre-tokens' counts. The cut
// is done here by a scanner over character classes (pre-tokens.ts), several times faster than V8
// running the Unicode regular expression, and each distinct pre-token (a word with its leading
// space, a run of punctuation) is counted once and remembered: text repeats its words. An ASCII
// pre-token is merged here (ascii-pairs.ts), any other by gpt-tokenizer. test/tokens.test.ts
// checks the counts against gpt-tokenizer's own on varied text.
import { countTokens as countCl100kTokens } from 'gpt-tokenizer/encoding/cl100k_base';
import { countAsciiPreToken, isAscii } from './ascii-pairs.js';
import { preTokenEnd } from './pre-tokens.js';

// Text that happens to contain "<|endoftext|>" is text: counted as characters, never refused.
const AS_PLAIN_TEXT = { disallowedSpecial: new Set<string>() };

/** Distinct pre-tokens remembered: a large vocabulary's words, a few MB. The oldest go first. */
const REMEMBERED = 200_000;
const counted = new Map<string, number>();

function preTokenCount(preToken: string): number {
  let count = counted.get(preToken);
  if (count === undefined) {
    count = isAscii(preToken) ? countAsciiPreToken(preToken) : countCl100kTokens(preToken, AS_PLAIN_TEXT);
    if (counted.size >= REMEMBERED) counted.delete(counted.keys().next().value!);
    counted.set(preToken, count);
  }
  return count;
}

export function countTokens(text: string): number {
  const length = text.length;
  let total = 0;
  for (let start = 0; start < length; ) {
    const end = preTokenEnd(text, start, length);
    // Every ASCII character is a token of its own: a lone one needs no lookup.
    total += end - start === 1 && text.charCodeAt(start) < 0x80 ? 1 : preTokenCount(text.slice(start, end));
    start = end;
  }
  return total;
}

/** The count gpt-tokenizer gives, without the scanner or the memory of pre-tokens (for tests and measurements). */
export function countTokensByRegex(text: string): number {
  return countCl100kTokens(text, AS_PLAIN_TEXT);
}
