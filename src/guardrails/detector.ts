// What a guardrail type detects, in one shape for whole texts and for streams: a detector takes the
// text in pieces and says, after each, what it has found for certain and up to where. A finding that
// starts before `safe` can no longer change whatever text follows; the streaming guard releases text
// up to the smallest `safe` of its detectors, and a whole text is one piece followed by the end.
import { FoldedText } from './folded-text.js';
import type { Finding } from './guardrail.js';
import { readingForm } from './reading-form.js';

/**
 * How far a finding reaches when its guardrail redacts or masks: its own characters (`span`), the rest
 * of the text from its start (`rest`: a length limit), or the whole text (`whole`: a topic).
 */
export type Scope = 'span' | 'rest' | 'whole';

export interface Detection {
  finding: Finding;
  scope: Scope;
}

export interface Collected {
  /** Findings decided since the last call, offsets into the whole text. */
  detections: Detection[];
  /** Every finding that starts before this offset has been given. */
  safe: number;
}

export interface DetectorRun {
  append(piece: string): void;
  /** `final`: the text has ended, everything is decided. */
  collect(final: boolean): Collected;
}

export interface TextDetector {
  /** Characters of a stream held back at most, beyond the findings themselves (for figures and docs). */
  readonly holdBack: number;
  start(): DetectorRun;
}

export function detectAll(detector: TextDetector, text: string): Detection[] {
  const run = detector.start();
  run.append(text);
  return run.collect(true).detections;
}

/** Finds nothing and holds nothing back. */
export const NOTHING_DETECTED: TextDetector = {
  holdBack: 0,
  start: () => ({ append: () => undefined, collect: () => ({ detections: [], safe: Number.POSITIVE_INFINITY }) }),
};

/** Several detectors as one: findings of all, safe as far as the least advanced allows. */
export function combineDetectors(detectors: TextDetector[]): TextDetector {
  if (detectors.length === 1) return detectors[0]!;
  return {
    holdBack: Math.max(0, ...detectors.map((detector) => detector.holdBack)),
    start() {
      const runs = detectors.map((detector) => detector.start());
      return {
        append: (piece) => runs.forEach((run) => run.append(piece)),
        collect(final) {
          const detections: Detection[] = [];
          let safe = Number.POSITIVE_INFINITY;
          for (const run of runs) {
            const collected = run.collect(final);
            detections.push(...collected.detections);
            safe = Math.min(safe, collected.safe);
          }
          return { detections, safe };
        },
      };
    },
  };
}

/**
 * A detector that only reads whole texts (PII), run over a moving window of the text's reading
 * (reading-form.ts: what a person reads, invisible characters dropped, look-alikes and digits of every
 * script read as ASCII): it reads from `holdBack` units before what is decided to the end, and keeps
 * the findings that start before the last `holdBack` units, which later text could still change. It
 * reads again only once `step` more units can be decided, so that a text streamed in small pieces is
 * not read over and over: a stream then holds back between `holdBack` and `holdBack + step` units of
 * the reading for it. Findings are mapped back to the original text.
 */
export function windowedDetector(find: (reading: string) => Finding[], holdBack: number, step: number, scope: Scope = 'span'): TextDetector {
  return {
    holdBack: holdBack + step,
    start() {
      const read = new FoldedText(readingForm);
      /** Offset of the reading before which everything is decided. */
      let decided = 0;
      return {
        append: (piece) => read.append(piece),
        collect(final) {
          if (final) read.finish();
          const length = read.length;
          const limit = final ? length : length - holdBack;
          if (limit <= decided || (!final && limit - decided < step)) return { detections: [], safe: final ? read.consumed : read.originalStart(decided) };
          const from = Math.max(0, decided - holdBack);
          const detections = find(read.slice(from, length))
            .map((finding) => ({ ...finding, start: finding.start + from, end: finding.end + from }))
            .filter((finding) => finding.start >= decided && finding.start < limit)
            .map((finding) => ({ finding: { ...finding, start: read.originalStart(finding.start), end: read.originalEnd(finding.end - 1) }, scope }));
          decided = limit;
          read.discardBefore(decided - holdBack);
          return { detections, safe: final ? read.consumed : read.originalStart(limit) };
        },
      };
    },
  };
}
