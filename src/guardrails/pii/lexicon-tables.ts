// The word tables of the PII lexicon (lexicon.ts) as plain data: every word the packages know with its
// classes as bits, the English stop words, and compromise's organisation and place endings. Reading them
// from the packages loads compromise's whole model (most of a second, tens of MB), so the build writes
// them once to lexicon-tables.json beside this module's build (writeLexiconTables, run by
// scripts/build-if-stale.mjs), and a start reads that file instead. The file names a digest of the
// package files it was read from: after an upgrade of one of them, it is not used until the next build.
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { stopwords as StopWords } from '@orama/stopwords/english';
import type Compromise from 'compromise/two';

const require = createRequire(import.meta.url);

export interface LexiconTables {
  /** Digest of the package files the tables were read from. */
  sources: string;
  words: string[];
  /** The classes of words[i], one bit each in CLASS_BITS's order. */
  classes: number[];
  stopWords: string[];
  organizationWords: string[];
  placeWords: string[];
}

type TaggedWords = Record<string, string | string[]>;

const NAME_TAGS = new Set(['FirstName', 'MaleName', 'FemaleName']);
const PLACE_TAGS = new Set(['Country', 'City', 'Region', 'Place']);
const NOT_COMMON_TAGS = new Set([...NAME_TAGS, ...PLACE_TAGS, 'LastName', 'Person', 'Organization', 'SportsTeam', 'ProperNoun', 'Demonym', 'Honorific', 'Abbreviation', 'Actor', 'Unit', 'Currency']);
/** The classes of a word, one bit each in this order (lexicon.ts's WordClasses). */
export const CLASS_BITS = ['firstName', 'surname', 'person', 'place', 'organization', 'demonym', 'common'] as const;
export const CLASS_BIT = Object.fromEntries(CLASS_BITS.map((name, bit) => [name, 1 << bit])) as Record<(typeof CLASS_BITS)[number], number>;
const { firstName: FIRST_NAME, surname: SURNAME, person: PERSON, place: PLACE, organization: ORGANIZATION, demonym: DEMONYM, common: COMMON } = CLASS_BIT;

export const LEXICON_TABLES_FILE = join(dirname(fileURLToPath(import.meta.url)), 'lexicon-tables.json');

const sourceFiles = () => [require.resolve('compromise/two'), require.resolve('@orama/stopwords/english'), join(dirname(require.resolve('dictionary-en')), 'index.dic')];

function digestOfSources(): string {
  const hash = createHash('sha256');
  for (const file of sourceFiles()) hash.update(readFileSync(file));
  return hash.digest('hex');
}

/** The tables read from the packages. */
export function readLexiconTablesFromPackages(): LexiconTables {
  const { stopwords } = require('@orama/stopwords/english') as { stopwords: typeof StopWords };
  // compromise's CommonJS build: the function itself.
  const nlp = require('compromise/two') as typeof Compromise;
  const model = nlp.model() as { one: { lexicon: TaggedWords }; two: { orgWords: Record<string, unknown>; placeWords: Record<string, unknown> } };
  const bits = new Map<string, number>();
  const mark = (word: string, bit: number) => bits.set(word, (bits.get(word) ?? 0) | bit);

  for (const [word, tagOrTags] of Object.entries(model.one.lexicon)) {
    mark(word, 0);
    for (const tag of Array.isArray(tagOrTags) ? tagOrTags : [tagOrTags]) {
      if (NAME_TAGS.has(tag)) mark(word, FIRST_NAME);
      else if (tag === 'LastName') mark(word, SURNAME);
      else if (tag === 'Person') mark(word, PERSON);
      else if (PLACE_TAGS.has(tag)) mark(word, PLACE);
      else if (tag === 'Organization' || tag === 'SportsTeam') mark(word, ORGANIZATION);
      else if (tag === 'Demonym') mark(word, DEMONYM);
      if (!NOT_COMMON_TAGS.has(tag)) mark(word, COMMON);
    }
  }
  for (const word of stopwords) mark(word, COMMON);
  // The dictionary's stems: one a line, flags after a slash; the first line is the count.
  for (const line of readFileSync(sourceFiles()[2]!, 'utf8').split('\n')) {
    const word = line.split('/', 1)[0]!;
    if (/^\p{Ll}[\p{Ll}'-]+$/u.test(word)) mark(word, COMMON);
  }
  return {
    sources: digestOfSources(),
    words: [...bits.keys()],
    classes: [...bits.values()],
    stopWords: [...stopwords],
    organizationWords: Object.keys(model.two.orgWords),
    placeWords: Object.keys(model.two.placeWords),
  };
}

/** The tables the build wrote, when they were read from the package files installed now. */
export function readBuiltLexiconTables(file = LEXICON_TABLES_FILE): LexiconTables | undefined {
  let tables: LexiconTables;
  try {
    tables = JSON.parse(readFileSync(file, 'utf8')) as LexiconTables;
  } catch {
    return undefined;
  }
  return tables.sources === digestOfSources() ? tables : undefined;
}

/** The tables: the build's, else read from the packages. */
export function tablesOfLexicon(): LexiconTables {
  return readBuiltLexiconTables() ?? readLexiconTablesFromPackages();
}

/** Run by the build: writes the tables beside this module. */
export function writeLexiconTables(file = LEXICON_TABLES_FILE): void {
  writeFileSync(file, JSON.stringify(readLexiconTablesFromPackages()));
}
