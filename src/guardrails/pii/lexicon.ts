// Word lists for names, places and organisations, taken from compromise's English lexicon (shipped in
// its npm package: some 3,000 first names, 900 surnames, 1,000 cities, countries and regions, 350
// organisations, 250 demonyms), the 39,000 lower-case words of the English Hunspell dictionary (words
// that are no names: "Desk", "Wisdom", "Treaty" capitalised are ordinary words) and the English stop
// words, plus the short lists below. Running compromise's own tagger costs about 90 ms for 10 KB of
// text, twenty times the budget of a whole guardrail, so only its lexicon is used, by the fast tagger
// in names.ts.
//
// The lists take a few hundred milliseconds and some 20 MB to build: they are built when a text is
// first read for names (lexicon()), not at start. They are loaded with require, which is synchronous
// as the detection is; the dictionary's words are read from its file, as its module does.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { stopwords as StopWords } from '@orama/stopwords/english';
import type Compromise from 'compromise/two';

const require = createRequire(import.meta.url);

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

type TaggedWords = Record<string, string | string[]>;

const NAME_TAGS = new Set(['FirstName', 'MaleName', 'FemaleName']);
const PLACE_TAGS = new Set(['Country', 'City', 'Region', 'Place']);
const NOT_COMMON_TAGS = new Set([...NAME_TAGS, ...PLACE_TAGS, 'LastName', 'Person', 'Organization', 'SportsTeam', 'ProperNoun', 'Demonym', 'Honorific', 'Abbreviation', 'Actor', 'Unit', 'Currency']);

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

function buildLexicon(): Lexicon {
  const { stopwords: englishStopWords } = require('@orama/stopwords/english') as { stopwords: typeof StopWords };
  // compromise's CommonJS build: the function itself.
  const nlp = require('compromise/two') as typeof Compromise;
  const dictionaryFile = join(dirname(require.resolve('dictionary-en')), 'index.dic');
  const model = nlp.model() as { one: { lexicon: TaggedWords }; two: { orgWords: Record<string, unknown>; placeWords: Record<string, unknown> } };

  const classes = new Map<string, WordClasses>();

  function entry(word: string): WordClasses {
    let found = classes.get(word);
    if (found === undefined) {
      found = { firstName: false, surname: false, person: false, place: false, organization: false, demonym: false, common: false };
      classes.set(word, found);
    }
    return found;
  }

  for (const [word, tagOrTags] of Object.entries(model.one.lexicon)) {
    const tags = Array.isArray(tagOrTags) ? tagOrTags : [tagOrTags];
    const classesOfWord = entry(word);
    for (const tag of tags) {
      if (NAME_TAGS.has(tag)) classesOfWord.firstName = true;
      else if (tag === 'LastName') classesOfWord.surname = true;
      else if (tag === 'Person') classesOfWord.person = true;
      else if (PLACE_TAGS.has(tag)) classesOfWord.place = true;
      else if (tag === 'Organization' || tag === 'SportsTeam') classesOfWord.organization = true;
      else if (tag === 'Demonym') classesOfWord.demonym = true;
      if (!NOT_COMMON_TAGS.has(tag)) classesOfWord.common = true;
    }
  }
  for (const word of englishStopWords) entry(word).common = true;
  /** The dictionary's stems: one a line, flags after a slash; the first line is the count. */
  for (const line of readFileSync(dictionaryFile, 'utf8').split('\n')) {
    const word = line.split('/', 1)[0]!;
    if (/^\p{Ll}[\p{Ll}'-]+$/u.test(word)) entry(word).common = true;
  }
  for (const word of GROUPS) entry(word).demonym = true;
  for (const word of MORE_PLACES) entry(word).place = true;

  /** Unknown words already looked up as inflections, and what they turned out to be. */
  const inflectedCache = new Map<string, WordClasses | null>();

  /** A plural or verb form of a dictionary word ("hobbits", "tales", "stories"): an ordinary word. */
  function inflected(word: string): WordClasses | undefined {
    for (const [ending, stem] of INFLECTIONS) {
      if (word.length > ending.length + 2 && word.endsWith(ending) && classes.get(word.slice(0, -ending.length) + stem)?.common === true) return ORDINARY;
    }
    return undefined;
  }

  return {
    classesOf(lowerCased) {
      const known = classes.get(lowerCased);
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
    plainFirstNames: new Set([...classes].filter(([, found]) => found.firstName && !found.common && !found.place).map(([word]) => word)),
    functionWords: new Set([...englishStopWords, 'dear', 'hi', 'hello', 'hey', 'thanks', 'thank', 'please', 'dr', 'mr', 'mrs', 'ms'].filter((word) => !classes.get(word)?.firstName)),
    organizationEndings: new Set([...Object.keys(model.two.orgWords), ...MORE_ORGANIZATION_ENDINGS]),
    placeEndings: new Set(Object.keys(model.two.placeWords)),
    longestPhrase: Math.max(...[...classes.keys()].map((word) => word.split(' ').length)),
  };
}
