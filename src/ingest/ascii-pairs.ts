// Byte-pair merging of a pre-token written in ASCII, counted: the pieces of the pre-token merge,
// the pair of lowest rank first, until no two neighbours form a token, as tiktoken does. The ranks
// are cl100k's, which gpt-tokenizer ships; in ASCII a byte is a character, so pairs are looked up
// as substrings. gpt-tokenizer merges through bytes and decodes every candidate pair back to text to
// look it up, which made each word it had never seen (a name, an identifier) cost tens of µs.
import ranks from 'gpt-tokenizer/bpeRanks/cl100k_base';

const ASCII = /^[\x00-\x7f]*$/;

let asciiRanks: Map<string, number> | undefined;

/** The rank of each ASCII token, made at the first word the tokenizer has not seen (95,000 entries). */
function rankTable(): Map<string, number> {
  if (asciiRanks === undefined) {
    asciiRanks = new Map();
    ranks.forEach((token, rank) => {
      if (typeof token === 'string' && ASCII.test(token)) asciiRanks!.set(token, rank);
    });
  }
  return asciiRanks;
}

export const isAscii = (text: string) => ASCII.test(text);

/** Tokens of an ASCII pre-token (every ASCII character is a token of its own in cl100k). */
export function countAsciiPreToken(preToken: string): number {
  const table = rankTable();
  if (preToken.length <= 1 || table.has(preToken)) return preToken.length === 0 ? 0 : 1;
  // starts: where each piece begins, then the end; pairRanks[i]: rank of pieces i and i + 1 merged.
  const starts = Array.from({ length: preToken.length + 1 }, (_, i) => i);
  const pairRank = (i: number) => (i + 2 < starts.length ? (table.get(preToken.slice(starts[i]!, starts[i + 2]!)) ?? Infinity) : Infinity);
  const pairRanks = Array.from({ length: preToken.length - 1 }, (_, i) => pairRank(i));
  for (;;) {
    let lowest = Infinity;
    let at = -1;
    for (let i = 0; i < pairRanks.length; i++) {
      if (pairRanks[i]! < lowest) {
        lowest = pairRanks[i]!;
        at = i;
      }
    }
    if (at < 0) return starts.length - 1;
    starts.splice(at + 1, 1);
    pairRanks.splice(at, 1);
    if (at < pairRanks.length) pairRanks[at] = pairRank(at);
    if (at > 0) pairRanks[at - 1] = pairRank(at - 1);
  }
}
