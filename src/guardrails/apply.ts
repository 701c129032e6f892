// The guardrails of a stage applied to a whole text. Every guardrail reads the text as it was given,
// so that every finding's offsets are into that text; then the redactions, masks and cuts of all of
// them are made at once (rewrite.ts). A finding of a `block` guardrail refuses the text, unless a length
// limit cuts it away.
import type { CompiledGuardrail } from './compile.js';
import { detectAll, type Detection } from './detector.js';
import type { Finding, GuardrailStage, GuardrailVerdict, StageResult } from './guardrail.js';
import { cutOf, editOf, mergeEdits, rewriteRange, type Edit } from './rewrite.js';

/** A finding as the API shows it: the four fields, whatever else a detector attached. */
export function plainFinding(finding: Finding): Finding {
  return { entity_type: finding.entity_type, start: finding.start, end: finding.end, rule: finding.rule };
}

export function verdictOf(guardrail: CompiledGuardrail, stage: GuardrailStage, detections: readonly Detection[]): GuardrailVerdict {
  const findings = detections.map((detection) => plainFinding(detection.finding)).sort((a, b) => a.start - b.start || a.end - b.end);
  return { guardrail_id: guardrail.id, name: guardrail.name, type: guardrail.type, stage, action: guardrail.action, findings };
}

/** What a guardrail found in a whole text, its asynchronous second look included. */
export async function detectInText(guardrail: CompiledGuardrail, text: string): Promise<Detection[]> {
  const detections = detectAll(guardrail.detector, text);
  return guardrail.refine ? guardrail.refine(text, detections) : detections;
}

export async function applyGuardrails(guardrails: readonly CompiledGuardrail[], stage: GuardrailStage, text: string): Promise<StageResult> {
  const verdicts: GuardrailVerdict[] = [];
  const edits: Edit[] = [];
  let cut: { at: number; marker: string } | undefined;
  for (const guardrail of guardrails) {
    if (!guardrail.stages.includes(stage)) continue;
    const detections = await detectInText(guardrail, text);
    if (detections.length === 0) continue;
    verdicts.push(verdictOf(guardrail, stage, detections));
    for (const detection of detections) {
      const edit = editOf(guardrail.type, guardrail.action, detection);
      if (edit) edits.push(edit);
      const cutHere = cutOf(guardrail.action, detection);
      if (cutHere && (cut === undefined || cutHere.at < cut.at || (cutHere.at === cut.at && cutHere.marker !== ''))) cut = cutHere;
    }
  }
  if (verdicts.length === 0) return { text, blocked: false, verdicts };
  const end = cut?.at ?? text.length;
  return {
    text: rewriteRange(text, 0, end, mergeEdits(edits)) + (cut?.marker ?? ''),
    // What a length limit cuts away is not passed on: a block found only there refuses nothing.
    blocked: verdicts.some((verdict) => verdict.action === 'block' && verdict.findings.some((finding) => finding.start < end)),
    verdicts,
  };
}
