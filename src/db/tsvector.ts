// A chunk's tsvector on PostgreSQL, written by the server as tsvector text. It is the value of
//   setweight(to_tsvector('simple', search_title), 'A') || setweight(to_tsvector('simple', search_heading), 'B') || to_tsvector('simple', search_body)
// which a generated column computed until PostgreSQL's parser, splitting the fields again into the
// terms the analyser had made, was four fifths of what inserting a chunk cost (docs/performance.md).
// Each term is one word to that parser, and the limits of to_tsvector and `||` are kept here as they
// keep them, so that the value is the same to the byte (test/tsvector.test.ts).
import type { SearchTerms } from '../search/analyzer.js';

/** Positions past this one are written as it (LIMITPOS). */
const LAST_POSITION = 16_383;
/** Positions to_tsvector keeps of one word in one text. */
const POSITIONS_PER_TEXT = 255;
/** Positions `||` keeps of one word. */
const POSITIONS_PER_WORD = 256;

/** One word of the tsvector. */
interface Word {
  /** Its positions written so far, as tsvector text, how many, and the last one. */
  places: string;
  count: number;
  last: number;
  /** The field last read it (an index in SIDES), its places kept there and the last of them. */
  field: number;
  inField: number;
  lastPlace: number;
}

/** Characters tsvector and tsquery text escape in a word (the analyser's terms have none). */
const ESCAPED = /['\\]/;

/** A word as tsvector and tsquery text write it: quoted, taken as it is (no parser, no dictionary). */
export function quotedWord(term: string): string {
  return `'${ESCAPED.test(term) ? term.replaceAll('\\', '\\\\').replaceAll("'", "''") : term}'`;
}

const SIDES = [
  ['title', 'A'],
  ['heading', 'B'],
  ['body', ''],
] as const;

/** The tsvector text of a chunk's terms. */
export function tsvectorOf(terms: SearchTerms): string {
  const words = new Map<string, Word>();
  // `||` adds to the positions of its right side the last position written on its left.
  let last = 0;
  SIDES.forEach(([name, weight], field) => {
    const shift = last;
    const side = terms[name];
    for (let index = 0; index < side.length; index++) {
      const term = side[index]!;
      const place = Math.min(index + 1, LAST_POSITION);
      const position = Math.min(place + shift, LAST_POSITION);
      const word = words.get(term);
      if (word === undefined) words.set(term, { places: `${position}${weight}`, count: 1, last: position, field, inField: 1, lastPlace: place });
      else {
        if (word.field !== field) {
          word.field = field;
          word.inField = 0;
        } else if (word.inField === POSITIONS_PER_TEXT || word.lastPlace === place) {
          // to_tsvector's limit, or a place past the last position: every such place is the last one, kept once.
          continue;
        }
        word.inField++;
        word.lastPlace = place;
        if (word.count === POSITIONS_PER_WORD || word.last === position) continue;
        word.places += `,${position}${weight}`;
        word.count++;
        word.last = position;
      }
      if (position > last) last = position;
    }
  });
  let text = '';
  for (const [term, word] of words) text += `${text === '' ? '' : ' '}${quotedWord(term)}:${word.places}`;
  return text;
}
