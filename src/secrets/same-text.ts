// Comparing a secret a client sent with the expected one in a time that does not depend on where they
// differ (a MAC, a CSRF value), so that the timing of refusals does not spell out the expected value.
import { timingSafeEqual } from 'node:crypto';

/** Whether the two texts are equal, in constant time for texts of the same length. */
export function sameText(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
