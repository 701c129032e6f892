// Folding text for matching, one code point at a time, with every folded character mapped back to the
// original text. Folding each code point alone (never a sequence) is what lets a stream be folded as it
// arrives: the folding of a text is the folding of its pieces joined.
//
// Two foldings:
// - `foldForTerms` (blocked terms, topic keywords): compatibility decomposition (NFKD: fullwidth
//   letters, ligatures, superscripts, mathematical alphabets), case folding, combining marks and
//   invisible characters (zero-width spaces and joiners, soft hyphens, variation selectors) removed, then
//   the Unicode confusables table (UTS #39 skeletons, from the `unhomoglyph` package: Cyrillic 'а' and
//   Greek 'ο' read as 'a' and 'o', '0' as 'o', '1' as 'l'; capitals read as capitals, 'Υ' as 'Y', and a
//   small letter without a Latin look-alike through its capital, 'к' as 'K'). A mapping that would turn a letter into
//   punctuation or the reverse is left out, so that word boundaries stay where a reader sees them;
//   so is 'm' → 'rn', which would make "burn" match "bum".
// - `foldForPatterns` (regular expressions): NFKC and invisible characters removed, nothing else, so
//   that `\d` still finds fullwidth digits and a pattern reads the text as written.
import { createRequire } from 'node:module';

const confusables = createRequire(import.meta.url)('unhomoglyph/data.json') as Record<string, string>;

const INVISIBLE = /\p{Default_Ignorable_Code_Point}/gu;
const MARKS = /[\p{Mn}\p{Me}]/gu;
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

function foldPatternCodePoint(codePoint: number): string {
  return String.fromCodePoint(codePoint).normalize('NFKC').replace(INVISIBLE, '');
}

export type CodePointFolding = (codePoint: number) => string;

/** Folds of code points are remembered: text repeats its characters. ASCII is computed up front. */
function remembered(fold: CodePointFolding): CodePointFolding {
  const ascii = Array.from({ length: 128 }, (_, codePoint) => fold(codePoint));
  const others = new Map<number, string>();
  return (codePoint) => {
    if (codePoint < 128) return ascii[codePoint]!;
    let folded = others.get(codePoint);
    if (folded === undefined) {
      if (others.size >= 50_000) others.clear();
      folded = fold(codePoint);
      others.set(codePoint, folded);
    }
    return folded;
  };
}

export const foldForTerms = remembered(foldTermCodePoint);
export const foldForPatterns = remembered(foldPatternCodePoint);

/** A whole string folded (terms and keywords of a configuration). */
export function foldString(text: string, fold: CodePointFolding): string {
  let out = '';
  for (const char of text) out += fold(char.codePointAt(0)!);
  return out;
}

/** Where an original code point's folded units came from, for every folded unit kept: grows by doubling. */
class OffsetColumn {
  values = new Int32Array(1024);
  size = 0;

  reserve(extra: number): void {
    if (this.size + extra <= this.values.length) return;
    let capacity = this.values.length * 2;
    while (capacity < this.size + extra) capacity *= 2;
    const grown = new Int32Array(capacity);
    grown.set(this.values.subarray(0, this.size));
    this.values = grown;
  }

  /** Forgets the first `count` values, in place. */
  dropFirst(count: number): void {
    this.values.copyWithin(0, count, this.size);
    this.size -= count;
  }
}

/**
 * A text folded as it arrives, each folded UTF-16 unit remembering the original range of the code point
 * it came from. Offsets are into the whole folded text; what a reader no longer needs is discarded
 * (discardBefore), so that a long stream keeps only its tail. A high surrogate at the end of a piece
 * waits for the next piece. The ranges are kept in typed arrays and the folded text is built from runs
 * of unchanged characters: 10 KB of text folds into a few strings rather than tens of thousands of
 * small objects for the garbage collector (docs/performance.md, guardrails).
 */
export class FoldedText {
  /** The folded text kept: from `base` to the end. */
  private tail = '';
  /** Folded offset of the first unit kept. */
  private base = 0;
  private readonly starts = new OffsetColumn();
  private readonly ends = new OffsetColumn();
  /** Original UTF-16 units folded so far. */
  consumed = 0;
  private waiting = '';

  constructor(private readonly fold: CodePointFolding) {}

  /** Folded length of everything folded so far, discarded units included. */
  get length(): number {
    return this.base + this.tail.length;
  }

  /** The folded text kept, which starts at folded offset `firstKept`. */
  get text(): string {
    return this.tail;
  }

  get firstKept(): number {
    return this.base;
  }

  unitAt(i: number): number {
    return this.tail.charCodeAt(i - this.base);
  }

  slice(start: number, end: number): string {
    return this.tail.slice(start - this.base, end - this.base);
  }

  isWordAt(i: number): boolean {
    return isWordAt(this.tail, i - this.base);
  }

  append(piece: string): void {
    const source = this.waiting + piece;
    let limit = source.length;
    this.waiting = '';
    const last = source.charCodeAt(limit - 1);
    if (last >= 0xd800 && last <= 0xdbff) {
      this.waiting = source[limit - 1]!;
      limit -= 1;
    }
    this.foldRange(source, limit);
  }

  /** The text has ended: a lone high surrogate left waiting is folded as it is. */
  finish(): void {
    if (this.waiting === '') return;
    const waiting = this.waiting;
    this.waiting = '';
    this.foldRange(waiting, 1, true);
  }

  /** Folds source[0, limit) onto the tail; `lone`: one unit folded as it is (a high surrogate left alone). */
  private foldRange(source: string, limit: number, lone = false): void {
    const offset = this.consumed;
    const { fold, starts, ends } = this;
    // One unit for each unit of the source; a code point that folds to more reserves its extra below.
    starts.reserve(limit);
    ends.reserve(limit);
    let folded = '';
    /** Start of the run of characters that fold to themselves, not yet added to `folded`. */
    let same = 0;
    for (let i = 0; i < limit; ) {
      const codePoint = lone ? source.charCodeAt(i) : source.codePointAt(i)!;
      const width = codePoint > 0xffff ? 2 : 1;
      const into = fold(codePoint);
      if (into.length === 1 && width === 1 && into.charCodeAt(0) === codePoint) {
        starts.values[starts.size++] = offset + i;
        ends.values[ends.size++] = offset + i + 1;
      } else {
        if (same < i) folded += source.slice(same, i);
        folded += into;
        same = i + width;
        starts.reserve(into.length + limit - i);
        ends.reserve(into.length + limit - i);
        for (let unit = 0; unit < into.length; unit++) {
          starts.values[starts.size++] = offset + i;
          ends.values[ends.size++] = offset + i + width;
        }
      }
      i += width;
    }
    folded = same === 0 ? source.slice(0, limit) : folded + source.slice(same, limit);
    this.tail += folded;
    this.consumed = offset + limit;
  }

  /** Forgets the units before i (never half of a pair): offsets below it are not asked for again. */
  discardBefore(i: number): void {
    let drop = Math.min(i, this.length) - this.base;
    const code = this.tail.charCodeAt(drop);
    if (drop > 0 && code >= 0xdc00 && code <= 0xdfff) drop -= 1;
    if (drop <= 0) return;
    this.tail = this.tail.slice(drop);
    this.starts.dropFirst(drop);
    this.ends.dropFirst(drop);
    this.base += drop;
  }

  /** Where the code point of folded unit i starts in the original; the end of what was folded past the last. */
  originalStart(i: number): number {
    return i < this.length ? this.starts.values[i - this.base]! : this.consumed;
  }

  /** Where the code point of folded unit i ends in the original. */
  originalEnd(i: number): number {
    return this.ends.values[i - this.base]!;
  }
}
