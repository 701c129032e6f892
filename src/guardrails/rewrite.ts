// What an action does to the text, given what its guardrail found:
//
// | action | a span (PII, term, pattern, denied keyword) | the rest (length) | the whole text (off topic, by embedding) |
// |---|---|---|---|
// | block  | replaced like redact, and the text is refused     | unchanged, refused          | unchanged, refused |
// | redact | replaced by [ENTITY_TYPE] (PII) or [REDACTED]     | cut, [TRUNCATED] in its place | replaced by [REDACTED] |
// | mask   | each character but white space becomes *; a card keeps its last 4 digits | cut | masked |
// | warn   | unchanged, reported                                | unchanged, reported          | unchanged, reported |
//
// A blocked text is still redacted where it was found, so that what is stored of it holds no secret.
// Overlapping replacements merge into one (a redaction wins over a mask).
import type { Detection } from './detector.js';
import type { GuardrailAction, GuardrailType } from './guardrail.js';

export const TRUNCATED = '[TRUNCATED]';

export interface Edit {
  start: number;
  end: number;
  /** The replacement of a redaction; undefined: masked. */
  replacement: string | undefined;
  /** Masking keeps a card's last four digits. */
  keepLastDigits: boolean;
}

/** Whether the detection changes the text where it is (a span, or the whole text, redacted or masked). */
export function editOf(type: GuardrailType, action: GuardrailAction, detection: Detection): Edit | undefined {
  const { finding, scope } = detection;
  if (scope === 'rest' || action === 'warn' || (scope === 'whole' && action === 'block')) return undefined;
  if (action === 'mask') return { start: finding.start, end: finding.end, replacement: undefined, keepLastDigits: finding.entity_type === 'CREDIT_CARD' };
  const replacement = type === 'pii' && scope === 'span' ? `[${finding.entity_type}]` : '[REDACTED]';
  return { start: finding.start, end: finding.end, replacement, keepLastDigits: false };
}

/** Where a length finding cuts the text (redact and mask), and with what. */
export function cutOf(action: GuardrailAction, detection: Detection): { at: number; marker: string } | undefined {
  if (detection.scope !== 'rest' || (action !== 'redact' && action !== 'mask')) return undefined;
  return { at: detection.finding.start, marker: action === 'redact' ? TRUNCATED : '' };
}

/** Edits sorted by start, overlapping ones merged. */
export function mergeEdits(edits: Edit[]): Edit[] {
  const sorted = [...edits].sort((a, b) => a.start - b.start || b.end - a.end);
  const merged: Edit[] = [];
  for (const edit of sorted) {
    const last = merged.at(-1);
    if (last !== undefined && edit.start < last.end) {
      merged[merged.length - 1] = {
        start: last.start,
        end: Math.max(last.end, edit.end),
        replacement: last.replacement ?? edit.replacement,
        keepLastDigits: last.keepLastDigits && edit.keepLastDigits && edit.end <= last.end,
      };
    } else {
      merged.push(edit);
    }
  }
  return merged;
}

/** Digits of every script: a card written in Arabic-Indic digits keeps its last four too. */
const DIGIT = /\p{Nd}/u;
const DIGITS = /\p{Nd}/gu;
const CARD_SEPARATOR = /[\p{Pd}\u2212.]/u;

function masked(text: string, keepLastDigits: boolean): string {
  let digitsLeft = keepLastDigits ? (text.match(DIGITS)?.length ?? 0) : 0;
  let out = '';
  for (const char of text) {
    if (keepLastDigits && DIGIT.test(char)) {
      out += digitsLeft-- <= 4 ? char : '*';
    } else if (/\s/.test(char) || (keepLastDigits && CARD_SEPARATOR.test(char))) {
      out += char;
    } else {
      // One star per UTF-16 unit: the masked text keeps the original's offsets.
      out += '*'.repeat(char.length);
    }
  }
  return out;
}

/** The text between `from` and `to` (original offsets) with the edits that lie inside it applied. */
export function rewriteRange(text: string, from: number, to: number, edits: readonly Edit[]): string {
  let out = '';
  let at = from;
  for (const edit of edits) {
    if (edit.start < from || edit.start >= to) continue;
    const end = Math.min(edit.end, to);
    out += text.slice(at, edit.start);
    out += edit.replacement ?? masked(text.slice(edit.start, end), edit.keepLastDigits);
    at = end;
  }
  return out + text.slice(at, to);
}
