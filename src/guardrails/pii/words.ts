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
const WORD = /[\p{L}\p{M}]+(?:(?:['’](?![sS](?![\p{L}\p{M}]))|-)[\p{L}\p{M}]+)*/uy;
/** A letter or mark at lastIndex: where a word starts (the first unit WORD can match from). */
const LETTER_AT = /[\p{L}\p{M}]/uy;
/** What may end the text between a sentence's last word and the next one's first: capitals after it say nothing. */
const SENTENCE_END = /[.!?"“”(\[\n>*•]\s*$/u;
const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;
const POSSESSIVE_AFTER = /^['’][sS](?![\p{L}\p{M}])/u;

/** Where the next word starts at or after `from`, or -1: ASCII is told by its code, other units by LETTER_AT. */
function nextWordStart(text: string, from: number): number {
  for (let at = from; at < text.length; at++) {
    const code = text.charCodeAt(at);
    if (code < 0x80) {
      if ((code | 0x20) >= 0x61 && (code | 0x20) <= 0x7a) return at;
      continue;
    }
    LETTER_AT.lastIndex = at;
    if (LETTER_AT.test(text)) return at;
  }
  return -1;
}

/** Whether `value` has no letter that upper-casing would change ("LONDON", "ATM"; not "London"). */
function hasNoLowerCase(value: string): boolean {
  for (let at = 0; at < value.length; at++) {
    const code = value.charCodeAt(at);
    if (code >= 0x80) return value === value.toUpperCase();
    if (code >= 0x61 && code <= 0x7a) return false;
  }
  return true;
}

/**
 * One sticky expression tried where each word starts, its end read from lastIndex: no match arrays, and
 * the case of a word told from its first unit (10 KB of text has some 1,800 words, read for every
 * guardrail application: what is allocated per word is what the garbage collector pays for).
 */
export function tokenizeWords(text: string): Word[] {
  const words: Word[] = [];
  let previousEnd = 0;
  for (let start = nextWordStart(text, 0); start >= 0; start = nextWordStart(text, previousEnd)) {
    WORD.lastIndex = start;
    WORD.test(text);
    const end = WORD.lastIndex;
    const value = text.slice(start, end);
    const first = words.length === 0;
    // Most words are parted by one space: the tests on the gap are made only when it is something else.
    const plainGap = !first && start - previousEnd === 1 && text.charCodeAt(previousEnd) === 32;
    const before = plainGap ? ' ' : text.slice(previousEnd, start);
    const lower = value.toLowerCase();
    const initial = value.charCodeAt(0);
    const capitalised = initial < 0x80 ? initial <= 0x5a : value[0] !== lower[0] && value[0] === value[0]!.toUpperCase();
    const next = text.charCodeAt(end);
    words.push({
      text: value,
      lower,
      start,
      end,
      capitalised,
      allCaps: capitalised && value.length > 1 && hasNoLowerCase(value),
      dotAfter: next === 46,
      gapBefore: plainGap ? ' ' : before.slice(0, 3),
      sentenceStart: first || (!plainGap && SENTENCE_END.test(before)),
      lineStart: !plainGap && (first || before.includes('\n')) && !LETTER_OR_DIGIT.test(before.slice(before.lastIndexOf('\n') + 1)),
      possessive: (next === 39 || next === 0x2019) && POSSESSIVE_AFTER.test(text.slice(end, end + 3)),
    });
    previousEnd = end;
  }
  return words;
}
