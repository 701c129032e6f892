// How many chunks, found by which terms, the database hands over to be scored (src/search/ranking.ts).
import type { WeightedTerm } from '../db/full-text.js';
import { inverseDocumentFrequency, isLoneTerm, type CorpusStatistics } from './ranking.js';

/** Chunks to score: enough that scoring, not the database's own rank, decides the answer. */
export const candidateCount = (limit: number) => Math.min(Math.max(limit * 10, 100), 400);

/**
 * Most chunks the candidate query may have to rank. The rarest terms find the candidates; a term so
 * common that it would push the count past this only scores them: a chunk holding none of the rarer
 * terms would rank below those that do all the same, and the query stays fast on large corpora.
 */
export const CANDIDATE_POSTINGS = 5_000;

/**
 * The terms that find the candidates: the rarest first, within CANDIDATE_POSTINGS, at least one. A
 * lone term finds them whatever its count, which is not needed (see `countedTerms`).
 */
export function candidateTerms(terms: readonly string[], statistics: CorpusStatistics): WeightedTerm[] {
  if (isLoneTerm(terms)) return [{ term: terms[0]!, weight: 1 }];
  const frequency = (term: string) => statistics.documentFrequency.get(term) ?? 0;
  const chosen: string[] = [];
  let postings = 0;
  for (const term of terms.filter((t) => frequency(t) > 0).sort((a, b) => frequency(a) - frequency(b))) {
    if (chosen.length > 0 && postings + frequency(term) > CANDIDATE_POSTINGS) break;
    chosen.push(term);
    postings += frequency(term);
  }
  return chosen.map((term) => ({ term, weight: inverseDocumentFrequency(statistics, term) }));
}

/**
 * The terms whose chunks must be counted to rank a query's candidates. None for a lone term, whose
 * rarity divides out of its scores (`isLoneTerm`): counting a common word visits, on PostgreSQL, the
 * row of every chunk holding it.
 */
export const countedTerms = (terms: readonly string[]): readonly string[] => (isLoneTerm(terms) ? [] : terms);
