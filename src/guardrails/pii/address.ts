// Street addresses: a street found by its shape, in the ways many countries write one ("14 Crown
// Street", "Rua do Arenque 1634", "Koskikatu 25", "Erzsébet tér 19.", "Suite 245"), then widened to
// what goes with it: house numbers before, flat and suite, and the lines or comma-separated parts
// after it that look like a town, a region, a postcode or a country.
import { candidate, cuedMatches, Strength, type Candidate } from './candidate.js';
import { tokenizeWords, type Word } from './words.js';

const CAP = "[\\p{Lu}][\\p{L}\\p{M}'’.-]*";
const WORDISH = "[\\p{L}][\\p{L}\\p{M}'’.-]*";
/** Words as addresses write them, capitalised or in capitals ("Street", "STREET"). */
function capitalisedForms(words: string): string[] {
  return words.split('|').flatMap((word) => [word[0]!.toUpperCase() + word.slice(1), word.toUpperCase()]);
}

/** Alternatives of a regular expression for those forms. */
function capitalised(words: string): string {
  return `(?:${capitalisedForms(words).join('|')})`;
}

/** Street types written after the name in English, French and Spanish speaking countries. */
const STREET_AFTER_WORDS = new Set(capitalisedForms(
  'street|st|road|rd|avenue|ave|av|lane|ln|drive|dr|boulevard|blvd|way|court|ct|place|pl|square|squares|terrace|crescent|close|grove|gardens|parkway|pkwy|highway|hwy|row|walk|hill|circle|cir|trail|trl|gateway|fort|mews|rise|park|heights|green|parade|plaza|loop|path|pike|alley|wharf|quay|common|commons|station|tunnel|vale|view|villas|ridge|run|pass|point|port|estate|landing|junction|spur|fields|meadows',
));
/** Street types written before the name: Rua, Avenida, Rue, Via, Calle, Piazza, Ulica… */
const STREET_BEFORE_LIST = 'rua|avenida|rue|via|viale|calle|carrera|piazza|plaza|praça|largo|travessa|ulica|aleja|avenue|boulevard|chemin|route|allée|place|camino|paseo|estrada|strada|corso|bulevar|cesta|ulice|náměstí|trg';
const STREET_BEFORE = `(?:${capitalised(STREET_BEFORE_LIST)}|Av\\.|Avda\\.|Ul\\.|ul\\.|Al\\.)`;
const STREET_BEFORE_WORDS = new Set([...capitalisedForms(STREET_BEFORE_LIST), 'Av', 'Avda', 'Ul', 'ul', 'Al']);
/** Endings of a street's name written as one word: Fagradalsbraut, Søndergade, Koskikatu, Populierenstraat. */
const STREET_SUFFIX =
  '(?:straße|strasse|str\\.|gasse|weg|allee|platz|ring|damm|ufer|chaussee|vej|gade|vænget|stræde|allé|torv|gatan|vägen|väg|gränd|torget|stigen|katu|tie|kuja|polku|raitti|straat|laan|gracht|plein|kade|singel|steeg|dreef|utca|út|tér|sor|körút|veien|vegen|gata|vollen|braut|stígur|vegur|gata|ulica|ulice|cesta|tänav|tee|iela|gatve|sokak|caddesi|bulvar)';
const HOUSE_NUMBER = '\\d{1,5}[A-Za-z]?';
const UNIT_LIST = 'apt|apartment|suite|ste|unit|flat|floor|room|box';
const UNIT = `(?:${capitalised(UNIT_LIST)}|apt|suite)\\.?\\s?#?\\s?\\d{1,5}[A-Za-z]?`;
const UNIT_WORDS = new Set([...capitalisedForms(UNIT_LIST), 'apt', 'suite']);

/*
 * Streets found from their street-type word, looked up among the words of the text: expressions
 * trying tens of street types at every capital letter would cost most of a millisecond on 10 KB.
 */
/** Before "Street": a house number and up to three capitalised words ("14 Crown", "25 Dili Gianni"). */
const BEFORE_STREET_TYPE = new RegExp(`(?<![\\p{L}\\p{N}])${HOUSE_NUMBER}\\s(?:${CAP}\\s){0,3}$`, 'u');
/** From "Rua": the street's name, up to four words, and a house number ("Rua do Arenque 1634"). */
const FROM_STREET_TYPE = new RegExp(`${STREET_BEFORE}\\s(?:${WORDISH}\\s){0,3}(?:${CAP}|\\d{1,5}[A-Za-z]?)(?:,?\\s${HOUSE_NUMBER}(?![\\p{L}\\p{N}]))?`, 'uy');
/** From "Apt", "Suite", "Box": the flat's number; "P.O." before "Box". */
const FROM_UNIT = new RegExp(`${UNIT}(?![\\p{L}\\p{N}])`, 'uy');
const POST_OFFICE_BEFORE = /P\.?\s?O\.?\s?$/;
/** A house number or postcode, capitalised words, a number: "5850 Jana Nerudy 894", "641 Dašická 688". */
const WORDS_BETWEEN_NUMBERS = new RegExp(`(?<![\\p{L}\\p{N}])\\d{1,6}\\s(?:${CAP}\\s){1,3}${HOUSE_NUMBER}(?![\\p{L}\\p{N}]|[.,]\\d)`, 'gu');

/**
 * A word then a house number ("Søndergade 52"), a street when the word ends like a street's name. The
 * ending is tested on the word alone: one expression trying every ending at every letter of the text
 * would take several milliseconds on 10 KB.
 */
// The white space first, then what stands before it: the look-behind is tried only after a space.
const NUMBER_AFTER_WORD = new RegExp(`\\s(?<=[\\p{L}.]\\s)${HOUSE_NUMBER}\\.?(?![\\p{L}\\p{N}])`, 'gu');
const WORD_BEFORE_NUMBER = /(?:[\p{L}\p{M}]{3,}|u\.)$/u;
const STREET_NAME_ENDING = new RegExp(`${STREET_SUFFIX}$`, 'iu');
/** The capitalised words before a street's own name: "Brucker Bundesstrasse 31", "Piroska u. 97." */
const NAME_WORDS_BEFORE = new RegExp(`(?:${CAP}\\s){1,2}$`, 'u');

/** After an address-announcing phrase, house numbers then capitalised words are a street: "located at 971 Kesk 53". */
const CUED_STREET = new RegExp(
  `\\b(?:address(?: is)?|live[sd]? (?:at|on)|living at|located at|send (?:it |them )?to|ship (?:it |them )?to|deliver(?:ed)? to|return (?:it )?to|arrived at|meet me at|taxi to|moved to|resides? at)\\W{1,3}((?:${HOUSE_NUMBER}\\s){1,2}(?:${CAP}\\s?){1,3}(?:\\s${HOUSE_NUMBER})?)(?![\\p{L}\\p{N}])`,
  'dgiu',
);

const STREET_CUE = /address|liv|locat|send|ship|deliver|return|arrived|meet me|taxi|moved|reside/iu;

/** One part of an address after the street: a town, a region code, a postcode, a country, "(Greek)". */
const TAIL_PART = new RegExp(`^(?:${UNIT}|${CAP}(?:\\s(?:${CAP}|de|da|do|la|le|\\(${CAP}\\)))*|[\\p{Lu}]{2,3}|\\d{3,6}(?:[- ]\\d{2,4})?|nan)`, 'u');
/** What may separate the parts of an address: a comma, a line break, spaces. */
const TAIL_SEPARATOR = /^(?:[ \t]*[,\n][ \t>]*(?:\n[ \t>]*)?|[ \t]+)/;
const MAX_ADDRESS_LENGTH = 160;

export function findAddresses(text: string, words: readonly Word[] = tokenizeWords(text)): Candidate[] {
  const found: Candidate[] = [];
  for (const word of words) {
    const span = streetFromWord(text, word);
    if (span !== null) found.push(widen(text, span[0], span[1], 'street_shape'));
  }
  for (const match of text.matchAll(WORDS_BETWEEN_NUMBERS)) found.push(widen(text, match.index, match.index + match[0].length, 'street_shape'));
  // Numbers after a word are far fewer than words: each is found, then the word before it read.
  for (const match of text.matchAll(NUMBER_AFTER_WORD)) {
    const wordMatch = WORD_BEFORE_NUMBER.exec(text.slice(Math.max(0, match.index - 40), match.index));
    if (wordMatch === null) continue;
    const word = wordMatch[0];
    const wordStart = match.index - word.length;
    // "u." (utca) and the Hungarian street words follow the street's name; other endings are part of it.
    const abbreviated = word === 'u.' || /^(?:utca|út|tér|körút|sor)$/.test(word);
    if (!abbreviated && !STREET_NAME_ENDING.test(word)) continue;
    const before = NAME_WORDS_BEFORE.exec(text.slice(Math.max(0, wordStart - 40), wordStart));
    if (abbreviated && before === null) continue;
    const start = wordStart - (abbreviated || /^\p{Lu}/u.test(word) ? (before?.[0].length ?? 0) : 0);
    found.push(widen(text, start, match.index + match[0].length, 'street_shape'));
  }
  for (const match of cuedMatches(text, STREET_CUE, CUED_STREET)) {
    const [start, end] = match.indices![1]!;
    found.push(widen(text, start, end, 'street_context'));
  }
  return found;
}

/** The street a street-type or flat word belongs to, as [start, end), or null. */
function streetFromWord(text: string, word: Word): [number, number] | null {
  if (STREET_AFTER_WORDS.has(word.text)) {
    const before = BEFORE_STREET_TYPE.exec(text.slice(Math.max(0, word.start - 80), word.start));
    return before === null ? null : [word.start - before[0].length, word.end + (word.dotAfter ? 1 : 0)];
  }
  const sticky = STREET_BEFORE_WORDS.has(word.text) ? FROM_STREET_TYPE : UNIT_WORDS.has(word.text) ? FROM_UNIT : null;
  if (sticky === null) return null;
  sticky.lastIndex = word.start;
  const match = sticky.exec(text);
  if (match === null) return null;
  const postOffice = word.lower === 'box' ? POST_OFFICE_BEFORE.exec(text.slice(Math.max(0, word.start - 8), word.start)) : null;
  return [word.start - (postOffice?.[0].length ?? 0), word.start + match[0].length];
}

function widen(text: string, start: number, end: number, rule: string): Candidate {
  // House numbers and postcodes written before the street: "94941 2505 Heatherleigh".
  const before = /(?:\d{1,6}\s){1,2}$/.exec(text.slice(Math.max(0, start - 14), start));
  if (before !== null) start -= before[0].length;
  let parts = 0;
  while (parts < 6) {
    const rest = text.slice(end, end + 60);
    const separator = TAIL_SEPARATOR.exec(rest);
    if (separator === null) break;
    const part = TAIL_PART.exec(rest.slice(separator[0].length));
    if (part === null || part[0].length === 0 || !belongsToAddress(part[0], separator[0])) break;
    // The whole address stays within PII_HOLD_BACK's bound (detect.ts): what would pass it is left out.
    if (end + separator[0].length + part[0].length - start > MAX_ADDRESS_LENGTH) break;
    end += separator[0].length + part[0].length;
    parts++;
  }
  return candidate('STREET_ADDRESS', start, end, rule, Strength.guessed);
}

/**
 * After a space only, a part must look like an address's (a number, a region code, a flat): a
 * capitalised word after "14 Crown Street " may be the next sentence. After a comma or a line break,
 * capitalised words are taken as the town or the country.
 */
function belongsToAddress(part: string, separator: string): boolean {
  if (/[,\n]/.test(separator)) return /^(?:\p{Lu}|\d|nan$)/u.test(part);
  return /^(?:\d|[\p{Lu}]{2,3}$|apt|suite|ste|unit|flat|p\.?\s?o)/iu.test(part) || /^\p{Lu}{4,}/u.test(part);
}
