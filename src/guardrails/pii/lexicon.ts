// Word lists for names, places and organisations, taken from compromise's English lexicon (shipped in
// its npm package: some 3,000 first names, 900 surnames, 1,000 cities, countries and regions, 350
// organisations, 250 demonyms), the 39,000 lower-case words of the English Hunspell dictionary (words
// that are no names: "Desk", "Wisdom", "Treaty" capitalised are ordinary words) and the English stop
// words, plus the short lists below. Running compromise's own tagger costs about 90 ms for 10 KB of
// text, twenty times the budget of a whole guardrail, so only its lexicon is used, by the fast tagger
// in names.ts.
//
// Reading those packages takes most of a second and tens of MB (compromise unpacks its whole model):
// the build reads them once and writes the tables to a file beside this module's build
// (lexicon-tables.ts), which a start then reads in a few milliseconds. Without that file (a run from
// the sources, or packages changed since the build), the tables are read from the packages.
import { CLASS_BIT, CLASS_BITS, tablesOfLexicon, type LexiconTables } from './lexicon-tables.js';

/** What a lower-cased word or phrase may be; a word may be several (jordan: a first name and a country). */
export interface WordClasses {
  firstName: boolean;
  surname: boolean;
  person: boolean;
  place: boolean;
  organization: boolean;
  demonym: boolean;
  /** An ordinary English word (a verb, an adjective, a function word…): capitalised, it starts a sentence. */
  common: boolean;
}

/** Nationalities, religions and political groups (NRP) beyond compromise's demonyms. */
const GROUPS = [
  'english', 'british', 'irish', 'scottish', 'welsh', 'french', 'spanish', 'polish', 'danish', 'finnish', 'swedish', 'norwegian', 'icelandic', 'dutch',
  'flemish', 'german', 'austrian', 'swiss', 'italian', 'portuguese', 'greek', 'cypriot', 'czech', 'slovak', 'slovenian', 'slovene', 'croatian', 'serbian',
  'bosnian', 'hungarian', 'romanian', 'bulgarian', 'russian', 'ukrainian', 'belarusian', 'estonian', 'latvian', 'lithuanian', 'turkish', 'kurdish',
  'arab', 'arabic', 'persian', 'iranian', 'israeli', 'jewish', 'muslim', 'christian', 'catholic', 'protestant', 'orthodox', 'hindu', 'buddhist', 'sikh',
  'atheist', 'mormon', 'evangelical', 'lutheran', 'anglican', 'baptist', 'methodist', 'sunni', 'shia', 'shiite', 'democrat', 'democrats', 'republican',
  'republicans', 'socialist', 'communist', 'conservative', 'liberal', 'libertarian', 'greenlander', 'greenlandic', 'faroese', 'maltese', 'luxembourgish',
  'albanian', 'macedonian', 'montenegrin', 'georgian', 'armenian', 'azerbaijani', 'kazakh', 'uzbek', 'chinese', 'japanese', 'korean', 'vietnamese',
  'thai', 'filipino', 'indonesian', 'malaysian', 'indian', 'pakistani', 'bangladeshi', 'nepali', 'sri lankan', 'afghan', 'iraqi', 'syrian', 'lebanese',
  'egyptian', 'moroccan', 'algerian', 'tunisian', 'libyan', 'nigerian', 'ghanaian', 'kenyan', 'ethiopian', 'somali', 'south african', 'american',
  'canadian', 'mexican', 'brazilian', 'argentinian', 'argentine', 'chilean', 'peruvian', 'colombian', 'venezuelan', 'uruguayan', 'paraguayan',
  'bolivian', 'ecuadorian', 'cuban', 'jamaican', 'haitian', 'australian', 'new zealander', 'kiwi', 'belgian', 'latino', 'latina', 'hispanic',
];

/** Countries and regions compromise leaves out or spells otherwise. */
const MORE_PLACES = ['united states', 'usa', 'united kingdom', 'uk', 'czech republic', 'czechia', 'the netherlands', 'new zealand', 'south africa', 'south korea', 'north korea', 'cyprus', 'greenland', 'faroe islands', 'iceland', 'europe', 'asia', 'africa', 'scandinavia'];

/** Words that end an organisation's name (Inc, Group, Bank…), beyond compromise's organisation words. */
const MORE_ORGANIZATION_ENDINGS = ['inc', 'inc.', 'llc', 'ltd', 'ltd.', 'plc', 'corp', 'corp.', 'corporation', 'incorporated', 'company', 'co.', 'gmbh', 'ag', 'sa', 'nv', 'bv', 'ab', 'as', 'oy', 'spa', 'srl', 'group', 'holdings', 'partners', 'solutions', 'technologies', 'technology', 'systems', 'labs', 'insurance', 'bioscience', 'biosciences', 'pharmaceuticals', 'ventures', 'enterprises', 'industries', 'consulting', 'analytics', 'software', 'networks', 'media', 'studios', 'foundation', 'institute', 'university', 'orchestra', 'magazine', 'weekly', 'times', 'news'];

/** Honorifics and forms of address before a name (TITLE). */
export const HONORIFICS = new Set(['mr', 'mrs', 'ms', 'miss', 'mx', 'dr', 'prof', 'professor', 'sir', 'dame', 'lady', 'lord', 'madam', 'madame', 'mme', 'mlle', 'monsieur', 'herr', 'frau', 'señor', 'señora', 'sr', 'sra', 'rev', 'reverend', 'fr', 'father', 'sister', 'brother', 'capt', 'captain', 'col', 'gen', 'lt', 'sgt', 'hon', 'judge', 'president', 'senator', 'governor', 'mayor', 'officer', 'detective', 'nurse', 'uncle', 'aunt']);
/** The honorifics that are a TITLE by themselves; "sister" or "president" before a name are left to the name. */
export const TITLE_HONORIFICS = new Set(['mr', 'mrs', 'ms', 'miss', 'mx', 'dr', 'prof', 'sir', 'dame', 'madam', 'mme', 'mlle', 'rev', 'capt', 'col', 'gen', 'lt', 'sgt', 'hon']);

/** The tables names.ts reads, built on first use. */
export interface Lexicon {
  /** The classes of a lower-cased word or phrase, or undefined when the lexicon does not know it. */
  classesOf(lowerCased: string): WordClasses | undefined;
  /**
   * First names that are neither ordinary words nor places ("patricia", not "mark" nor "paris"): a
   * lower-case word is looked up here, a set small enough to be quick for every word of a text.
   */
  plainFirstNames: ReadonlySet<string>;
  /** English function words ("the", "dear", "my"): never the first word of a name. */
  functionWords: ReadonlySet<string>;
  /** Words that close an organisation's name: "Inc", "Bank", "Solutions", "Orchestra". */
  organizationEndings: ReadonlySet<string>;
  /** Words that close a place's name: "Lake", "Valley", "County". */
  placeEndings: ReadonlySet<string>;
  /** The most words of a phrase in the lexicon ("al basrah al qadimah"), to bound the lookups. */
  longestPhrase: number;
}

let built: Lexicon | undefined;

export function lexicon(): Lexicon {
  built ??= buildLexicon();
  return built;
}

/**
 * Builds the lexicon now. The server calls it before it listens: built at a request instead, it would
 * hold the event loop for the better part of a second, once, at the first text read for names.
 */
export function prepareLexicon(): void {
  lexicon();
}

const INFLECTIONS: readonly [string, string][] = [['s', ''], ['es', ''], ['ies', 'y'], ['ed', ''], ['ed', 'e'], ['ing', ''], ['ing', 'e'], ['er', ''], ['ers', '']];
const ORDINARY: WordClasses = { firstName: false, surname: false, person: false, place: false, organization: false, demonym: false, common: true };

/** The classes of every combination of bits (lexicon-tables.ts's CLASS_BITS): shared, never changed. */
const CLASSES_OF_BITS: readonly WordClasses[] = Array.from({ length: 1 << CLASS_BITS.length }, (_, bits) =>
  Object.freeze(Object.fromEntries(CLASS_BITS.map((name, bit) => [name, (bits & (1 << bit)) !== 0])) as unknown as WordClasses),
);

function buildLexicon(): Lexicon {
  return lexiconOf(tablesOfLexicon());
}

/** The lexicon of the tables (the packages' words), with the short lists above added. */
export function lexiconOf(tables: LexiconTables): Lexicon {
  const englishStopWords = tables.stopWords;
  // Bits, not objects: some 45,000 words, built at every start.
  const bitsOf = new Map<string, number>();
  for (let index = 0; index < tables.words.length; index++) bitsOf.set(tables.words[index]!, tables.classes[index]!);
  const mark = (word: string, bit: number) => bitsOf.set(word, (bitsOf.get(word) ?? 0) | bit);
  for (const word of GROUPS) mark(word, CLASS_BIT.demonym);
  for (const word of MORE_PLACES) mark(word, CLASS_BIT.place);
  const classesOfKnown = (word: string): WordClasses | undefined => {
    const bits = bitsOf.get(word);
    return bits === undefined ? undefined : CLASSES_OF_BITS[bits];
  };

  /** Unknown words already looked up as inflections, and what they turned out to be. */
  const inflectedCache = new Map<string, WordClasses | null>();

  /** A plural or verb form of a dictionary word ("hobbits", "tales", "stories"): an ordinary word. */
  function inflected(word: string): WordClasses | undefined {
    for (const [ending, stem] of INFLECTIONS) {
      if (word.length > ending.length + 2 && word.endsWith(ending) && ((bitsOf.get(word.slice(0, -ending.length) + stem) ?? 0) & CLASS_BIT.common) !== 0) return ORDINARY;
    }
    return undefined;
  }

  const plainFirstNames = new Set<string>();
  let longestPhrase = 1;
  for (const [word, bits] of bitsOf) {
    if ((bits & CLASS_BIT.firstName) !== 0 && (bits & (CLASS_BIT.common | CLASS_BIT.place)) === 0) plainFirstNames.add(word);
    if (word.includes(' ')) longestPhrase = Math.max(longestPhrase, word.split(' ').length);
  }

  return {
    classesOf(lowerCased) {
      const known = classesOfKnown(lowerCased);
      if (known !== undefined || lowerCased.includes(' ')) return known;
      let found = inflectedCache.get(lowerCased);
      if (found === undefined) {
        found = inflected(lowerCased) ?? null;
        // Bounded: a text of new words cannot make it grow without end.
        if (inflectedCache.size > 50_000) inflectedCache.clear();
        inflectedCache.set(lowerCased, found);
      }
      return found ?? undefined;
    },
    plainFirstNames,
    functionWords: new Set([...englishStopWords, 'dear', 'hi', 'hello', 'hey', 'thanks', 'thank', 'please', 'dr', 'mr', 'mrs', 'ms'].filter((word) => !classesOfKnown(word)?.firstName)),
    organizationEndings: new Set([...tables.organizationWords, ...MORE_ORGANIZATION_ENDINGS]),
    placeEndings: new Set(tables.placeWords),
    longestPhrase,
  };
}
