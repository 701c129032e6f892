// The passages of one attachment's text that match a query, best first: the text cut into passages
// of about a thousand characters at paragraph (else white space) boundaries, each scored as corpus
// passages are (src/search/ranking.ts), the attachment's own passages standing in for the corpus in
// the term statistics. Done when asked, in memory: an attachment is one file, not an index.
import { analyze, queryTerms } from '../../search/analyzer.js';
import { DEFAULT_SEARCH_LANGUAGE } from '../../search/languages.js';
import { QueryScorer } from '../../search/ranking.js';

export const PASSAGE_CHARACTERS = 1_000;
/** Text searched at most: scoring runs on the event loop (about 110 ms for 500,000 characters); a 10-million-character file would hold it for seconds. */
export const SEARCHED_CHARACTERS = 500_000;

export interface TextPassage {
  /** 1-based position among the text's passages. */
  number: number;
  text: string;
  score: number;
}

/** Paragraphs gathered into passages of about `size` characters; a paragraph longer than twice that is cut at white space. */
export function splitPassages(text: string, size = PASSAGE_CHARACTERS): string[] {
  const passages: string[] = [];
  let current = '';
  const flush = () => {
    if (current.trim() !== '') passages.push(current.trim());
    current = '';
  };
  for (const paragraph of text.split(/\n\s*\n|\n/)) {
    let rest = paragraph.trim();
    while (rest.length > 2 * size) {
      const cut = rest.lastIndexOf(' ', size);
      const at = cut > size / 2 ? cut : size;
      flush();
      current = rest.slice(0, at);
      flush();
      rest = rest.slice(at).trim();
    }
    if (current.length > 0 && current.length + rest.length > size) flush();
    current = current === '' ? rest : `${current}\n${rest}`;
  }
  flush();
  return passages;
}

export function matchingPassages(text: string, query: string, most: number): TextPassage[] {
  const terms = queryTerms(query, DEFAULT_SEARCH_LANGUAGE);
  if (terms.length === 0) return [];
  const wanted = new Set(terms);
  const analysed = splitPassages(text.slice(0, SEARCHED_CHARACTERS)).map((passage) => ({ passage, terms: analyze(passage, DEFAULT_SEARCH_LANGUAGE) }));
  const documentFrequency = new Map<string, number>();
  let totalLength = 0;
  for (const { terms: passageTerms } of analysed) {
    totalLength += passageTerms.length;
    for (const term of new Set(passageTerms)) if (wanted.has(term)) documentFrequency.set(term, (documentFrequency.get(term) ?? 0) + 1);
  }
  const scorer = new QueryScorer(terms, { chunks: analysed.length, averageLength: totalLength / Math.max(analysed.length, 1), documentFrequency });
  return analysed
    .map(({ passage, terms: body }, index) => ({ number: index + 1, text: passage, score: scorer.score({ title: '', heading: '', body: body.join(' '), length: body.length }) }))
    .filter((passage) => passage.score > 0)
    .sort((a, b) => b.score - a.score || a.number - b.number)
    .slice(0, most);
}
