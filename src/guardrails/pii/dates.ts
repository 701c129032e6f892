// Dates and times as people write them: ISO timestamps, numeric dates (2/8/1935, 16.04.2000), month
// names with a day or a year, weekdays, clock times, and a bare year from 1900 to 2099. Relative
// expressions ("next week") say nothing about a person and are left alone.
import { candidate, Strength, type Candidate } from './candidate.js';

const MONTH = '(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\\.?';
const DAY = '(?:[12]\\d|3[01]|0?[1-9])(?:st|nd|rd|th)?';
const YEAR = '(?:1[6-9]\\d{2}|20\\d{2})';
const CLOCK = '(?:[01]?\\d|2[0-3]):[0-5]\\d(?::[0-5]\\d(?:\\.\\d{1,6})?)?(?:\\s?(?:[ap]\\.?m\\.?))?(?:\\s?(?:Z|UTC|GMT|[+-]\\d{2}:?\\d{2}))?';

const DATE_PATTERNS: readonly { pattern: RegExp; rule: string; strength: number }[] = [
  { pattern: new RegExp(`(?<![\\p{L}\\p{N}])\\d{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\\d|3[01])(?:[T ]${CLOCK})?(?![\\p{L}\\p{N}])`, 'giu'), rule: 'date_iso', strength: Strength.shapeInContext },
  { pattern: new RegExp(`(?<![\\p{L}\\p{N}./-])(?:0?[1-9]|[12]\\d|3[01])([/.-])(?:0?[1-9]|[12]\\d|3[01])\\1(?:${YEAR}|\\d{2})(?:,?\\s${CLOCK})?(?![\\p{L}\\p{N}]|[./-]\\d)`, 'giu'), rule: 'date_numeric', strength: Strength.shapeInContext },
  { pattern: new RegExp(`(?<![\\p{L}\\p{N}])${MONTH}\\s${DAY}(?:,?\\s${YEAR})?(?![\\p{L}\\p{N}])`, 'giu'), rule: 'date_words', strength: Strength.shapeInContext },
  { pattern: new RegExp(`(?<![\\p{L}\\p{N}])${DAY}\\s(?:of\\s)?${MONTH}(?:,?\\s${YEAR})?(?![\\p{L}\\p{N}])`, 'giu'), rule: 'date_words', strength: Strength.shapeInContext },
  { pattern: new RegExp(`(?<![\\p{L}\\p{N}])${MONTH}\\s${YEAR}(?![\\p{L}\\p{N}])`, 'giu'), rule: 'date_words', strength: Strength.shapeInContext },
  { pattern: /(?<![\p{L}\p{N}])(?:mon|tues?|wed(?:nes)?|thu(?:rs)?|fri|sat(?:ur)?|sun)day(?![\p{L}\p{N}])/giu, rule: 'weekday', strength: Strength.guessed },
  { pattern: new RegExp(`(?<![\\p{L}\\p{N}:.])${CLOCK}(?![\\p{L}\\p{N}]|[:.]\\d)`, 'giu'), rule: 'time', strength: Strength.guessed },
  { pattern: /(?<![\p{L}\p{N}:.])(?:1[0-2]|0?[1-9])\s?[ap]\.?m\.?(?![\p{L}\p{N}])/giu, rule: 'time', strength: Strength.guessed },
  // A bare year: not an amount ($2014), a number in a list (#2014) nor part of a longer number.
  { pattern: /(?<![\p{L}\p{N}$€£#.,:\/-])(?:19|20)\d{2}(?:s)?(?![\p{L}\p{N}]|[.,:\/-]\d)/gu, rule: 'year', strength: Strength.guessed },
];

export function findDates(text: string): Candidate[] {
  const found: Candidate[] = [];
  for (const { pattern, rule, strength } of DATE_PATTERNS) {
    for (const match of text.matchAll(pattern)) {
      // "may 5" is more often a verb than a month: a month written in lower case only after a day.
      if (rule === 'date_words' && /^may\b/.test(match[0])) continue;
      found.push(candidate('DATE_TIME', match.index, match.index + match[0].length, rule, strength));
    }
  }
  return found;
}
