// PII in a text: character offsets (UTF-16, as JavaScript strings index) of each entity found, sorted,
// overlaps resolved. Pure and synchronous so that a guardrail can run it on every piece of a stream.
import type { Finding } from '../guardrail.js';

/** The entity types the detector knows, named as Presidio names them. */
export const PII_ENTITY_TYPES: readonly string[] = ['EMAIL_ADDRESS'];

/**
 * The most characters a streaming filter holds back so that an entity cut across two pieces is still
 * found whole: the longest entity the detector finds, plus the context it reads around it.
 */
export const PII_HOLD_BACK = 256;

const EMAIL = /[A-Za-z0-9._%+-]+@(?:[A-Za-z0-9-]+\.)+[A-Za-z]{2,}/g;

export function detectPii(text: string, entities?: readonly string[]): Finding[] {
  const wanted = entities === undefined ? null : new Set(entities);
  const findings: Finding[] = [];
  if (wanted === null || wanted.has('EMAIL_ADDRESS')) {
    for (const match of text.matchAll(EMAIL)) {
      findings.push({ entity_type: 'EMAIL_ADDRESS', start: match.index, end: match.index + match[0].length, rule: 'email' });
    }
  }
  return findings.sort((a, b) => a.start - b.start);
}
