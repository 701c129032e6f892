// A text read as it arrives, one code point at a time (reading-form.ts gives how each reads), with
// every unit of the reading mapped back to the range of the original text it came from. Built in one
// pass, in time linear in the text: each code point is read once (readings are remembered), and what is
// kept lives in typed arrays and a few strings.
//
// Three things depend on neighbours, and are decided here:
// - an invisible character (read as nothing) belongs to the character before it: a finding that ends
//   with that character covers it, so that a redaction leaves no strike-through mark or zero-width
//   character behind;
// - a run of white space reads as one unit, '\n' if the run holds a line break, ' ' otherwise;
// - so the last character read is held back (`pending`) until the next visible character or the end
//   of the text says where it ends; offsets handed out are never changed afterwards.
import { isBlank, isWordAt, LINE_BREAK, type CodePointReading } from './reading-form.js';

/** What a code point's reading is, for the loop that joins readings. */
const SAME = 0;
const OTHER = 1;
const BLANK_SAME = 2;
const BLANK_OTHER = 3;
const INVISIBLE = 4;

function kindOf(units: string, char: string): number {
  if (units === '') return INVISIBLE;
  if (isBlank(units)) return units === char ? BLANK_SAME : BLANK_OTHER;
  return units === char ? SAME : OTHER;
}

interface AsciiReadings {
  units: string[];
  kinds: Uint8Array;
}

/** The readings of ASCII, looked up by code rather than through the reading function. */
const asciiTables = new WeakMap<CodePointReading, AsciiReadings>();

function asciiReadings(reading: CodePointReading): AsciiReadings {
  let tables = asciiTables.get(reading);
  if (tables === undefined) {
    const units = Array.from({ length: 128 }, (_, code) => reading(code));
    tables = { units, kinds: Uint8Array.from(units, (read, code) => kindOf(read, String.fromCharCode(code))) };
    asciiTables.set(reading, tables);
  }
  return tables;
}

/** Original offsets per unit of the reading: grows by doubling. */
class OffsetColumn {
  values = new Int32Array(64);
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
 * The reading of a text given in pieces. Offsets are into the whole reading; what a reader no longer
 * needs is discarded (discardBefore), so that a long stream keeps only its tail. A high surrogate at
 * the end of a piece waits for the next piece.
 */
export class FoldedText {
  /** The reading kept: from `base` to the end of what is settled. */
  private tail = '';
  private base = 0;
  private readonly starts = new OffsetColumn();
  private readonly ends = new OffsetColumn();
  /** The last visible code point read (or white-space run), not settled yet: its units and original range. */
  private pendingUnits = '';
  private pendingStart = 0;
  private pendingEnd = 0;
  /** Original UTF-16 units read so far. */
  private read = 0;
  private waiting = '';

  private readonly ascii: AsciiReadings;

  constructor(private readonly reading: CodePointReading) {
    this.ascii = asciiReadings(reading);
  }

  /** Length of the settled reading, discarded units included. */
  get length(): number {
    return this.base + this.tail.length;
  }

  /** Original units whose reading is settled: everything before the pending character. */
  get consumed(): number {
    return this.pendingUnits === '' ? this.read : this.pendingStart;
  }

  /** The settled reading kept, which starts at offset `firstKept`. */
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
    this.readRange(source, limit);
  }

  /** The text has ended: a lone high surrogate left waiting is read as it is, the pending character settled. */
  finish(): void {
    if (this.waiting !== '') {
      const waiting = this.waiting;
      this.waiting = '';
      this.readRange(waiting, 1, true);
    }
    this.settlePending();
  }

  /** Reads source[0, limit); `lone`: one unit read as it is (a high surrogate left alone). */
  private readRange(source: string, limit: number, lone = false): void {
    const offset = this.read;
    const { reading, starts, ends, ascii } = this;
    // Settled units that read as themselves are copied from the source in runs, not one by one.
    let runStart = 0;
    let runEnd = 0;
    let built = '';
    // The pending character, in locals while the loop runs; `pendingAt`: where it is in this source
    // if it reads as itself, -1 otherwise.
    let pendingUnits = this.pendingUnits;
    let pendingStart = this.pendingStart;
    let pendingEnd = this.pendingEnd;
    let pendingBlank = isBlank(pendingUnits);
    let pendingAt = -1;
    starts.reserve(limit + pendingUnits.length);
    ends.reserve(limit + pendingUnits.length);
    for (let i = 0; i < limit; ) {
      let codePoint = source.charCodeAt(i);
      let width = 1;
      let units: string;
      let kind: number;
      if (codePoint < 0x80) {
        units = ascii.units[codePoint]!;
        kind = ascii.kinds[codePoint]!;
      } else {
        if (!lone && codePoint >= 0xd800 && codePoint <= 0xdbff) {
          codePoint = source.codePointAt(i)!;
          if (codePoint > 0xffff) width = 2;
        }
        units = reading(codePoint);
        kind = kindOf(units, width === 1 ? String.fromCharCode(codePoint) : source.slice(i, i + 2));
      }
      if (kind === INVISIBLE || (pendingBlank && (kind === BLANK_SAME || kind === BLANK_OTHER))) {
        // Invisible, or more of a white-space run: the pending character reaches over it.
        if (pendingUnits !== '') pendingEnd = offset + i + width;
        if (units === LINE_BREAK && pendingUnits !== LINE_BREAK) {
          pendingUnits = LINE_BREAK;
          pendingAt = -1;
        }
        i += width;
        continue;
      }
      // A visible character settles the one before it.
      if (pendingUnits !== '') {
        if (pendingAt >= 0 && pendingAt === runEnd) {
          runEnd += pendingUnits.length;
        } else if (pendingAt >= 0) {
          built += source.slice(runStart, runEnd);
          runStart = pendingAt;
          runEnd = pendingAt + pendingUnits.length;
        } else {
          built += source.slice(runStart, runEnd) + pendingUnits;
          runStart = runEnd = i;
        }
        if (pendingUnits.length !== 1) {
          starts.reserve(pendingUnits.length + limit - i);
          ends.reserve(pendingUnits.length + limit - i);
        }
        for (let unit = 0; unit < pendingUnits.length; unit++) {
          starts.values[starts.size++] = pendingStart;
          ends.values[ends.size++] = pendingEnd;
        }
      }
      pendingUnits = units;
      pendingStart = offset + i;
      pendingEnd = offset + i + width;
      pendingBlank = kind === BLANK_SAME || kind === BLANK_OTHER;
      pendingAt = kind === SAME || kind === BLANK_SAME ? i : -1;
      i += width;
    }
    this.pendingUnits = pendingUnits;
    this.pendingStart = pendingStart;
    this.pendingEnd = pendingEnd;
    // The pending character is kept as its units, not as a place in this source.
    this.tail += built + source.slice(runStart, runEnd);
    this.read = offset + limit;
  }

  private settleColumns(): void {
    const { starts, ends } = this;
    starts.reserve(this.pendingUnits.length);
    ends.reserve(this.pendingUnits.length);
    for (let unit = 0; unit < this.pendingUnits.length; unit++) {
      starts.values[starts.size++] = this.pendingStart;
      ends.values[ends.size++] = this.pendingEnd;
    }
  }

  private settlePending(): void {
    if (this.pendingUnits === '') return;
    this.settleColumns();
    this.tail += this.pendingUnits;
    this.pendingUnits = '';
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

  /** Where the character of unit i starts in the original; past the last settled unit, what is settled. */
  originalStart(i: number): number {
    return i < this.length ? this.starts.values[i - this.base]! : this.consumed;
  }

  /** Where the character of unit i ends in the original, the invisible characters attached to it included. */
  originalEnd(i: number): number {
    return this.ends.values[i - this.base]!;
  }
}
