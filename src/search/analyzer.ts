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
import { foldWord, languageRules, type SearchLanguage } from './languages.js';

/** Runs of letters and digits, joined by the separators of identifiers, paths and versions. */
const COMPOUND = /[\p{L}\p{N}]+(?:[._\-:/][\p{L}\p{N}]+)*/gu;
const SEPARATORS = /[._\-:/]/;
/** camelCase and PascalCase boundaries: "readFileSync" → read|File|Sync, "HTTPServer" → HTTP|Server. */
const CAMEL_BOUNDARY = /(?<=\p{Ll})(?=\p{Lu})|(?<=\p{Lu})(?=\p{Lu}\p{Ll})/u;
/** Whether a token may have several parts: most words have neither separators nor inner capitals. */
const COMPOUND_HINT = /[._\-:/]|\p{Ll}\p{Lu}|\p{Lu}\p{Lu}\p{Ll}/u;
/** Longer tokens are hashes, keys or encoded data: not words anyone searches for. */
const MAX_TERM_LENGTH = 48;

export function analyze(text: string, language: SearchLanguage): string[] {
  const rules = languageRules(language);
  const terms: string[] = [];
  const addWord = (word: string) => {
    const folded = foldWord(word);
    if (folded.length <= MAX_TERM_LENGTH && !rules.stopWords.has(folded)) terms.push(rules.stem(folded));
  };
  // Apostrophes separate words ("don't" → "don", "t"; "l'homme" → "l", "homme"), as in the stop lists.
  for (const [token] of text.normalize('NFKC').matchAll(COMPOUND)) {
    if (!COMPOUND_HINT.test(token)) {
      addWord(token);
      continue;
    }
    const parts = token.split(SEPARATORS).flatMap((part) => part.split(CAMEL_BOUNDARY));
    if (parts.length === 1) {
      addWord(token);
      continue;
    }
    for (const part of parts) addWord(part);
    const joined = foldWord(parts.join(''));
    if (joined.length <= MAX_TERM_LENGTH) terms.push(joined);
  }
  return terms;
}

/** The distinct terms of a query in their first order, at most 32: its syntax is never passed on. */
export function queryTerms(query: string, language: SearchLanguage): string[] {
  return [...new Set(analyze(query, language))].slice(0, 32);
}

/** What a chunk is searched by: its document's title, its heading path and its text, as terms. */
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

export function searchFields(chunk: ChunkText, language: SearchLanguage): SearchFields {
  return {
    search_title: analyze(chunk.title ?? '', language).join(' '),
    search_heading: analyze(chunk.heading ?? '', language).join(' '),
    search_body: analyze(chunk.text, language).join(' '),
  };
}

/** The search fields of every chunk of one document: its title is analysed once, not once a chunk. */
export function documentSearchFields(title: string, chunks: readonly { heading?: string | null | undefined; text: string }[], language: SearchLanguage): SearchFields[] {
  const searchTitleTerms = analyze(title, language).join(' ');
  return chunks.map((chunk) => ({
    search_title: searchTitleTerms,
    search_heading: analyze(chunk.heading ?? '', language).join(' '),
    search_body: analyze(chunk.text, language).join(' '),
  }));
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
