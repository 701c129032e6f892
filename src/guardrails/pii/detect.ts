// PII in a text: character offsets (UTF-16 code units, as JavaScript strings index) of each entity
// found, sorted by start, overlaps resolved (resolve.ts). Pure and synchronous: a guardrail runs it on
// each stretch of a streamed answer. How each type is found: docs/pii.md.
import { FoldedText } from '../folded-text.js';
import type { Finding } from '../guardrail.js';
import { readingForm } from '../reading-form.js';
import { findAddresses } from './address.js';
import type { Candidate } from './candidate.js';
import { findDates } from './dates.js';
import { findNames } from './names.js';
import { findAges, findDriverLicences, findPostcodes } from './numbers-in-context.js';
import { findPhoneNumbers } from './phone.js';
import { resolveOverlaps } from './resolve.js';
import { findCards, findDomains, findEmails, findIbans, findIpAddresses, findSsns } from './structured.js';
import { tokenizeWords, type Word } from './words.js';

/** Each recognizer and the entity types it may report. */
const RECOGNIZERS: readonly { types: readonly string[]; find: (text: string, words: readonly Word[]) => Candidate[] }[] = [
  { types: ['EMAIL_ADDRESS'], find: findEmails },
  { types: ['DOMAIN_NAME'], find: findDomains },
  { types: ['CREDIT_CARD'], find: findCards },
  { types: ['IBAN_CODE'], find: findIbans },
  { types: ['US_SSN'], find: findSsns },
  { types: ['IP_ADDRESS'], find: findIpAddresses },
  { types: ['PHONE_NUMBER'], find: findPhoneNumbers },
  { types: ['DATE_TIME'], find: findDates },
  { types: ['AGE'], find: findAges },
  { types: ['ZIP_CODE'], find: findPostcodes },
  { types: ['US_DRIVER_LICENSE'], find: findDriverLicences },
  { types: ['STREET_ADDRESS'], find: findAddresses },
  { types: ['PERSON', 'GPE', 'ORGANIZATION', 'NRP', 'TITLE'], find: findNames },
];

/** The entity types the detector finds, named as Presidio names them. */
export const PII_ENTITY_TYPES: readonly string[] = RECOGNIZERS.flatMap((recognizer) => recognizer.types);

/**
 * The most characters a streaming filter holds back so that an entity cut across two pieces is still
 * found whole. An entity is at most 160 characters long (a street address with its flat, town, region,
 * postcode and country, house numbers before it included; other entities are shorter), and what
 * decides it lies within 40 characters before it ("card", "SSN:", "Mr.", "in") and 80 after its
 * start's word run ("… is a design agency"). A finding that starts at least this many characters before
 * the end of what has arrived, read with this many characters before it, is what a whole reading finds.
 */
export const PII_HOLD_BACK = 256;

/**
 * The PII in `text`, read as a person reads it (reading-form.ts: zero-width characters dropped,
 * fullwidth forms and digits of every script read as ASCII, look-alike letters as Latin ones), offsets
 * into `text`; a finding covers the invisible characters inside it and attached to its end.
 * Optionally only of the given entity types (unknown names match nothing). Findings are sorted by
 * start and never overlap: where candidates overlap, the one confirmed by a validator wins, then the
 * longest.
 */
export function detectPii(text: string, entities?: readonly string[]): Finding[] {
  const read = new FoldedText(readingForm);
  read.append(text);
  read.finish();
  return detectPiiInReading(read.text, entities).map((finding) => ({ ...finding, start: read.originalStart(finding.start), end: read.originalEnd(finding.end - 1) }));
}

/**
 * detectPii on a text already read (reading-form.ts), offsets into that reading: what the guardrail
 * runs on each window of a stream's reading. The recognizers expect its ASCII digits, '-' dashes, one
 * space or line break between words, and no invisible characters.
 */
export function detectPiiInReading(text: string, entities?: readonly string[]): Finding[] {
  const candidates: Candidate[] = [];
  // The words are read once, for the recognizers that start from words (names, street types).
  const words = tokenizeWords(text);
  for (const recognizer of RECOGNIZERS) candidates.push(...recognizer.find(text, words));
  // Every type is looked for, and the types left out dropped after overlaps are resolved: a card
  // number is not reported as a phone number because only phone numbers were asked for.
  const findings = resolveOverlaps(candidates);
  if (entities === undefined) return findings;
  const wanted = new Set(entities);
  return findings.filter((finding) => wanted.has(finding.entity_type));
}
