// Overlapping candidates: the best established wins (a Luhn-checked card over a phone number of the
// same digits), then the longest (an e-mail address over the host name inside it, an address over
// the postcode that ends it); what loses any character to a winner is dropped whole.
import type { Finding } from '../guardrail.js';
import type { Candidate } from './candidate.js';

export function resolveOverlaps(candidates: readonly Candidate[]): Finding[] {
  const ranked = [...candidates].sort((a, b) => b.strength - a.strength || b.end - b.start - (a.end - a.start) || a.start - b.start);
  // Kept spans sorted by start, disjoint: a binary search finds the only ones a new span can touch.
  const kept: Candidate[] = [];
  for (const next of ranked) {
    let low = 0;
    let high = kept.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (kept[middle]!.start < next.start) low = middle + 1;
      else high = middle;
    }
    const before = kept[low - 1];
    const after = kept[low];
    if ((before !== undefined && before.end > next.start) || (after !== undefined && after.start < next.end)) continue;
    kept.splice(low, 0, next);
  }
  return kept.map(({ entity_type, start, end, rule }) => ({ entity_type, start, end, rule }));
}
