// Phone numbers: one pass of a regular expression finds what is written like a phone number (digits
// in groups, a country code, an area code in brackets, an extension), and libphonenumber-js parses
// each one. Its own findNumbers() reads a 10 KB text in about 5 ms, the whole budget of a guardrail,
// and only knows one default country; parsing the few candidates costs a few microseconds each.
import { createRequire } from 'node:module';
import type { CountryCode } from 'libphonenumber-js/max';
import { candidate, saidBefore, Strength, type Candidate } from './candidate.js';

// libphonenumber-js's metadata (a few MB) is loaded when a text first holds something like a number.
let parser: typeof import('libphonenumber-js/max').parsePhoneNumberFromString | undefined;
const parsePhoneNumberFromString: typeof import('libphonenumber-js/max').parsePhoneNumberFromString = (...args) => {
  parser ??= (createRequire(import.meta.url)('libphonenumber-js/max') as typeof import('libphonenumber-js/max')).parsePhoneNumberFromString;
  return parser(...args);
};

/** Where a number without a country code is first taken to be. */
const DEFAULT_COUNTRY: CountryCode = 'US';

/**
 * Numbering plans tried for a national number that is not a US one. Almost any grouping of 7 to 12
 * digits is valid in one plan or another (Germany's alone takes most), so trying more countries
 * tells little and costs a parse each (about 13 µs): such a number counts as a phone number only
 * when it is written as one (a trunk zero, a bracketed area code, three groups or more) or when the
 * text says it is one.
 */
const OTHER_COUNTRIES: readonly CountryCode[] = ['DE', 'GB', 'FR'];

/**
 * An optional international prefix (+CC or 00CC), an optional "(0)" trunk, an optional bracketed area
 * code, then groups of digits separated by one space, dot or hyphen, and an optional extension.
 */
const PHONE =
  /(?<![\p{L}\p{N}+.\-/:])(?:(?:\+|00)\d{1,3}[ .-]?)?(?:\(0\)[ .-]?)?(?:\(\d{1,5}\)[ .-]?)?\d{1,15}(?:[ .-]\d{1,8}){0,5}(?:[ ,]{0,2}(?:x|ext\.?|extension)[ .]?\d{1,6})?(?![\p{L}\p{N}]|[.\-/:]\d)/giu;
const EXTENSION = /[ ,]{0,2}(?:x|ext\.?|extension)[ .]?\d{1,6}$/i;
/** Words that say a phone number follows, up to two short words before it: "call me on", "not answering at". */
const PHONE_WORDS = /(?:\b(?:phone|telephone|tel|mobile|cell|cellphone|fax|call|called|calling|reach|answering|text|sms|whatsapp|contact|dial|ring|office|desk|landline|hotline|registered)\b(?:\W{1,3}[\p{L}]{1,4}){0,2}|[☎📞])\W{0,4}$/iu;
const PHONE_WORDS_AFTER = /^\W{0,3}(?:phone|tel|mobile|cell|fax|office|home|work|desk)\b/i;
/** Shapes of other things made of digit groups: dates (2/8/1935, 2000-04-16, 16.04.2000), dotted quads, SSNs. */
const NOT_A_PHONE = /^(?:\d{4}[-./]\d{1,2}[-./]\d{1,2}|\d{1,2}[-./]\d{1,2}[-./]\d{2,4}|\d{1,3}(?:\.\d{1,3}){3}|\d{3}-\d{2}-\d{4})$/;

export function findPhoneNumbers(text: string): Candidate[] {
  const found: Candidate[] = [];
  for (const match of text.matchAll(PHONE)) {
    const written = match[0];
    const number = written.replace(EXTENSION, '');
    const digitCount = number.replace(/\D/g, '').length;
    if (digitCount < 7 || digitCount > 15 || NOT_A_PHONE.test(number)) continue;
    const end = match.index + written.length;
    // Read only where the number's form leaves it undecided: most numbers are judged by their digits alone.
    const spoken = () => saidBefore(text, match.index, PHONE_WORDS, 32) || PHONE_WORDS_AFTER.test(text.slice(end, end + 12));
    const judged = judgePhoneNumber(number, spoken);
    if (judged !== null) found.push(candidate('PHONE_NUMBER', match.index, end, judged.rule, judged.strength));
  }
  return found;
}

/** What libphonenumber-js says of a number: not one, a possible one (its length fits), a valid one. */
const enum Verdict {
  None,
  Possible,
  Valid,
}

/**
 * Verdicts already given, by country and number as written. Parsing and validating a number costs
 * some 20 µs and allocates a few kilobytes (the library builds its regular expressions on every call);
 * a streamed answer is read again in overlapping windows, and the same numbers recur from answer to
 * answer (a support line, a customer's number). Bounded: emptied when full.
 */
const verdicts = new Map<string, Verdict>();
const VERDICTS_KEPT = 2_000;

/** `country` undefined: the number carries its own (+CC). Only the number is parsed (extract: false). */
function phoneVerdict(number: string, country: CountryCode | undefined): Verdict {
  const key = `${country ?? '+'} ${number}`;
  let verdict = verdicts.get(key);
  if (verdict === undefined) {
    const parsed = parsePhoneNumberFromString(number, { defaultCountry: country, extract: false });
    verdict = parsed?.isValid() ? Verdict.Valid : parsed?.isPossible() ? Verdict.Possible : Verdict.None;
    if (verdicts.size >= VERDICTS_KEPT) verdicts.clear();
    verdicts.set(key, verdict);
  }
  return verdict;
}

function judgePhoneNumber(number: string, isSpoken: () => boolean): { rule: string; strength: number } | null {
  if (/^(?:\+|00)/.test(number)) {
    const verdict = phoneVerdict(number.replace(/^00/, '+'), undefined);
    if (verdict === Verdict.Valid) return { rule: 'phone_international', strength: Strength.checked };
    if (verdict === Verdict.Possible && isSpoken()) return { rule: 'phone_international', strength: Strength.shapeInContext };
    return null;
  }
  const spoken = isSpoken();
  const digits = number.replace(/\D/g, '');
  const grouping = phoneGrouping(number);
  // A US number has ten digits (eleven with the leading 1): other lengths are not parsed as one.
  const usLength = digits.length === 10 || (digits.length === 11 && digits.startsWith('1'));
  if (usLength && (spoken || grouping !== 'none') && phoneVerdict(number, DEFAULT_COUNTRY) === Verdict.Valid) {
    return { rule: 'phone_us', strength: spoken || grouping === 'strong' ? Strength.checked : Strength.shapeInContext };
  }
  // Said to be a phone number and of a phone number's length: taken without knowing the country.
  if (spoken) return { rule: 'phone_context', strength: Strength.shapeInContext };
  if (grouping !== 'strong' || !OTHER_COUNTRIES.some((code) => phoneVerdict(number, code) === Verdict.Valid)) return null;
  return { rule: 'phone_national', strength: Strength.guessed };
}

/**
 * How much the writing says "phone number": strongly a bracketed area code, a trunk zero before
 * groups, or three groups or more of two to four digits; weakly two groups; not at all a plain run
 * of digits (an order number, an amount) or thousands separators ("1 250 000").
 */
function phoneGrouping(number: string): 'strong' | 'weak' | 'none' {
  if (number.includes('(')) return 'strong';
  const groups = number.split(/[ .-]/);
  if (groups.length === 1) return 'none';
  if (groups.length >= 3 && /^[1-9]\d{0,2}$/.test(groups[0]!) && groups.slice(1).every((group) => group.length === 3)) return 'none';
  if (number.startsWith('0') || (groups.length >= 3 && groups.every((group) => group.length >= 2 && group.length <= 4))) return 'strong';
  return 'weak';
}
