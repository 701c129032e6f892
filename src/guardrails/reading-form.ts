// How a person reads one code point: the normalisation every guardrail detector matches on (PII,
// blocked terms and patterns, topics), so that a value written with look-alike or invisible characters
// is read as the value it shows. One code point at a time, which is what lets a stream be read as it
// arrives (folded-text.ts joins the pieces, collapses runs of white space and maps offsets back):
//
// - white space of every kind (NBSP, thin and other typographic spaces, the braille blank, the
//   ideographic space, tabs) reads as ' ', a line break (LF, CR, VT, FF, NEL, U+2028, U+2029) as '\n';
// - invisible characters read as nothing: format characters (Cf: zero-width spaces and joiners, bidi
//   embeddings, overrides and isolates, soft hyphen, word joiner, BOM, tags), every other
//   Default_Ignorable_Code_Point (variation selectors, fillers), controls, and combining marks
//   (Mn, Me: U+0336 strike-through, accents written apart from their letter);
// - compatibility forms read as their plain form (NFKC): fullwidth `＠１Ａ`, ligatures, circled and
//   squared letters and digits `Ⓐ①🄰`, superscripts, mathematical alphabets; regional indicators `🇦`
//   and negative circled or squared letters `🅐🅰` read as capitals;
// - decimal digits of every script (Arabic-Indic, Devanagari, Thai…) read as ASCII digits;
// - dashes (every Pd character, the minus sign) read as '-';
// - a non-ASCII letter that looks like one Latin letter reads as that letter, its case kept (Cyrillic
//   'Е' as 'E', 'к' as 'k', Greek 'ο' as 'o'; from the Unicode confusables table, package
//   `unhomoglyph`). Digits are never read as letters here (PII needs them), nor letters as digits.
import { createRequire } from 'node:module';

const confusables = createRequire(import.meta.url)('unhomoglyph/data.json') as Record<string, string>;

export const SPACE = ' ';
export const LINE_BREAK = '\n';

const LINE_BREAKS = new Set([0x0a, 0x0b, 0x0c, 0x0d, 0x85, 0x2028, 0x2029]);
/** Blank characters that are not in \s: the braille pattern blank, drawn as an empty cell. */
const OTHER_BLANKS = new Set([0x2800]);
const WHITE_SPACE = /^\s$/u;
/** U+FEFF is in \s but is a zero-width no-break space: invisible, not a gap. */
const INVISIBLE = /^[\p{Cf}\p{Cc}\p{Default_Ignorable_Code_Point}\p{Mn}\p{Me}]$/u;
const DECIMAL_DIGIT = /^\p{Nd}$/u;
const DASH = /^[\p{Pd}\u2212]$/u;
const LETTER = /^\p{L}$/u;
const MARKS = /[\p{Mn}\p{Me}]/gu;
const ASCII_LETTER = /^[A-Za-z]$/;

function isInvisible(char: string): boolean {
  return INVISIBLE.test(char);
}

/**
 * The value of a decimal digit of any script: Unicode puts every script's digits in runs of ten
 * from zero to nine, so the value is the distance from the start of its run, modulo ten (runs of
 * mathematical digits follow each other).
 */
function digitValue(codePoint: number): number {
  let zero = codePoint;
  while (zero > 0 && DECIMAL_DIGIT.test(String.fromCodePoint(zero - 1))) zero--;
  return (codePoint - zero) % 10;
}

/** Letters drawn in a shape with no compatibility decomposition: regional indicators, negative circled and squared capitals. */
function pictureLetter(codePoint: number): string | undefined {
  for (const first of [0x1f1e6, 0x1f150, 0x1f170]) {
    if (codePoint >= first && codePoint < first + 26) return String.fromCharCode(0x41 + codePoint - first);
  }
  return undefined;
}

/** The Latin letter a non-ASCII letter looks like, its case kept; the letter itself when it looks like none. */
function latinLookAlike(letter: string): string {
  const direct = confusables[letter]?.normalize('NFKD').replace(MARKS, '');
  const upper = letter !== letter.toLowerCase();
  if (direct !== undefined && ASCII_LETTER.test(direct)) return upper && direct === 'l' ? 'I' : direct;
  // A small letter without a Latin look-alike of its own reads through its capital ('к' through 'К').
  if (!upper) {
    const capital = letter.toUpperCase();
    const throughCapital = [...capital].length === 1 ? confusables[capital]?.normalize('NFKD').replace(MARKS, '') : undefined;
    if (throughCapital !== undefined && ASCII_LETTER.test(throughCapital) && throughCapital !== 'l') return throughCapital.toLowerCase();
  }
  return letter;
}

function readChar(char: string): string {
  const codePoint = char.codePointAt(0)!;
  if (codePoint < 0x80) return char;
  if (DECIMAL_DIGIT.test(char)) return String(digitValue(codePoint));
  if (DASH.test(char)) return '-';
  if (LETTER.test(char)) return latinLookAlike(char);
  return char;
}

function readCodePoint(codePoint: number): string {
  if (LINE_BREAKS.has(codePoint)) return LINE_BREAK;
  const char = String.fromCodePoint(codePoint);
  if (codePoint !== 0xfeff && (WHITE_SPACE.test(char) || OTHER_BLANKS.has(codePoint))) return SPACE;
  if (isInvisible(char)) return '';
  const picture = pictureLetter(codePoint);
  if (picture !== undefined) return picture;
  const compatible = char.normalize('NFKC');
  // Spacing accents decompose into a space and a mark ('´' → ' ́'): they stay what they are.
  const plain = compatible.startsWith(' ') ? char : compatible;
  let out = '';
  for (const part of plain) out += isInvisible(part) ? '' : readChar(part);
  return out;
}

/** How a code point reads: '' for an invisible one, ' ' or '\n' for white space. */
export type CodePointReading = (codePoint: number) => string;

/** Readings of code points are remembered: text repeats its characters. ASCII is computed up front. */
export function remembered(read: CodePointReading): CodePointReading {
  const ascii = Array.from({ length: 128 }, (_, codePoint) => read(codePoint));
  const others = new Map<number, string>();
  return (codePoint) => {
    if (codePoint < 128) return ascii[codePoint]!;
    let reading = others.get(codePoint);
    if (reading === undefined) {
      if (others.size >= 50_000) others.clear();
      reading = read(codePoint);
      others.set(codePoint, reading);
    }
    return reading;
  };
}

/** The reading every detector starts from (PII reads it as it is). */
export const readingForm = remembered(readCodePoint);

const WORD = /^[\p{L}\p{N}\p{M}]$/u;

/** Letters, digits and marks make words; everything else separates them. */
export function isWordCharacter(char: string): boolean {
  return WORD.test(char);
}

/** Whether the code point at (or, for the second half of a pair, around) unit i of a text is a word character. */
export function isWordAt(text: string, i: number): boolean {
  const code = text.charCodeAt(i);
  if (code < 0x80) return (code >= 0x30 && code <= 0x39) || (code >= 0x61 && code <= 0x7a) || (code >= 0x41 && code <= 0x5a);
  const start = code >= 0xdc00 && code <= 0xdfff && i > 0 ? i - 1 : i;
  return isWordCharacter(String.fromCodePoint(text.codePointAt(start)!));
}

/** Whether a reading is white space, which runs collapse into one. */
export function isBlank(reading: string): boolean {
  return reading === SPACE || reading === LINE_BREAK;
}
