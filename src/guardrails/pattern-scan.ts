// Blocked patterns in a text, as it arrives. Each pattern runs on the text folded for patterns (NFKC,
// invisible characters removed), case-insensitively, from where its last match ended. A match that
// starts more than the pattern's reach before the end of the text so far is decided: the engine read
// nothing past the end to make it. Where no match was found, the search starts again from the first
// place a later piece could still make one.
import type { DetectorRun, Detection, TextDetector } from './detector.js';
import { FoldedText, foldForPatterns } from './text-folding.js';
import type { TermLabel } from './term-scan.js';

export interface CompiledPattern {
  regex: RegExp;
  /** regexReach of the pattern: how far a match reads from its start. */
  reach: number;
}

export const PATTERN_FLAGS = 'giu';

export function compilePattern(source: string, reach: number): CompiledPattern {
  return { regex: new RegExp(source, PATTERN_FLAGS), reach };
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
    const text = folded.text;
    const detections: Detection[] = [];
    let safe = final ? folded.consumed : Number.POSITIVE_INFINITY;
    for (const [index, pattern] of this.patterns.entries()) {
      // Matches starting before this read only text already here (the +1: a boundary or $ after the match).
      const decidedBefore = final ? text.length : Math.max(this.from[index]!, text.length - pattern.reach);
      const regex = this.regexes[index]!;
      for (;;) {
        regex.lastIndex = this.from[index]!;
        const match = regex.exec(text);
        if (match === null || match.index >= decidedBefore) {
          this.from[index] = Math.max(this.from[index]!, Math.min(match?.index ?? decidedBefore, decidedBefore));
          break;
        }
        const end = match.index + match[0].length;
        if (end === match.index) {
          // An empty match finds nothing; the search moves on by one code point.
          this.from[index] = match.index + (text.codePointAt(match.index)! > 0xffff ? 2 : 1);
          continue;
        }
        detections.push({ finding: { ...this.label, start: folded.originalStart(match.index), end: folded.originalEnd(end - 1) }, scope: 'span' });
        this.from[index] = end;
      }
      if (!final) safe = Math.min(safe, folded.originalStart(decidedBefore));
    }
    return { detections, safe: safe === Number.POSITIVE_INFINITY ? folded.consumed : safe };
  }
}

export function patternDetector(patterns: readonly CompiledPattern[], label: TermLabel): TextDetector {
  return { holdBack: Math.max(0, ...patterns.map((pattern) => pattern.reach)) + 1, start: () => new PatternRun(patterns, label) };
}
