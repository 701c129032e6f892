// The score of a passage for a query, from 0 to 1, computed here rather than by the database so that
// it is the same on SQLite and PostgreSQL (the databases only find the candidates; see
// src/db/full-text.ts). Three parts, each from 0 to 1:
//
// - relevance: BM25F over three fields. A term's frequency counts weights.title times in the
//   document's title and weights.heading times in the heading path; the body's is normalised by the
//   chunk's length against the corpus's average. Terms weigh by their IDF in the searched corpora.
// - coverage: the share of the query's IDF the passage holds at all: all the rare words beat many
//   repetitions of one.
// - proximity: for each pair of neighbouring query terms, how close they are in one field (1 when
//   adjacent in the query's order, a phrase), weighted by the rarer term's IDF.
//
// The score is the parts' weighted sum; rankChunks then folds in each passage's document's evidence
// (src/search/document-evidence.ts) and lets further passages of one document count less.
import { withDocumentEvidence } from './document-evidence.js';

export interface CorpusStatistics {
  /** Chunks in the searched corpora. */
  chunks: number;
  /** Their mean body length, in tokens. */
  averageLength: number;
  /** For each query term, the chunks of the searched corpora that hold it in any field. */
  documentFrequency: ReadonlyMap<string, number>;
}

/** A passage's fields as stored: each field's terms separated by single spaces (src/search/analyzer.ts). */
export interface CandidateFields {
  title: string;
  heading: string;
  body: string;
  /** The body's length in tokens (the unit of averageLength). */
  length: number;
}

export interface RankingParameters {
  /** How much a term in each field counts: the title's and heading's against the text's. */
  weights: { title: number; heading: number; body: number };
  /** BM25's saturation of term frequency, and how much the text's length normalises it. */
  k1: number;
  b: number;
  /** Terms further apart than this, in terms, are not near. */
  near: number;
  /** The parts' shares of the score; they add up to 1. */
  parts: { relevance: number; coverage: number; proximity: number };
}

export const RANKING: RankingParameters = {
  weights: { title: 4, heading: 2, body: 1 },
  k1: 1.2,
  b: 0.75,
  near: 8,
  parts: { relevance: 0.5, coverage: 0.3, proximity: 0.2 },
};

/** A query of one term: its rarity divides out of every part of its scores, so it weighs 1 and need not be counted. */
export const isLoneTerm = (terms: readonly string[]) => terms.length === 1;

/**
 * BM25's IDF in its non-negative form, log(1 + (N − n + 0.5) / (n + 0.5)): above 0 for a term in
 * every chunk, so every part of a score stays within 0–1. The count is taken as at most the chunks:
 * counted by another statement than theirs, it can pass them when chunks are stored between the
 * two, and IDF would then be negative (the scores with it).
 */
export function inverseDocumentFrequency(statistics: CorpusStatistics, term: string): number {
  const n = Math.min(statistics.documentFrequency.get(term) ?? 0, statistics.chunks);
  return Math.log(1 + (statistics.chunks - n + 0.5) / (n + 0.5));
}

const SPACE = 0x20;
/** Offsets of a field's spaces, reused from one field to the next: scoring runs synchronously, one field at a time. */
let spaceOffsets = new Int32Array(4096);

/**
 * Positions (in terms) of each wanted term in one field. Each term is looked for with `indexOf` and
 * its position is the number of spaces before it: splitting the field made a string of every term,
 * the wanted ones or not, and took twice as long over a search's hundred candidates.
 */
function positionsIn(field: string, wanted: readonly string[]): Map<string, number[]> {
  const positions = new Map<string, number[]>();
  let spaces = -1;
  for (const term of wanted) {
    if (term === '') continue;
    for (let at = field.indexOf(term); at >= 0; at = field.indexOf(term, at + term.length + 1)) {
      const end = at + term.length;
      if ((at > 0 && field.charCodeAt(at - 1) !== SPACE) || (end < field.length && field.charCodeAt(end) !== SPACE)) continue;
      if (spaces < 0) spaces = findSpaces(field);
      const position = countBelow(spaceOffsets, spaces, at);
      const list = positions.get(term);
      if (list) list.push(position);
      else positions.set(term, [position]);
    }
  }
  return positions;
}

/** Fills spaceOffsets with the field's spaces; answers how many. */
function findSpaces(field: string): number {
  if (spaceOffsets.length < field.length) spaceOffsets = new Int32Array(field.length * 2);
  let count = 0;
  for (let at = field.indexOf(' '); at >= 0; at = field.indexOf(' ', at + 1)) spaceOffsets[count++] = at;
  return count;
}

/** How many of the first `length` sorted offsets are below `value`. */
function countBelow(offsets: Int32Array, length: number, value: number): number {
  let low = 0;
  let high = length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (offsets[middle]! < value) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** 1 for `first` right before `second`, less the further apart or when reversed, 0 beyond `near`. */
function closeness(first: readonly number[] | undefined, second: readonly number[] | undefined, near: number): number {
  if (!first || !second) return 0;
  let best = 0;
  for (const a of first) {
    for (const b of second) {
      const distance = b - a;
      const value = distance > 0 ? 1 / distance : 1 / (1 - distance);
      if (Math.abs(distance) <= near && value > best) best = value;
    }
  }
  return best;
}

export class QueryScorer {
  private readonly idf: Map<string, number>;
  private readonly totalIdf: number;
  private readonly pairs: { first: string; second: string; weight: number }[] = [];
  private readonly pairWeight: number;

  /** `terms`: the query's distinct terms in their order. */
  constructor(
    private readonly terms: readonly string[],
    private readonly statistics: CorpusStatistics,
    private readonly parameters: RankingParameters = RANKING,
  ) {
    this.idf = new Map(terms.map((term) => [term, isLoneTerm(terms) ? 1 : inverseDocumentFrequency(statistics, term)]));
    this.totalIdf = [...this.idf.values()].reduce((sum, value) => sum + value, 0);
    for (let i = 0; i + 1 < terms.length; i++) {
      const [first, second] = [terms[i]!, terms[i + 1]!];
      this.pairs.push({ first, second, weight: Math.min(this.idf.get(first)!, this.idf.get(second)!) });
    }
    this.pairWeight = this.pairs.reduce((sum, pair) => sum + pair.weight, 0);
  }

  score(candidate: CandidateFields): number {
    if (this.totalIdf === 0) return 0;
    const { weights, k1, b, near, parts } = this.parameters;
    const fields = [
      { weight: weights.title, positions: positionsIn(candidate.title, this.terms), norm: 1 },
      { weight: weights.heading, positions: positionsIn(candidate.heading, this.terms), norm: 1 },
      {
        weight: weights.body,
        positions: positionsIn(candidate.body, this.terms),
        norm: 1 - b + (b * candidate.length) / Math.max(this.statistics.averageLength, 1),
      },
    ];
    let relevance = 0;
    let coverage = 0;
    for (const term of this.terms) {
      const frequency = fields.reduce((sum, field) => sum + (field.weight * (field.positions.get(term)?.length ?? 0)) / field.norm, 0);
      if (frequency === 0) continue;
      const idf = this.idf.get(term)!;
      relevance += (idf * frequency) / (k1 + frequency);
      coverage += idf;
    }
    relevance /= this.totalIdf;
    coverage /= this.totalIdf;
    // A one-term query is its own phrase: its proximity is whether the passage holds it.
    let proximity = this.pairWeight === 0 ? coverage : 0;
    for (const pair of this.pairs) {
      const best = Math.max(...fields.map((field) => closeness(field.positions.get(pair.first), field.positions.get(pair.second), near)));
      proximity += (pair.weight * best) / this.pairWeight;
    }
    return parts.relevance * relevance + parts.coverage * coverage + parts.proximity * proximity;
  }
}

/** A stored chunk as scoring reads it: its search columns and its length. */
export interface IndexedChunk {
  id: number;
  document_id: number;
  search_title: string;
  search_heading: string;
  search_body: string;
  token_count: number;
  /** How many chunks the chunk's document has: its length, for the document's evidence. */
  chunk_count: number;
}

/**
 * Each further passage of a document already ranked counts this much less than it scores alone (the
 * second 0.8 times, the third 0.64 times…): an answer's passages come from several documents rather
 * than all from one long one, unless that document is that much better.
 */
export const REPEAT_DOCUMENT_FACTOR = 0.8;

/**
 * The chunks scored, best first, at most `depth`. Equal scores go by document, then by id, which
 * within a document is the chunks' order: chunk ids follow the order in which the pipeline happened
 * to finish documents, document ids the order they were given.
 */
export function rankChunks<T extends IndexedChunk>(scorer: QueryScorer, chunks: readonly T[], depth: number): { row: T; score: number }[] {
  const byScore = (a: { row: T; score: number }, b: { row: T; score: number }) => b.score - a.score || a.row.document_id - b.row.document_id || a.row.id - b.row.id;
  const passages = chunks.map((row) => ({
    row,
    score: scorer.score({ title: row.search_title, heading: row.search_heading, body: row.search_body, length: row.token_count }),
  }));
  const scored = withDocumentEvidence(passages).sort(byScore);
  const seen = new Map<number, number>();
  return scored
    .map(({ row, score }) => {
      const before = seen.get(row.document_id) ?? 0;
      seen.set(row.document_id, before + 1);
      return { row, score: score * REPEAT_DOCUMENT_FACTOR ** before };
    })
    .sort(byScore)
    .slice(0, depth);
}
