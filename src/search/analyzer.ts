// Text → search terms, the same way for documents and queries, on both databases: the databases only
// match the terms made here (FTS5's unicode61 tokenizer and PostgreSQL's `simple` configuration split
// them exactly as written), so stemming, stop words and identifiers behave alike everywhere.
//
// - Words are folded (NFKC, lower case, accents removed), stop words dropped, the rest stemmed
//   (stemmers see the folded word: documents and queries are stemmed alike either way).
// - Code identifiers and version numbers are one token joined by `.`, `_`, `-`, `:` or `/`
//   (`os.path.join`, `--force-with-lease`, `3.11.2`) or written in camelCase (`readFileSync`): each
//   part is a term, and the parts joined without separators is one more (`ospathjoin`), so that
//   asking for the identifier itself matches it exactly, and asking for its words matches too.
import { foldWord, languageRules, type LanguageRules, type SearchLanguage } from './languages.js';

/** Runs of letters and digits, joined by the separators of identifiers, paths and versions. */
const COMPOUND = /[\p{L}\p{N}]+(?:[._\-:/][\p{L}\p{N}]+)*/gu;
/** The same runs in text that is all ASCII, where letters and digits are these: three times faster. */
const ASCII_COMPOUND = /[A-Za-z0-9]+(?:[._\-:/][A-Za-z0-9]+)*/g;
const NON_ASCII = /[^\x00-\x7f]/;
const SEPARATORS = /[._\-:/]/;
/** camelCase and PascalCase boundaries: "readFileSync" → read|File|Sync, "HTTPServer" → HTTP|Server. */
const CAMEL_BOUNDARY = /(?<=\p{Ll})(?=\p{Lu})|(?<=\p{Lu})(?=\p{Lu}\p{Ll})/u;
/**
 * 30 combining marks in a row, followed by another. Normalizing sorts each run of combining marks
 * (by insertion, in ICU): a run of n costs n², 3.6 s for 80,000 marks under one letter. No script
 * writes more than a few, so a longer run gets a combining grapheme joiner after every 30 marks, as
 * Unicode's stream-safe text format does (UAX #15): it starts a new run and is not a letter, so the
 * terms stay those of any real text.
 */
const LONG_MARK_RUN = /\p{M}{30}(?=\p{M})/gu;
const GRAPHEME_JOINER = '\u034f';
/** Whether a token may have several parts: most words have neither separators nor inner capitals. */
const COMPOUND_HINT = /[._\-:/]|\p{Ll}\p{Lu}|\p{Lu}\p{Lu}\p{Ll}/u;
/** Longer tokens are hashes, keys or encoded data: not words anyone searches for. */
const MAX_TERM_LENGTH = 48;
/**
 * Tokens whose terms are remembered, per language: text repeats its words, and a remembered token
 * costs one lookup instead of folding, the stop list and the stemmer (a page of git's manual:
 * 1.4 ms → 0.57 ms with the ASCII runs).
 */
const TOKEN_CACHE_SIZE = 50_000;
const NO_TERMS: readonly string[] = [];

/** The terms of one token, as `analyze` gives them. */
function termsOfToken(token: string, rules: LanguageRules): readonly string[] {
  const terms: string[] = [];
  const addWord = (word: string) => {
    const folded = foldWord(word);
    if (folded.length <= MAX_TERM_LENGTH && !rules.stopWords.has(folded)) terms.push(rules.stem(folded));
  };
  if (!COMPOUND_HINT.test(token)) {
    addWord(token);
    return terms.length === 0 ? NO_TERMS : terms;
  }
  const parts = token.split(SEPARATORS).flatMap((part) => part.split(CAMEL_BOUNDARY));
  if (parts.length === 1) {
    addWord(token);
    return terms.length === 0 ? NO_TERMS : terms;
  }
  for (const part of parts) addWord(part);
  const joined = foldWord(parts.join(''));
  if (joined.length <= MAX_TERM_LENGTH) terms.push(joined);
  return terms;
}

const tokenCaches = new Map<SearchLanguage, Map<string, readonly string[]>>();

function tokenCache(language: SearchLanguage): Map<string, readonly string[]> {
  let cache = tokenCaches.get(language);
  if (cache === undefined) {
    cache = new Map();
    tokenCaches.set(language, cache);
  }
  return cache;
}

/** The text with no run of more than 30 combining marks (LONG_MARK_RUN). */
export function streamSafe(text: string): string {
  return text.replace(LONG_MARK_RUN, `$&${GRAPHEME_JOINER}`);
}

export function analyze(text: string, language: SearchLanguage): string[] {
  const rules = languageRules(language);
  const cache = tokenCache(language);
  const terms: string[] = [];
  // NFKC leaves ASCII as it is, and in ASCII the two patterns find the same runs.
  const ascii = !NON_ASCII.test(text);
  const pattern = ascii ? ASCII_COMPOUND : COMPOUND;
  const normalized = ascii ? text : streamSafe(text).normalize('NFKC');
  // Apostrophes separate words ("don't" → "don", "t"; "l'homme" → "l", "homme"), as in the stop lists.
  pattern.lastIndex = 0;
  for (let match = pattern.exec(normalized); match !== null; match = pattern.exec(normalized)) {
    const token = match[0];
    let found = cache.get(token);
    if (found === undefined) {
      if (cache.size >= TOKEN_CACHE_SIZE) cache.clear();
      found = termsOfToken(token, rules);
      cache.set(token, found);
    }
    for (const term of found) terms.push(term);
  }
  return terms;
}

/** The distinct terms of a query in their first order, at most 32: its syntax is never passed on. */
export function queryTerms(query: string, language: SearchLanguage): string[] {
  return [...new Set(analyze(query, language))].slice(0, 32);
}

/** What a chunk is searched by: its document's title, its heading path and its text, as terms. */
export interface SearchTerms {
  title: readonly string[];
  heading: readonly string[];
  body: readonly string[];
}

/** The same, as the chunk's columns hold them: terms separated by spaces. */
export interface SearchFields {
  search_title: string;
  search_heading: string;
  search_body: string;
}

export interface ChunkText {
  title: string | null;
  heading: string | null;
  text: string;
}

export function fieldsOfTerms(terms: SearchTerms): SearchFields {
  return { search_title: terms.title.join(' '), search_heading: terms.heading.join(' '), search_body: terms.body.join(' ') };
}

/** A chunk's heading path and text, as the chunker gives them (no heading: absent) or as stored (null). */
type ChunkBody = { heading?: string | null | undefined; text: string };

const termsOf = (text: string | null | undefined, language: SearchLanguage) => analyze(text ?? '', language);

/** A chunk's terms, its title's already made. */
function termsWithTitle(title: readonly string[], chunk: ChunkBody, language: SearchLanguage): SearchTerms {
  return { title, heading: termsOf(chunk.heading, language), body: termsOf(chunk.text, language) };
}

export function searchTerms(chunk: ChunkText, language: SearchLanguage): SearchTerms {
  return termsWithTitle(termsOf(chunk.title, language), chunk, language);
}

/** The search terms of every chunk of one document: its title is analysed once, not once a chunk. */
export function documentSearchTerms(title: string, chunks: readonly ChunkBody[], language: SearchLanguage): SearchTerms[] {
  const titleTerms = termsOf(title, language);
  return chunks.map((chunk) => termsWithTitle(titleTerms, chunk, language));
}

/**
 * A document's title for search: the one its file gives (HTML <title>, PDF metadata, first heading),
 * else its name without the folder and extension ("guides/install-linux.md" → "install-linux").
 */
export function searchTitle(extractedTitle: string | undefined, source: string): string {
  if (extractedTitle?.trim()) return extractedTitle.trim();
  const name = source.split(/[?#]/)[0]!.split('/').filter(Boolean).pop() ?? source;
  return name.replace(/\.[a-z0-9]{1,5}$/i, '');
}
