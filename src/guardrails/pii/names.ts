// Names of people (PERSON), places (GPE), organisations (ORGANIZATION), nationalities and religions
// (NRP) and forms of address (TITLE): runs of capitalised words told apart by compromise's lexicon
// (lexicon.ts), the words that close them ("Inc", "Lake") and the words around them ("Mr.", "in",
// "works for"). One pass over the words of the text, a few map lookups each.
import { candidate, Strength, type Candidate } from './candidate.js';
import { HONORIFICS, lexicon, type WordClasses, TITLE_HONORIFICS } from './lexicon.js';
import { tokenizeWords, type Word } from './words.js';

/** Lower-case words inside names: "Leonardo da Vinci", "Ludwig van Beethoven", "Cité de la Musique". */
const NAME_PARTICLES = new Set(['da', 'de', 'del', 'della', 'der', 'di', 'do', 'dos', 'das', 'du', 'la', 'le', 'van', 'von', 'ten', 'ter', 'bin', 'ibn', 'al', 'el', 'y']);
/** Words before a place: "in Poznań", "travelling to Hungary", "originally from ΕΓΚΩΜΗ". */
const PLACE_CUES = new Set(['in', 'to', 'from', 'at', 'near', 'visit', 'visited', 'visiting', 'around', 'across', 'outside', 'inside', 'towards', 'via']);
/** Words before an organisation: "works for Zillow", "joined Paxata", "employed by Allianz". */
const ORGANIZATION_CUES = /\b(?:work(?:s|ed|ing)? (?:for|at|with)|join(?:s|ed|ing)?|employed (?:by|at)|hired by|company|companies|firm|startup|agency|bank|brand|client|customer of|partner(?:ed)? with|acquired|invest(?:ed)? in|support)\s$/i;
/** What a company is said to be, after its name: "Telenav is a design agency". */
const ORGANIZATION_AFTER = /^\s(?:is|was|are|were)\s(?:a|an|the)\s(?:[\p{L}-]+\s){0,3}(?:company|agency|firm|bank|startup|brand|business|corporation|multinational|organization|organisation|group|provider|manufacturer|retailer|insurer|charity|non-profit|nonprofit)\b/iu;
/** Verbs that follow a person named at the start of a sentence: "Mehrudin shouted", "Todd said". */
const PERSON_VERBS_AFTER = /^\s(?:said|says|shouted|told|tells|asked|asks|replied|answered|wrote|writes|thinks|thought|loves|loved|likes|liked|lives|lived|works|worked|went|came|called|listed|explained|added|smiled|laughed|agreed|had given|spent)\b/i;
/**
 * Three names in the way firms are named, "Hawkins, Richardson and Santana": an organisation, unless
 * one of them is a first name ("Eklund, Michael and Hodge" are people).
 */
const FIRM_NAME = /, (\p{Lu}[\p{L}\p{M}'’-]+),? (?:and|&) (\p{Lu}[\p{L}\p{M}'’-]+)(?![\p{L}\p{M}])/gu;
/** The first name of a firm's, read back from the comma (the expression starts at the comma, found fast). */
const FIRM_FIRST_NAME = /(?<![\p{L}\p{M}])\p{Lu}[\p{L}\p{M}'’-]+$/u;
/** A number before and after the words: a street ("5850 Jana Nerudy 894"), not a person. */
const NUMBER_BEFORE = /\d[\s,]{1,2}$/;
const NUMBER_AFTER = /^\s\d{1,5}(?![\p{N}])/u;

type Span = { start: number; end: number };

export function findNames(text: string, words: readonly Word[] = tokenizeWords(text)): Candidate[] {
  const found: Candidate[] = findFirmNames(text);
  let index = 0;
  while (index < words.length) {
    const word = words[index]!;
    if (isHonorificBefore(words, index)) {
      const run = nameRun(words, index + 1);
      const last = words[run - 1]!;
      // "Aunt Bertha Inc" is a firm: the honorific is part of its name.
      if (run - index > 2 && lexicon().organizationEndings.has(last.lower)) {
        found.push(named('ORGANIZATION', { start: word.start, end: last.end }, 'organization_ending'));
      } else {
        if (TITLE_HONORIFICS.has(word.lower)) found.push(candidate('TITLE', word.start, word.end + (word.dotAfter ? 1 : 0), 'honorific', Strength.shapeInContext));
        found.push(candidate('PERSON', words[index + 1]!.start, last.end, 'honorific_name', Strength.shapeInContext));
      }
      index = run;
      continue;
    }
    if (!startsName(word)) {
      index++;
      continue;
    }
    const end = nameRun(words, index);
    const classified = classifyRun(text, words, index, end);
    if (classified !== null) found.push(classified);
    index = end;
  }
  return found;
}

function findFirmNames(text: string): Candidate[] {
  const found: Candidate[] = [];
  for (const match of text.matchAll(FIRM_NAME)) {
    const first = FIRM_FIRST_NAME.exec(text.slice(Math.max(0, match.index - 40), match.index));
    if (first === null || [first[0], match[1]!, match[2]!].some((name) => lexicon().classesOf(name.toLowerCase())?.firstName === true)) continue;
    found.push(candidate('ORGANIZATION', match.index - first[0].length, match.index + match[0].length, 'firm_name', Strength.guessed));
  }
  return found;
}

function startsName(word: Word): boolean {
  return word.capitalised || isLowerCaseFirstName(word);
}

function isLowerCaseFirstName(word: Word): boolean {
  return !word.capitalised && lexicon().plainFirstNames.has(word.lower);
}

function isHonorificBefore(words: readonly Word[], index: number): boolean {
  const word = words[index]!;
  const next = words[index + 1];
  return (word.capitalised ? HONORIFICS : TITLE_HONORIFICS).has(word.lower) && next !== undefined && next.capitalised && !next.allCaps && adjoins(word, next, true);
}

/** The next word follows with one space (and the period of an abbreviation or an initial). */
function adjoins(word: Word, next: Word, dotAllowed: boolean): boolean {
  const gap = next.start - word.end;
  return gap === 1 ? next.gapBefore === ' ' : gap === 2 && dotAllowed && next.gapBefore === '. ';
}

/** The end (exclusive word index) of the run of name words from `start`. */
function nameRun(words: readonly Word[], start: number): number {
  let end = start + 1;
  const lowerCase = !words[start]!.capitalised;
  while (end < words.length && end - start < 6) {
    const previous = words[end - 1]!;
    if (previous.possessive) break;
    const next = words[end]!;
    if (!adjoins(previous, next, previous.text.length === 1)) break;
    if (next.capitalised === lowerCase) {
      // A lower-case name ("patricia desrosiers") continues with lower-case words the lexicon does not know.
      if (lowerCase) {
        if (lexiconOf(next)?.common === true) break;
      } else if (!(NAME_PARTICLES.has(next.lower) && words[end + 1]?.capitalised === true && adjoins(next, words[end + 1]!, false))) break;
    }
    end++;
  }
  return end;
}

function classifyRun(text: string, words: readonly Word[], from: number, to: number): Candidate | null {
  // Leading ordinary words are the sentence's: "The Garmin Orchestra", "Have you…", "Dear John".
  let start = from;
  while (start < to && isOrdinary(words[start]!)) start++;
  if (start === to) return null;
  const run = words.slice(start, to);
  const span: Span = { start: run[0]!.start, end: run[run.length - 1]!.end };
  const last = run[run.length - 1]!;
  const classes = run.length === 1 ? lexiconOf(run[0]!) : run.length <= lexicon().longestPhrase ? lexicon().classesOf(run.map((word) => word.lower).join(' ')) : undefined;
  // "Personal Info": what follows a capitalised ordinary word opening a sentence is as little a name.
  const atSentenceStart = words[from]!.sentenceStart;
  const before = text.slice(Math.max(0, span.start - 30), span.start);
  const after = text.slice(span.end, span.end + 80);
  if (NUMBER_BEFORE.test(before) && NUMBER_AFTER.test(after)) return null;
  if (run.length === 1 && HONORIFICS.has(last.lower)) return null;
  // A speaker in a transcript: "Ubul: What a wife."
  if (run.length === 1 && start === from && words[from]!.lineStart && after.startsWith(':') && classes?.common !== true && !classes?.place) return named('PERSON', span, 'speaker');
  const firstIsFirstName = lexiconOf(run[0]!)?.firstName === true;
  if (!firstIsFirstName && (ORGANIZATION_AFTER.test(after) || ORGANIZATION_CUES.test(before))) return named('ORGANIZATION', span, 'organization_context');

  if (run.length > 1 && lexicon().organizationEndings.has(last.lower)) return named('ORGANIZATION', span, 'organization_ending');
  if (classes?.organization === true) return named('ORGANIZATION', span, 'organization_lexicon');
  if (classes?.place === true && classes.firstName !== true) return named('GPE', span, 'place_lexicon');
  if (run.length === 1 && classes?.demonym === true) return named('NRP', span, 'nrp_lexicon');
  if (run.length > 1 && lexicon().placeEndings.has(last.lower)) return named('GPE', span, 'place_ending');

  if (run.length > 1) {
    if (run.some((word) => word.allCaps && word.text.length > 1) && !run.every((word) => word.allCaps)) return null;
    if (run.every((word) => word.allCaps)) return placeByCue(text, words, start, span);
    if (run.some((word, position) => position > 0 && word.text.length === 1)) return named('PERSON', span, 'name_initial');
    if (firstIsFirstName || lexiconOf(last)?.surname === true) return named('PERSON', span, 'name_lexicon');
    if (run.every((word) => lexiconOf(word)?.common !== true)) return named('PERSON', span, 'name_shape');
    return null;
  }

  const word = run[0]!;
  if (classes?.firstName === true || classes?.person === true || (classes?.surname === true && classes.common !== true)) return named('PERSON', span, 'name_lexicon');
  if (classes?.common === true || word.text.length < 3) return null;
  if (word.allCaps) return placeByCue(text, words, start, span);
  if (!word.capitalised) return null;
  const cue = placeByCue(text, words, start, span);
  if (cue !== null) return cue;
  if (atSentenceStart && !PERSON_VERBS_AFTER.test(after)) return null;
  return named('PERSON', span, 'name_shape');
}

/**
 * A word before a name that is not part of it: a function word ("The Garmin Orchestra", "Dear John"),
 * or an ordinary word capitalised because it opens a sentence ("Have you…"). Mid-sentence, capitalised
 * ordinary words are taken as part of a name: "Rapid Cycle Solutions".
 */
function isOrdinary(word: Word): boolean {
  if (lexicon().functionWords.has(word.lower)) return true;
  return word.sentenceStart && lexiconOf(word)?.common === true;
}

function placeByCue(text: string, words: readonly Word[], start: number, span: Span): Candidate | null {
  const before = words[start - 1];
  if (before === undefined || !PLACE_CUES.has(before.lower) || !adjoins(before, words[start]!, false)) return null;
  return named('GPE', span, 'place_context');
}

/** The lexicon's classes of a word, looked up once per word. */
function lexiconOf(word: Word): WordClasses | undefined {
  if (word.classes === undefined) word.classes = lexicon().classesOf(word.lower) ?? null;
  return word.classes ?? undefined;
}

function named(type: string, span: Span, rule: string): Candidate {
  return candidate(type, span.start, span.end, rule, Strength.guessed);
}
