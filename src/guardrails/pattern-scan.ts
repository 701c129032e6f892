// Blocked patterns in a text, as it arrives. Each pattern runs on the text's reading (reading-form.ts:
// compatibility forms, digits of every script, dashes, look-alike letters, invisible characters dropped,
// white space collapsed; line breaks as spaces), case-insensitively, from where its last match ended. A match that
// starts more than the pattern's reach before the end of the text so far is decided: the engine read
// nothing past the end to make it. Where no match was found, the search starts again from the first
// place a later piece could still make one. Only the text a search may still read is kept (an
// unbounded lookbehind keeps all of it).
import type { DetectorRun, Detection, TextDetector } from './detector.js';
import { FoldedText } from './folded-text.js';
import { foldForPatterns } from './text-folding.js';
import { regexLookbehind, regexReach } from './regex-reach.js';
import type { TermLabel } from './term-scan.js';

export interface CompiledPattern {
  regex: RegExp;
  /** regexReach of the pattern: how far a match reads from its start. */
  reach: number;
  /** regexLookbehind of the pattern: how far before its start it reads. */
  behind: number;
}

export const PATTERN_FLAGS = 'giu';

export function compilePattern(source: string): CompiledPattern {
  return { regex: new RegExp(source, PATTERN_FLAGS), reach: regexReach(source), behind: regexLookbehind(source) };
}

class PatternRun implements DetectorRun {
  private readonly folded = new FoldedText(foldForPatterns);
  /** Per pattern, where its next search starts (folded units). */
  private readonly from: number[];
  /** Private copies: lastIndex is state. */
  private readonly regexes: RegExp[];

  constructor(
    private readonly patterns: readonly CompiledPattern[],
    private readonly label: TermLabel,
  ) {
    this.from = patterns.map(() => 0);
    this.regexes = patterns.map((pattern) => new RegExp(pattern.regex.source, pattern.regex.flags));
  }

  append(piece: string): void {
    this.folded.append(piece);
  }

  collect(final: boolean) {
    const { folded } = this;
    if (final) folded.finish();
    // The text kept starts at `base`: offsets below are into the whole folded text.
    const text = folded.text;
    const base = folded.firstKept;
    const length = folded.length;
    const detections: Detection[] = [];
    let safe = final ? folded.consumed : Number.POSITIVE_INFINITY;
    for (const [index, pattern] of this.patterns.entries()) {
      // Matches starting before this read only text already here (the +1: a boundary or $ after the match).
      const decidedBefore = final ? length : Math.max(this.from[index]!, length - pattern.reach);
      const regex = this.regexes[index]!;
      for (;;) {
        regex.lastIndex = this.from[index]! - base;
        const match = regex.exec(text);
        const start = match === null ? decidedBefore : match.index + base;
        if (match === null || start >= decidedBefore) {
          this.from[index] = Math.max(this.from[index]!, Math.min(start, decidedBefore));
          break;
        }
        const end = start + match[0].length;
        if (end === start) {
          // An empty match finds nothing; the search moves on by one code point.
          this.from[index] = start + (text.codePointAt(match.index)! > 0xffff ? 2 : 1);
          continue;
        }
        detections.push({ finding: { ...this.label, start: folded.originalStart(start), end: folded.originalEnd(end - 1) }, scope: 'span' });
        this.from[index] = end;
      }
      if (!final) safe = Math.min(safe, folded.originalStart(decidedBefore));
    }
    // Searches start again where they stopped and read back at most their lookbehind; one more unit
    // kept before that, so that ^ (the start of the text) never matches at the start of what is kept.
    folded.discardBefore(Math.min(...this.patterns.map((pattern, index) => this.from[index]! - pattern.behind - 1)));
    return { detections, safe: safe === Number.POSITIVE_INFINITY ? folded.consumed : safe };
  }
}

export function patternDetector(patterns: readonly CompiledPattern[], label: TermLabel): TextDetector {
  return { holdBack: Math.max(0, ...patterns.map((pattern) => pattern.reach)) + 1, start: () => new PatternRun(patterns, label) };
}
