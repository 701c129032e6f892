// Blocked terms in a text, as it arrives: the text is folded (text-folding.ts), fed to the automaton
// one unit at a time, and each term found is kept when it stands on word boundaries. Overlapping
// terms resolve leftmost first, longest first; a candidate is decided once every longer term that could
// start at the same place would have been seen.
import type { DetectorRun, Detection, TextDetector } from './detector.js';
import { FoldedText } from './folded-text.js';
import { foldForTerms } from './text-folding.js';
import type { TermAutomaton } from './term-automaton.js';

export interface TermLabel {
  entity_type: string;
  rule: string;
}

interface Candidate {
  start: number;
  end: number;
}

class TermRun implements DetectorRun {
  private readonly folded = new FoldedText(foldForTerms);
  private node = 0;
  /** Folded units fed to the automaton: each waits for the next one, which decides its right boundary. */
  private scanned = 0;
  private candidates: Candidate[] = [];
  /** End of the last term kept: a later candidate that starts before it overlaps it. */
  private keptEnd = 0;

  constructor(
    private readonly automaton: TermAutomaton,
    private readonly label: TermLabel,
  ) {}

  append(piece: string): void {
    this.folded.append(piece);
  }

  collect(final: boolean) {
    const { automaton, folded } = this;
    if (final) folded.finish();
    const length = folded.length;
    const until = final ? length : length - 1;
    for (; this.scanned < until; this.scanned++) {
      const end = this.scanned + 1;
      this.node = automaton.step(this.node, folded.unitAt(this.scanned));
      automaton.forEachTerm(this.node, (term) => {
        const start = end - automaton.lengths[term]!;
        if (automaton.wordStart[term] && start > 0 && folded.isWordAt(start - 1)) return;
        if (automaton.wordEnd[term] && end < length && folded.isWordAt(end)) return;
        this.candidates.push({ start, end });
      });
    }
    // Every term that starts before this has ended within what was scanned.
    const decidedBefore = final ? length : Math.max(0, this.scanned - automaton.longest + 1);
    const detections: Detection[] = [];
    const decided = this.candidates.filter((candidate) => candidate.start < decidedBefore);
    if (decided.length > 0) {
      this.candidates = this.candidates.filter((candidate) => candidate.start >= decidedBefore);
      decided.sort((a, b) => a.start - b.start || b.end - a.end);
      for (const candidate of decided) {
        if (candidate.start < this.keptEnd) continue;
        this.keptEnd = candidate.end;
        const finding = { ...this.label, start: folded.originalStart(candidate.start), end: folded.originalEnd(candidate.end - 1) };
        detections.push({ finding, scope: 'span' as const });
      }
    }
    const safe = final ? folded.consumed : folded.originalStart(decidedBefore);
    // Later terms start at most `longest` units back, and their left boundary is one unit before that.
    folded.discardBefore(Math.min(decidedBefore, this.scanned - automaton.longest) - 1);
    return { detections, safe };
  }
}

/**
 * The folded terms to look for: each as written, and a phrase also with its words run together
 * ("secret plan" as "secretplan"), which is what a reader sees where a zero-width character, read as
 * nothing, stood for the space between them.
 */
export function termsWithJoinedWords(foldedTerms: readonly string[]): string[] {
  const all: string[] = [];
  for (const term of foldedTerms) {
    all.push(term);
    const joined = term.replace(/(?<=[\p{L}\p{N}\p{M}]) (?=[\p{L}\p{N}\p{M}])/gu, '');
    if (joined !== term) all.push(joined);
  }
  return all;
}

export function termDetector(automaton: TermAutomaton, label: TermLabel): TextDetector {
  // The boundary after a term, and the character the reading holds until its attached invisible ones are known.
  return { holdBack: automaton.longest + 2, start: () => new TermRun(automaton, label) };
}
