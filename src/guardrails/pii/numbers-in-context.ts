// Numbers that are personal only by what the text says of them: an age ("a 79 year old", "turned 47",
// "aged 31"), a postcode ("ZIP: 8592", "QC 54256"), a driver's licence number. Bare, such numbers
// are anything at all, so each is taken only beside the words that name it.
import { candidate, cuedMatches, Strength, type Candidate } from './candidate.js';

/** The number is group 1 of each pattern; only it is the finding. Each with a word every match of it contains. */
const AGE_PATTERNS: readonly { cue: RegExp; pattern: RegExp }[] = [
  { cue: /old/iu, pattern: /(?<![\p{L}\p{N}.,])(\d{1,3})(?:[- ]|\s?-\s?)(?:years?|yrs?)(?:[- ]|\s?-\s?)old\b/dgiu },
  { cue: /\d\s?y[/.o]/iu, pattern: /(?<![\p{L}\p{N}.,])(\d{1,3})\s?(?:y\/o|y\.o\.|yo)(?![\p{L}\p{N}])/dgiu },
  { cue: /age(?:d|\sof|\sis|:)?\s\d/iu, pattern: /\b(?:aged?|age of|age is|age:)\s(\d{1,3})(?![\p{L}\p{N}]|[.,]\d)/dgiu },
  { cue: /turn/iu, pattern: /\b(?:turn|turns|turned|turning)\s(\d{1,3})(?![\p{L}\p{N}]|[.,:]\d|\s?(?:%|percent|degrees|times|pages|minutes|hours|days|weeks|months|miles|km))/dgiu },
  { cue: /when|since/iu, pattern: /\b(?:when|since)\s(?:he|she|I|they|we)\s(?:was|were|am|is)\s(\d{1,3})(?![\p{L}\p{N}]|[.,:]\d|\s?(?:%|percent|minutes|hours|days|weeks|months|miles|km|dollars))/dgiu },
  { cue: /birthday/iu, pattern: /(?<![\p{L}\p{N}])(\d{1,3})(?:st|nd|rd|th)\sbirthday\b/dgiu },
];

export function findAges(text: string): Candidate[] {
  const found: Candidate[] = [];
  for (const { cue, pattern } of AGE_PATTERNS) {
    for (const match of cuedMatches(text, cue, pattern)) {
      const [start, end] = match.indices![1]!;
      if (Number(match[1]) <= 125) found.push(candidate('AGE', start, end, 'age_context', Strength.shapeInContext));
    }
  }
  return found;
}

/** Postcodes of many countries: digits (8592, 90010-170, 840 24) or letters and digits (SW1A 1AA, K1A 0B1). */
const POSTCODE_AFTER_WORDS =
  /\b(?:zip|zip ?code|postal ?code|post ?code|postcode|plz|cep)\b\W{0,4}(?:is\W{0,2})?(\d{3,5}(?:[- ]\d{2,4})?|[A-Z]{1,2}\d[A-Z\d]?\s?\d[A-Z]{2}|[A-Z]\d[A-Z]\s?\d[A-Z]\d)(?![\p{L}\p{N}]|-\d)/dgiu;
const POSTCODE_CUE = /zip|postal|post ?code|plz|cep/iu;
/**
 * A region's two capitals then a US or Canadian style code closing a line: "Aalborg NO 9100", "QC 54256".
 * The look-behind (a letter or comma and a space before the capitals) comes after the first capital, so
 * that it is tried only where a capital stands rather than at every position.
 */
const REGION_THEN_CODE = /[A-Z](?<=[\p{L},] [A-Z])[A-Z] (\d{4,5}(?:-\d{4})?)(?=\s*$|\s*[\n,.;)])/dgmu;

export function findPostcodes(text: string): Candidate[] {
  const found: Candidate[] = [];
  for (const match of cuedMatches(text, POSTCODE_CUE, POSTCODE_AFTER_WORDS)) {
    const [start, end] = match.indices![1]!;
    found.push(candidate('ZIP_CODE', start, end, 'zip_context', Strength.shapeInContext));
  }
  for (const match of text.matchAll(REGION_THEN_CODE)) {
    const [start, end] = match.indices![1]!;
    found.push(candidate('ZIP_CODE', start, end, 'zip_after_region', Strength.guessed));
  }
  return found;
}

/** Licence numbers: letters and digits (and hyphens) with at least four digits, as the US states issue them. */
const LICENCE_AFTER_WORDS =
  /(?:\b(?:driver'?s'?|drivers|driving)\s+licen[cs]e(?:\s+(?:number|no\.?|#|id))?|\b(?:DL|DLN)\s?(?:#|no\.?|number)?)\W{0,4}(?:is\W{0,2}|was\W{0,2})?([A-Z0-9][A-Z0-9-]{3,18}[A-Z0-9])(?![\p{L}\p{N}]|-\w)/dgiu;

const LICENCE_CUE = /licen[cs]e|dl/iu;

export function findDriverLicences(text: string): Candidate[] {
  const found: Candidate[] = [];
  for (const match of cuedMatches(text, LICENCE_CUE, LICENCE_AFTER_WORDS)) {
    const [start, end] = match.indices![1]!;
    if ((match[1]!.match(/\d/g)?.length ?? 0) >= 4) found.push(candidate('US_DRIVER_LICENSE', start, end, 'licence_context', Strength.checked));
  }
  return found;
}
