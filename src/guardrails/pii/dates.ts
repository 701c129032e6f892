// Dates and times as people write them: ISO timestamps, numeric dates (2/8/1935, 16.04.2000), month
// names with a day or a year, weekdays, clock times, and a bare year from 1900 to 2099. Relative
// expressions ("next week") say nothing about a person and are left alone.
import { candidate, Strength, type Candidate } from './candidate.js';
import { tokenizeWords, type Word } from './words.js';

const MONTH = '(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\\.?';
const DAY = '(?:[12]\\d|3[01]|0?[1-9])(?:st|nd|rd|th)?';
const YEAR = '(?:1[6-9]\\d{2}|20\\d{2})';
const CLOCK = '(?:[01]?\\d|2[0-3]):[0-5]\\d(?::[0-5]\\d(?:\\.\\d{1,6})?)?(?:\\s?(?:[ap]\\.?m\\.?))?(?:\\s?(?:Z|UTC|GMT|[+-]\\d{2}:?\\d{2}))?';

/** Dates and times written with digits, each found by one pass of its expression. */
const DATE_PATTERNS: readonly { pattern: RegExp; rule: string; strength: number }[] = [
  { pattern: new RegExp(`(?<![\\p{L}\\p{N}])\\d{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\\d|3[01])(?:[T ]${CLOCK})?(?![\\p{L}\\p{N}])`, 'giu'), rule: 'date_iso', strength: Strength.shapeInContext },
  { pattern: new RegExp(`(?<![\\p{L}\\p{N}./-])(?:0?[1-9]|[12]\\d|3[01])([/.-])(?:0?[1-9]|[12]\\d|3[01])\\1(?:${YEAR}|\\d{2})(?:,?\\s${CLOCK})?(?![\\p{L}\\p{N}]|[./-]\\d)`, 'giu'), rule: 'date_numeric', strength: Strength.shapeInContext },
  { pattern: new RegExp(`(?<![\\p{L}\\p{N}:.])${CLOCK}(?![\\p{L}\\p{N}]|[:.]\\d)`, 'giu'), rule: 'time', strength: Strength.guessed },
  { pattern: /(?<![\p{L}\p{N}:.])(?:1[0-2]|0?[1-9])\s?[ap]\.?m\.?(?![\p{L}\p{N}])/giu, rule: 'time', strength: Strength.guessed },
  // A bare year: not an amount ($2014), a number in a list (#2014) nor part of a longer number.
  { pattern: /(?<![\p{L}\p{N}$€£#.,:\/-])(?:19|20)\d{2}(?:s)?(?![\p{L}\p{N}]|[.,:\/-]\d)/gu, rule: 'year', strength: Strength.guessed },
];

/*
 * Dates written with a month's name and weekdays are found from the words of the text: expressions
 * trying twelve months at every letter would cost more than all the rest of the dates.
 */
const MONTH_WORD = new RegExp(`^${MONTH.replace(/\\\.\?$/, '')}$`);
const WEEKDAY_WORD = /^(?:mon|tues?|wed(?:nes)?|thu(?:rs)?|fri|sat(?:ur)?|sun)day$/;
/** From a month's name: "March 3, 2020", "Aug. 12th", "June 1990". */
const FROM_MONTH = new RegExp(`${MONTH}\\s(?:${DAY}(?:,?\\s${YEAR})?|${YEAR})(?![\\p{L}\\p{N}])`, 'iuy');
/** Before a month's name: "3 March", "12th of Aug". */
const DAY_BEFORE_MONTH = new RegExp(`(?<![\\p{L}\\p{N}])${DAY}\\s(?:of\\s)?$`, 'iu');
const YEAR_AFTER_MONTH = new RegExp(`^\\.?,?\\s${YEAR}(?![\\p{L}\\p{N}])`, 'u');

function findDatesInWords(text: string, words: readonly Word[]): Candidate[] {
  const found: Candidate[] = [];
  for (const word of words) {
    if (WEEKDAY_WORD.test(word.lower)) {
      found.push(candidate('DATE_TIME', word.start, word.end, 'weekday', Strength.guessed));
      continue;
    }
    // "may" is more often a verb than a month: only "May" counts.
    if (!MONTH_WORD.test(word.lower) || word.text === 'may') continue;
    const day = DAY_BEFORE_MONTH.exec(text.slice(Math.max(0, word.start - 12), word.start));
    const start = word.start - (day?.[0].length ?? 0);
    FROM_MONTH.lastIndex = word.start;
    const after = day === null ? FROM_MONTH.exec(text) : null;
    if (after !== null) {
      found.push(candidate('DATE_TIME', start, word.start + after[0].length, 'date_words', Strength.shapeInContext));
      continue;
    }
    if (day === null) continue;
    const year = YEAR_AFTER_MONTH.exec(text.slice(word.end, word.end + 8));
    found.push(candidate('DATE_TIME', start, year === null ? word.end + (word.dotAfter && (word.text.length <= 3 || word.lower === 'sept') ? 1 : 0) : word.end + year[0].length, 'date_words', Strength.shapeInContext));
  }
  return found;
}

export function findDates(text: string, words: readonly Word[] = tokenizeWords(text)): Candidate[] {
  const found = findDatesInWords(text, words);
  for (const { pattern, rule, strength } of DATE_PATTERNS) {
    for (const match of text.matchAll(pattern)) found.push(candidate('DATE_TIME', match.index, match.index + match[0].length, rule, strength));
  }
  return found;
}
