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
  /** First word of the text, of a line, or after a sentence's end or a colon. */
  sentenceStart: boolean;
}

const WORD = /[\p{L}\p{M}]+(?:['’\-][\p{L}\p{M}]+)*/gu;
const CAPITAL = /^\p{Lu}/u;
const LOWER = /\p{Ll}/u;
const SENTENCE_END = /(?:^|[.!?:;"“”'‘(\[\n>*•-])\s*$/u;

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
      sentenceStart: words.length === 0 ? true : SENTENCE_END.test(before) || before.includes('\n'),
    });
    previousEnd = end;
  }
  return words;
}
