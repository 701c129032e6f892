// cl100k's pre-tokenizer as a scanner: the text cut where gpt-tokenizer's regular expression
//
//   '(?:[sS]|[dD]|[mM]|[tT]|[lL][lL]|[vV][eE]|[rR][eE])|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}|
//    ?[^\s\p{L}\p{N}]+[\r\n]*|\s+$|\s*[\r\n]|\s+(?!\S)|\s
//
// cuts it (flags g and u), alternative by alternative in the same order, over code points sorted
// into letters (\p{L}), numbers (\p{N}), white space (\s, line breaks apart) and the rest. V8 runs
// that expression at a few MB/s; this runs several times faster, and test/tokens.test.ts checks
// that both cut varied text (every class, surrogate pairs and lone ones) in the same places.

const OTHER = 1;
const LETTER = 2;
const NUMBER = 3;
const SPACE = 4;
/** \r or \n: white space that some alternatives treat apart. */
const NEWLINE = 5;

const IS_LETTER = /^\p{L}$/u;
const IS_NUMBER = /^\p{N}$/u;
const IS_SPACE = /^\s$/u;

function classify(codePoint: number): number {
  if (codePoint === 0x0a || codePoint === 0x0d) return NEWLINE;
  const char = String.fromCodePoint(codePoint);
  if (IS_LETTER.test(char)) return LETTER;
  if (IS_NUMBER.test(char)) return NUMBER;
  return IS_SPACE.test(char) ? SPACE : OTHER;
}

/** Classes of the Basic Multilingual Plane, filled as characters are met (0: not yet known). */
const BMP_CLASSES = new Uint8Array(0x10000);
for (let code = 0; code < 0x80; code++) BMP_CLASSES[code] = classify(code);
const ASTRAL_CLASSES = new Map<number, number>();

const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff;
const isLowSurrogate = (code: number) => code >= 0xdc00 && code <= 0xdfff;

/** Code units of the code point at i: 2 for a surrogate pair, else 1 (a lone surrogate is one code point). */
function widthAt(text: string, i: number): number {
  return isHighSurrogate(text.charCodeAt(i)) && isLowSurrogate(text.charCodeAt(i + 1)) ? 2 : 1;
}

function classAt(text: string, i: number): number {
  const code = text.charCodeAt(i);
  if (code < 0x80) return BMP_CLASSES[code]!;
  let known = BMP_CLASSES[code]!;
  if (known !== 0) {
    // A high surrogate's class (OTHER when lone) holds only when no low surrogate follows it.
    if (!isHighSurrogate(code) || !isLowSurrogate(text.charCodeAt(i + 1))) return known;
  } else if (!isHighSurrogate(code) || !isLowSurrogate(text.charCodeAt(i + 1))) {
    known = classify(code);
    BMP_CLASSES[code] = known;
    return known;
  }
  const codePoint = text.codePointAt(i)!;
  let astral = ASTRAL_CLASSES.get(codePoint);
  if (astral === undefined) {
    astral = classify(codePoint);
    ASTRAL_CLASSES.set(codePoint, astral);
  }
  return astral;
}

/** The end of the run of code points of one class starting at i. */
function runEnd(text: string, i: number, length: number, kind: number): number {
  while (i < length) {
    const code = text.charCodeAt(i);
    if (code < 0x80) {
      if (BMP_CLASSES[code] !== kind) break;
      i++;
    } else {
      if (classAt(text, i) !== kind) break;
      i += widthAt(text, i);
    }
  }
  return i;
}

const lower = (code: number) => code | 0x20;
const S = 0x73;
const D = 0x64;
const M = 0x6d;
const T = 0x74;
const L = 0x6c;
const V = 0x76;
const E = 0x65;
const R = 0x72;

/** The end of a contraction suffix ('s 'd 'm 't 'll 've 're, any case) at i, or -1. */
function contractionEnd(text: string, i: number): number {
  const next = lower(text.charCodeAt(i + 1));
  if (next === S || next === D || next === M || next === T) return i + 2;
  const after = lower(text.charCodeAt(i + 2));
  if ((next === L && after === L) || (next === V && after === E) || (next === R && after === E)) return i + 3;
  return -1;
}

/** The end (exclusive) of the pre-token that starts at i; `length` is the text's. */
export function preTokenEnd(text: string, i: number, length: number): number {
  const code = text.charCodeAt(i);
  if (code === 0x27) {
    const end = contractionEnd(text, i);
    if (end > 0) return end;
  }
  const kind = classAt(text, i);
  const width = widthAt(text, i);
  // [^\r\n\p{L}\p{N}]?\p{L}+
  if (kind === LETTER) return runEnd(text, i + width, length, LETTER);
  if (kind !== NEWLINE && kind !== NUMBER && i + width < length && classAt(text, i + width) === LETTER) {
    return runEnd(text, i + width, length, LETTER);
  }
  // \p{N}{1,3}
  if (kind === NUMBER) {
    let end = i + width;
    for (let digits = 1; digits < 3 && end < length && classAt(text, end) === NUMBER; digits++) end += widthAt(text, end);
    return end;
  }
  //  ?[^\s\p{L}\p{N}]+[\r\n]*
  let others = -1;
  if (kind === OTHER) others = i;
  else if (code === 0x20 && i + 1 < length && classAt(text, i + 1) === OTHER) others = i + 1;
  if (others >= 0) {
    let end = runEnd(text, others, length, OTHER);
    while (end < length && (text.charCodeAt(end) === 0x0a || text.charCodeAt(end) === 0x0d)) end++;
    return end;
  }
  // White space (every \s is one code unit): \s+$ | \s*[\r\n] | \s+(?!\S) | \s
  let end = i;
  let lastNewline = -1;
  for (; end < length; end++) {
    const next = classAt(text, end);
    if (next === NEWLINE) lastNewline = end;
    else if (next !== SPACE) break;
  }
  if (end === length) return length;
  if (lastNewline >= 0) return lastNewline + 1;
  return end - i >= 2 ? end - 1 : i + 1;
}

/** Calls `visit` with the start and end (exclusive) of each pre-token of the text, in order. */
export function forEachPreToken(text: string, visit: (start: number, end: number) => void): void {
  const length = text.length;
  let start = 0;
  while (start < length) {
    const end = preTokenEnd(text, start, length);
    visit(start, end);
    start = end;
  }
}
