// What blocked terms, topic keywords and patterns match on: the reading of the text every detector
// shares (reading-form.ts: compatibility forms, digits of every script, dashes, look-alike letters,
// invisible characters and marks, white space), read further for each, one code point at a time, so
// that a stream is folded as it arrives (folded-text.ts keeps the offsets back to the original).
//
// - `foldForTerms` (blocked terms, topic keywords): line breaks read as spaces, case folded, accents
//   removed (NFKD, marks dropped), then the Unicode confusables table (UTS #39 skeletons, from the
//   `unhomoglyph` package): '0' reads as 'o', '1' as 'l', 'ы' as 'bl'; capitals read as capitals ('Υ'
//   as 'Y'), and a small letter without a Latin look-alike through its capital. A mapping that would
//   turn a letter into punctuation or the reverse is left out, so that word boundaries stay where a
//   reader sees them; so is 'm' → 'rn', which would make "burn" match "bum".
// - `foldForPatterns` (regular expressions): the shared reading with line breaks as spaces, nothing
//   else, so that `\d` finds digits of every script as ASCII and a pattern reads letters as written,
//   look-alikes read as the Latin letters they show.
import { createRequire } from 'node:module';
import { FoldedText } from './folded-text.js';
import { isBlank, isWordAt, isWordCharacter, readingForm, remembered, SPACE, type CodePointReading } from './reading-form.js';

const confusables = createRequire(import.meta.url)('unhomoglyph/data.json') as Record<string, string>;

const INVISIBLE = /\p{Default_Ignorable_Code_Point}/gu;
const MARKS = /[\p{Mn}\p{Me}]/gu;
export { isWordAt, isWordCharacter };

function caseFold(text: string): string {
  // Upper then lower case is full case folding but for a handful of letters: ß → SS → ss, ς → Σ → σ.
  return text.toUpperCase().toLowerCase();
}

function stripped(text: string): string {
  return text.normalize('NFKD').replace(MARKS, '').replace(INVISIBLE, '');
}

const SKIPPED_CONFUSABLES = new Set(['m']);

/** The confusables table folded the same way, without the mappings that would move a word boundary. */
const SKELETONS = new Map<string, string>();
for (const [source, target] of Object.entries(confusables)) {
  if (SKIPPED_CONFUSABLES.has(source)) continue;
  const folded = stripped(caseFold(target));
  if (folded === '' || folded === source) continue;
  const sourceIsWord = isWordCharacter(source);
  if ([...folded].every((char) => isWordCharacter(char) === sourceIsWord)) SKELETONS.set(source, folded);
}

function skeleton(text: string): string {
  let out = '';
  for (const char of text) out += SKELETONS.get(char) ?? char;
  return out;
}

const ASCII = /^[\x00-\x7f]*$/;

function foldTermCodePoint(codePoint: number): string {
  const base = stripped(String.fromCodePoint(codePoint));
  const viaLower = stripped(caseFold(skeleton(stripped(caseFold(base)))));
  if (ASCII.test(base)) return viaLower;
  // The table is case-sensitive: Greek 'Υ' reads as 'Y' but 'υ' as 'u', Cyrillic 'К' as 'K' but 'к' as
  // 'ĸ'. A capital is read as a capital; a small letter without a Latin look-alike, through its capital.
  // Capital I and small l share a skeleton; with case folded, a capital of that shape is an i.
  const viaUpper = () => {
    const upper = skeleton(stripped(base.toUpperCase()));
    return upper === 'l' ? 'i' : stripped(caseFold(upper));
  };
  if (base !== base.toLowerCase()) {
    const read = viaUpper();
    if (ASCII.test(read)) return read;
  }
  if (ASCII.test(viaLower)) return viaLower;
  const read = viaUpper();
  return ASCII.test(read) ? read : viaLower;
}

/** Each character of a code point's shared reading read again by `fold`; white space as one space. */
function onReading(fold: (codePoint: number) => string): CodePointReading {
  return (codePoint) => {
    const read = readingForm(codePoint);
    if (isBlank(read)) return SPACE;
    let out = '';
    for (const char of read) out += fold(char.codePointAt(0)!);
    return out;
  };
}

export type CodePointFolding = CodePointReading;

export const foldForTerms = remembered(onReading(foldTermCodePoint));
export const foldForPatterns = remembered(onReading((codePoint) => String.fromCodePoint(codePoint)));

/** A whole string folded (terms and keywords of a configuration), white-space runs collapsed as in a text. */
export function foldString(text: string, fold: CodePointFolding): string {
  const folded = new FoldedText(fold);
  folded.append(text);
  folded.finish();
  return folded.text;
}

