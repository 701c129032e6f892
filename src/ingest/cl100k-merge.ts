// A pre-token's count under cl100k: its UTF-8 bytes merged by cl100k's ranks (byte-pair-merge.ts),
// with the ranks gpt-tokenizer ships. In ASCII a byte is a character, so an ASCII pre-token's pairs
// are looked up as substrings, in a table of the ASCII tokens made at the first word not seen before
// (95,000 entries). Any other pre-token is merged on its bytes, one character per byte, in a table of
// the other tokens made at the first such pre-token (5,000 entries): gpt-tokenizer stores those as
// text, or as arrays of bytes when they are not valid UTF-8 on their own.
//
// Counts stay equal to gpt-tokenizer's, quirk included: it looks a candidate up as text when its bytes
// are valid UTF-8, and decoding drops a leading byte-order mark (EF BB BF), so it never finds the 8
// tokens that start with one ("\ufeffusing"); they are left out here too.
import { isUtf8 } from 'node:buffer';
import { createRequire } from 'node:module';
import { countMergedTokens, type MergeWork } from './byte-pair-merge.js';

const ASCII = /^[\x00-\x7f]*$/;
/** A lone surrogate: gpt-tokenizer finds no whole pre-token holding one in its table of texts. */
const LONE_SURROGATE = /\p{Cs}/u;
/** cl100k's longest token, in bytes: a longer candidate needs no lookup. */
export const LONGEST_TOKEN = 128;

/** cl100k's ranks (some 10 MB once loaded), read when the first pre-token is counted, not at start. */
let ranks: (string | number[])[] | undefined;
function cl100kRanks(): (string | number[])[] {
  ranks ??= (createRequire(import.meta.url)('gpt-tokenizer/bpeRanks/cl100k_base') as { default: (string | number[])[] }).default;
  return ranks;
}

let asciiRanks: Map<string, number> | undefined;
let otherRanks: Map<string, number> | undefined;

function asciiTable(): Map<string, number> {
  if (asciiRanks === undefined) {
    asciiRanks = new Map();
    cl100kRanks().forEach((token, rank) => {
      if (typeof token === 'string' && ASCII.test(token)) asciiRanks!.set(token, rank);
    });
  }
  return asciiRanks;
}

/** The tokens that are not all ASCII, by their bytes (one character per byte). */
function otherTable(): Map<string, number> {
  if (otherRanks === undefined) {
    otherRanks = new Map();
    cl100kRanks().forEach((token, rank) => {
      if (typeof token === 'string') {
        if (!ASCII.test(token)) otherRanks!.set(Buffer.from(token, 'utf8').toString('latin1'), rank);
        return;
      }
      const bytes = Buffer.from(token);
      // Stored as bytes yet valid UTF-8: the tokens that start with a byte-order mark (above).
      if (!isUtf8(bytes)) otherRanks!.set(bytes.toString('latin1'), rank);
    });
  }
  return otherRanks;
}

const asciiRank = (bytes: string) => (bytes.length > LONGEST_TOKEN ? undefined : asciiRanks!.get(bytes));

/** The rank of a candidate in a pre-token that is not all ASCII; the candidate itself may be ASCII ("na" in "naïve"). */
const byteRank = (bytes: string) => (bytes.length > LONGEST_TOKEN ? undefined : (otherRanks!.get(bytes) ?? asciiRanks!.get(bytes)));

/** Tokens of one pre-token (its text as cl100k's pattern cuts it); `work` counts the merge's steps. */
export function countPreToken(preToken: string, work?: MergeWork): number {
  const ascii = asciiTable();
  if (ASCII.test(preToken)) {
    if (preToken.length <= 1) return preToken.length;
    if (ascii.has(preToken)) return 1;
    return countMergedTokens(preToken, asciiRank, work);
  }
  const other = otherTable();
  const bytes = Buffer.from(preToken, 'utf8').toString('latin1');
  if (!LONE_SURROGATE.test(preToken) && other.has(bytes)) return 1;
  return countMergedTokens(bytes, byteRank, work);
}
