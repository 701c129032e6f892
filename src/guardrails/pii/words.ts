// The words of a text with their offsets, and what the name tagger needs to know of each: its case,
// what separates it from the next word, whether it opens a sentence. Built for speed: one regular
// expression pass, then character tests (a 10 KB text has some 1,800 words).
import type { WordClasses } from './lexicon.js';

export interface Word {
  text: string;
  lower: string;
  start: number;
  end: number;
  /** Starts with a capital letter (of any script: "Šárka", "ΠΑΦΟΣ"). */
  capitalised: boolean;
  /** Two letters or more, none lower case: "LONDON", "ATM". */
  allCaps: boolean;
  /** Followed by a period ("Mr.", "J.", or the end of a sentence). */
  dotAfter: boolean;
  /** What separates the word from the one before (" ", ". ", ", "…), cut to three characters. */
  gapBefore: string;
  /** First word of the text, of a line, or after a sentence's end or an opening quote. */
  sentenceStart: boolean;
  /** First word of its line. */
  lineStart: boolean;
  /** Followed by a possessive "'s". */
  possessive: boolean;
  /** What the lexicon says of the word, once looked up (undefined: not yet; null: unknown word). */
  classes?: WordClasses | null;
}

/** Letters, with inner apostrophes and hyphens ("O'Brien", "Weeks-Rivas"); a possessive "'s" is left out. */
const WORD = /[\p{L}\p{M}]+(?:(?:['’](?![sS](?![\p{L}\p{M}]))|-)[\p{L}\p{M}]+)*/gu;
/** What may end the text between a sentence's last word and the next one's first: capitals after it say nothing. */
const SENTENCE_END = /[.!?"“”(\[\n>*•]\s*$/u;
const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;
const POSSESSIVE_AFTER = /^['’][sS](?![\p{L}\p{M}])/u;

export function tokenizeWords(text: string): Word[] {
  const words: Word[] = [];
  let previousEnd = 0;
  for (const match of text.matchAll(WORD)) {
    const value = match[0];
    const start = match.index;
    const end = start + value.length;
    const first = words.length === 0;
    // Most words are parted by one space: the tests on the gap are made only when it is something else.
    const plainGap = !first && start - previousEnd === 1 && text.charCodeAt(previousEnd) === 32;
    const before = plainGap ? ' ' : text.slice(previousEnd, start);
    const lower = value.toLowerCase();
    const upper = value.toUpperCase();
    const capitalised = value[0] !== lower[0] && value[0] === upper[0];
    const next = text.charCodeAt(end);
    words.push({
      text: value,
      lower,
      start,
      end,
      capitalised,
      allCaps: capitalised && value.length > 1 && value === upper,
      dotAfter: next === 46,
      gapBefore: before.slice(0, 3),
      sentenceStart: first || (!plainGap && SENTENCE_END.test(before)),
      lineStart: !plainGap && (first || before.includes('\n')) && !LETTER_OR_DIGIT.test(before.slice(before.lastIndexOf('\n') + 1)),
      possessive: (next === 39 || next === 0x2019) && POSSESSIVE_AFTER.test(text.slice(end, end + 3)),
    });
    previousEnd = end;
  }
  return words;
}
