// The languages a corpus's text can be analysed in: a Snowball stemmer and a stop-word list for each,
// both shipped inside their npm packages (nothing is downloaded). `simple` neither stems nor drops
// words: for code, identifiers, or a language not listed.
import { stemmer as danishStemmer } from '@orama/stemmers/danish';
import { stemmer as dutchStemmer } from '@orama/stemmers/dutch';
import { stemmer as englishStemmer } from '@orama/stemmers/english';
import { stemmer as finnishStemmer } from '@orama/stemmers/finnish';
import { stemmer as frenchStemmer } from '@orama/stemmers/french';
import { stemmer as germanStemmer } from '@orama/stemmers/german';
import { stemmer as italianStemmer } from '@orama/stemmers/italian';
import { stemmer as norwegianStemmer } from '@orama/stemmers/norwegian';
import { stemmer as portugueseStemmer } from '@orama/stemmers/portuguese';
import { stemmer as russianStemmer } from '@orama/stemmers/russian';
import { stemmer as spanishStemmer } from '@orama/stemmers/spanish';
import { stemmer as swedishStemmer } from '@orama/stemmers/swedish';
import { stopwords as danishStopWords } from '@orama/stopwords/danish';
import { stopwords as dutchStopWords } from '@orama/stopwords/dutch';
import { stopwords as englishStopWords } from '@orama/stopwords/english';
import { stopwords as finnishStopWords } from '@orama/stopwords/finnish';
import { stopwords as frenchStopWords } from '@orama/stopwords/french';
import { stopwords as germanStopWords } from '@orama/stopwords/german';
import { stopwords as italianStopWords } from '@orama/stopwords/italian';
import { stopwords as norwegianStopWords } from '@orama/stopwords/norwegian';
import { stopwords as portugueseStopWords } from '@orama/stopwords/portuguese';
import { stopwords as russianStopWords } from '@orama/stopwords/russian';
import { stopwords as spanishStopWords } from '@orama/stopwords/spanish';
import { stopwords as swedishStopWords } from '@orama/stopwords/swedish';

export const SEARCH_LANGUAGES = [
  'english',
  'danish',
  'dutch',
  'finnish',
  'french',
  'german',
  'italian',
  'norwegian',
  'portuguese',
  'russian',
  'spanish',
  'swedish',
  'simple',
] as const;

export type SearchLanguage = (typeof SEARCH_LANGUAGES)[number];

export const DEFAULT_SEARCH_LANGUAGE: SearchLanguage = 'english';

export interface LanguageRules {
  stem(word: string): string;
  stopWords: ReadonlySet<string>;
}

const RULES: Record<Exclude<SearchLanguage, 'simple'>, [(word: string) => string, readonly string[]]> = {
  danish: [danishStemmer, danishStopWords],
  dutch: [dutchStemmer, dutchStopWords],
  english: [englishStemmer, englishStopWords],
  finnish: [finnishStemmer, finnishStopWords],
  french: [frenchStemmer, frenchStopWords],
  german: [germanStemmer, germanStopWords],
  italian: [italianStemmer, italianStopWords],
  norwegian: [norwegianStemmer, norwegianStopWords],
  portuguese: [portugueseStemmer, portugueseStopWords],
  russian: [russianStemmer, russianStopWords],
  spanish: [spanishStemmer, spanishStopWords],
  swedish: [swedishStemmer, swedishStopWords],
};

/**
 * English words the list drops but technical text needs: negations, directions and order ("turn off",
 * "roll back before", "not null", "on conflict"). They are common, so ranking weighs them little.
 * The list also lacks "a".
 */
const ENGLISH_KEPT = new Set(['not', 'no', 'nor', 'on', 'off', 'up', 'down', 'out', 'over', 'under', 'before', 'after', 'above', 'below', 'again', 'once', 'only', 'same']);
const ENGLISH_ADDED = ['a'];

/** Stemming a word costs a few microseconds; documents and queries repeat their words. */
const STEM_CACHE_SIZE = 50_000;

function cachedStemmer(stem: (word: string) => string): (word: string) => string {
  const cache = new Map<string, string>();
  return (word) => {
    let stemmed = cache.get(word);
    if (stemmed === undefined) {
      if (cache.size >= STEM_CACHE_SIZE) cache.clear();
      stemmed = stem(word);
      cache.set(word, stemmed);
    }
    return stemmed;
  };
}

const rulesByLanguage = new Map<SearchLanguage, LanguageRules>();

export function languageRules(language: SearchLanguage): LanguageRules {
  let rules = rulesByLanguage.get(language);
  if (!rules) {
    if (language === 'simple') {
      rules = { stem: (word) => word, stopWords: new Set() };
    } else {
      const [stem, listed] = RULES[language];
      const stopWords = language === 'english' ? [...listed.filter((word) => !ENGLISH_KEPT.has(word)), ...ENGLISH_ADDED] : listed;
      // Words are compared folded, apostrophes split off ("don't" → "don", "t"), as analyzer.ts does.
      rules = { stem: cachedStemmer(stem), stopWords: new Set(stopWords.flatMap((word) => foldWord(word).split(/['’]/))) };
    }
    rulesByLanguage.set(language, rules);
  }
  return rules;
}

export function isSearchLanguage(value: string): value is SearchLanguage {
  return (SEARCH_LANGUAGES as readonly string[]).includes(value);
}

/** A stored language as a SearchLanguage: one this server does not know is read as the default. */
export function storedSearchLanguage(value: string | undefined): SearchLanguage {
  return value !== undefined && isSearchLanguage(value) ? value : DEFAULT_SEARCH_LANGUAGE;
}

const NON_ASCII = /[^\x00-\x7f]/;

/** Lower case, accents and other combining marks removed ("Café" → "cafe"). */
export function foldWord(word: string): string {
  const lower = word.toLowerCase();
  return NON_ASCII.test(lower) ? lower.normalize('NFKD').replace(/\p{M}+/gu, '').normalize('NFC') : lower;
}
