// The words of a text with their offsets, and what the name tagger needs to know of each: its case,
// what separates it from the next word, whether it opens a sentence.

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
}

/** Letters, with inner apostrophes and hyphens ("O'Brien", "Weeks-Rivas"); a possessive "'s" is left out. */
const WORD = /[\p{L}\p{M}]+(?:(?:['’](?![sS](?![\p{L}\p{M}]))|-)[\p{L}\p{M}]+)*/gu;
const CAPITAL = /^\p{Lu}/u;
const LOWER = /\p{Ll}/u;
/** What may end the text between a sentence's last word and the next one's first: capitals after it say nothing. */
const SENTENCE_END = /[.!?"“”(\[\n>*•]\s*$/u;

export function tokenizeWords(text: string): Word[] {
  const words: Word[] = [];
  let previousEnd = 0;
  for (const match of text.matchAll(WORD)) {
    const value = match[0];
    const start = match.index;
    const end = start + value.length;
    const before = text.slice(previousEnd, start);
    words.push({
      text: value,
      lower: value.toLowerCase(),
      start,
      end,
      capitalised: CAPITAL.test(value),
      allCaps: value.length > 1 && !LOWER.test(value) && CAPITAL.test(value),
      dotAfter: text[end] === '.',
      gapBefore: before.slice(0, 3),
      sentenceStart: words.length === 0 || SENTENCE_END.test(before),
      lineStart: (words.length === 0 || before.includes('\n')) && !/[\p{L}\p{N}]/u.test(before.slice(before.lastIndexOf('\n') + 1)),
      possessive: /^['’][sS](?![\p{L}\p{M}])/u.test(text.slice(end, end + 3)),
    });
    previousEnd = end;
  }
  return words;
}
