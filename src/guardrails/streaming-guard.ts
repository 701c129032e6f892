// Output guardrails over an answer as it streams. Each piece goes to every guardrail's detector; text
// is released up to the point before which every detector has decided (the least `safe` of them), so
// that what is held back is only what the longest term, pattern, PII window or phrase still needs,
// never the whole answer. A replacement is released whole: the release point never falls inside one.
// Offsets of findings are into the whole answer. The released text and the findings are the same
// however the answer is cut into pieces (test/guardrails-streaming.test.ts checks every cut).
//
// - A `block` finding stops the stream: the text before it is released, nothing after.
// - A length limit that redacts or masks holds everything past the limit back for good; at the end,
//   [TRUNCATED] (redact) is released in its place, and its finding reaches the end of the answer.
// - Findings about the whole answer (an allowed topic never mentioned) come at the end: `block` then
//   stops what is left and marks the answer blocked; what was sent cannot be redacted or masked any more,
//   so those actions are reported only. Topic embeddings are not consulted on streams.
import type { CompiledGuardrail } from './compile.js';
import type { Detection, DetectorRun } from './detector.js';
import type { GuardrailVerdict, StreamingGuard } from './guardrail.js';
import { verdictOf } from './apply.js';
import { cutOf, editOf, mergeEdits, rewriteRange, type Edit } from './rewrite.js';

interface Held {
  guardrail: number;
  detection: Detection;
  /** The change it makes to the released text, if any. */
  edit: Edit | undefined;
}

export class GuardedStream implements StreamingGuard {
  readonly verdicts: GuardrailVerdict[] = [];
  private stopped = false;
  /** flush was called: the answer has ended. */
  private ended = false;
  /** The answer from `released` on (what is released is not kept), and the length of the whole answer. */
  private pending = '';
  private length = 0;
  private released = 0;
  private readonly runs: DetectorRun[];
  /** Decided findings of spans, not yet released. */
  private held: Held[] = [];
  /** Findings that reach to the end of the answer (length) or are about all of it: reported at the end. */
  private atEnd: Held[] = [];
  private cut: { at: number; marker: string } | undefined;

  constructor(private readonly guardrails: readonly CompiledGuardrail[]) {
    this.runs = guardrails.map((guardrail) => guardrail.detector.start());
  }

  get blocked(): boolean {
    return this.stopped;
  }

  push(text: string): string {
    if (this.stopped || this.ended || text === '') return '';
    this.pending += text;
    this.length += text.length;
    for (const run of this.runs) run.append(text);
    return this.advance(false);
  }

  flush(): string {
    if (this.stopped || this.ended) return '';
    this.ended = true;
    const released = this.advance(true);
    if (this.stopped) return released;
    this.report([...this.held, ...this.atEnd]);
    return released + (this.cut?.marker ?? '');
  }

  private advance(final: boolean): string {
    let safe = final ? this.length : Number.POSITIVE_INFINITY;
    for (const [index, run] of this.runs.entries()) {
      const collected = run.collect(final);
      if (!final) safe = Math.min(safe, collected.safe);
      for (const detection of collected.detections) this.hold(index, detection);
    }
    if (this.cut !== undefined) safe = Math.min(safe, this.cut.at);
    if (final && this.atEnd.some((held) => held.detection.scope === 'whole' && this.guardrails[held.guardrail]!.action === 'block')) {
      // The answer as a whole is refused: what was held back stays back.
      this.report([...this.held, ...this.atEnd]);
      this.stopped = true;
      return '';
    }

    const blocking = this.firstBlocking(safe);
    if (blocking !== undefined) {
      const text = this.release(this.outsideEdits(blocking));
      this.report([...this.held.filter((held) => held.detection.finding.start <= blocking), ...this.atEnd.filter((held) => held.detection.finding.start <= blocking)]);
      this.held = [];
      this.stopped = true;
      return text;
    }
    return this.release(this.outsideEdits(safe));
  }

  private hold(guardrail: number, detection: Detection): void {
    const { action, type } = this.guardrails[guardrail]!;
    if (detection.scope !== 'span') {
      // Reported at the end with its end then; a length cut holds back everything past it.
      this.atEnd.push({ guardrail, detection, edit: undefined });
      const cut = cutOf(action, detection);
      if (cut && (this.cut === undefined || cut.at < this.cut.at)) this.cut = cut;
      return;
    }
    this.held.push({ guardrail, detection, edit: editOf(type, action, detection) });
  }

  /** Where the first decided `block` finding starts, if one does before `safe`. */
  private firstBlocking(safe: number): number | undefined {
    let first: number | undefined;
    for (const held of [...this.held, ...this.atEnd]) {
      const { start } = held.detection.finding;
      if (this.guardrails[held.guardrail]!.action !== 'block' || held.detection.scope === 'whole' || start >= safe) continue;
      if (first === undefined || start < first) first = start;
    }
    return first;
  }

  /**
   * The point, at most `limit`, that falls inside no replacement still held, nor inside a surrogate pair.
   * At a length cut the text ends anyway: a replacement across it is released cut, as apply does.
   */
  private outsideEdits(limit: number): number {
    let point = limit;
    for (let moved = point !== this.cut?.at; moved; ) {
      moved = false;
      for (const held of this.held) {
        if (held.edit && held.edit.start < point && held.edit.end > point) {
          point = held.edit.start;
          moved = true;
        }
      }
    }
    const code = this.pending.charCodeAt(point - 1 - this.released);
    if (point > this.released && point < this.length && code >= 0xd800 && code <= 0xdbff) point -= 1;
    return Math.max(point, this.released);
  }

  /** Releases the answer up to `point`, rewritten, and reports the findings released with it. */
  private release(point: number): string {
    if (point <= this.released) return '';
    const releasing = this.held.filter((held) => held.detection.finding.start < point);
    this.held = this.held.filter((held) => held.detection.finding.start >= point);
    const edits = mergeEdits(releasing.flatMap((held) => (held.edit ? [held.edit] : [])));
    const text = rewriteRange(this.pending, 0, point - this.released, edits.map((edit) => ({ ...edit, start: edit.start - this.released, end: edit.end - this.released })));
    this.pending = this.pending.slice(point - this.released);
    this.released = point;
    this.report(releasing);
    return text;
  }

  /** Adds one verdict per guardrail with findings among `found`, in the guardrails' order. */
  private report(found: Held[]): void {
    for (const [index, guardrail] of this.guardrails.entries()) {
      const detections = found
        .filter((held) => held.guardrail === index)
        .map((held) => (held.detection.scope === 'span' ? held.detection : { ...held.detection, finding: { ...held.detection.finding, end: this.length } }));
      if (detections.length > 0) this.verdicts.push(verdictOf(guardrail, 'output', detections));
    }
  }
}
