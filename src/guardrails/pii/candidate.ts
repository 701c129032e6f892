// What each recognizer proposes before overlaps are resolved: a finding with how much it is to be
// believed, so that a checked identifier wins over a shape, and a shape over a guess from words.
import type { Finding } from '../guardrail.js';

/** How a candidate was established, strongest first. */
export const Strength = {
  /** A check digit or a format rule confirmed it (Luhn, mod-97, octet ranges, a parsed phone number). */
  checked: 3,
  /** Its shape and the words around it (a number after "zip code", "driver's license"). */
  shapeInContext: 2,
  /** A word list or a heuristic (names, places, dates written as a bare year). */
  guessed: 1,
} as const;

export interface Candidate extends Finding {
  strength: number;
}

export function candidate(entityType: string, start: number, end: number, rule: string, strength: number): Candidate {
  return { entity_type: entityType, start, end, rule, strength };
}

/**
 * True when one of the words `pattern` matches ends within `window` characters before `start`
 * (a "card" before a number, an "SSN:" before nine digits). `pattern` must not be global.
 */
export function saidBefore(text: string, start: number, pattern: RegExp, window = 40): boolean {
  return pattern.test(text.slice(Math.max(0, start - window), start));
}

/**
 * The matches of a global `pattern`, tried only when `cue` occurs in the text: a word that every match
 * contains ("old", "turn", "licence"). Patterns that start with a look-behind or a word boundary are
 * tried at every position of the text; a literal cue is found by a fast search and is absent from most
 * texts. A cue must be implied by the pattern (same flags), so that skipping it never loses a match.
 */
export function cuedMatches(text: string, cue: RegExp, pattern: RegExp): Iterable<RegExpMatchArray> {
  return cue.test(text) ? text.matchAll(pattern) : [];
}
