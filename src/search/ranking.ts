// The score of a passage for a query, from 0 to 1, computed here rather than by the database so that
// it is the same on SQLite and PostgreSQL (the databases only find the candidates; see
// src/db/full-text.ts). Three parts, each from 0 to 1:
//
// - relevance: BM25F over three fields. A term's frequency counts WEIGHTS.title times in the
//   document's title and WEIGHTS.heading times in the heading path; the body's is normalised by the
//   chunk's length against the corpus's average. Terms weigh by their IDF in the searched corpora.
// - coverage: the share of the query's IDF the passage holds at all: all the rare words beat many
//   repetitions of one.
// - proximity: for each pair of neighbouring query terms, how close they are in one field (1 when
//   adjacent in the query's order, a phrase), weighted by the rarer term's IDF.
//
// The score is the parts' weighted sum.

export interface CorpusStatistics {
  /** Chunks in the searched corpora. */
  chunks: number;
  /** Their mean body length, in tokens. */
  averageLength: number;
  /** For each query term, the chunks of the searched corpora that hold it in any field. */
  documentFrequency: ReadonlyMap<string, number>;
}

export interface CandidateFields {
  title: readonly string[];
  heading: readonly string[];
  body: readonly string[];
  /** The body's length in tokens (the unit of averageLength). */
  length: number;
}

const WEIGHTS = { title: 4, heading: 2, body: 1 };
const K1 = 1.2;
const B = 0.75;
/** Terms further apart than this, in terms, are not near. */
const NEAR = 8;
const PARTS = { relevance: 0.5, coverage: 0.3, proximity: 0.2 };

export function inverseDocumentFrequency(statistics: CorpusStatistics, term: string): number {
  const n = statistics.documentFrequency.get(term) ?? 0;
  return Math.log(1 + (statistics.chunks - n + 0.5) / (n + 0.5));
}

/** Positions of each term of interest in one field. */
function positionsIn(field: readonly string[], wanted: ReadonlySet<string>): Map<string, number[]> {
  const positions = new Map<string, number[]>();
  field.forEach((term, index) => {
    if (!wanted.has(term)) return;
    const list = positions.get(term);
    if (list) list.push(index);
    else positions.set(term, [index]);
  });
  return positions;
}

/** 1 for `first` right before `second`, less the further apart or when reversed, 0 beyond NEAR. */
function closeness(first: readonly number[] | undefined, second: readonly number[] | undefined): number {
  if (!first || !second) return 0;
  let best = 0;
  for (const a of first) {
    for (const b of second) {
      const distance = b - a;
      const value = distance > 0 ? 1 / distance : 1 / (1 - distance);
      if (Math.abs(distance) <= NEAR && value > best) best = value;
    }
  }
  return best;
}

export class QueryScorer {
  private readonly idf: Map<string, number>;
  private readonly totalIdf: number;
  private readonly pairs: { first: string; second: string; weight: number }[] = [];
  private readonly pairWeight: number;
  private readonly wanted: ReadonlySet<string>;

  /** `terms`: the query's distinct terms in their order. */
  constructor(
    private readonly terms: readonly string[],
    private readonly statistics: CorpusStatistics,
  ) {
    this.idf = new Map(terms.map((term) => [term, inverseDocumentFrequency(statistics, term)]));
    this.totalIdf = [...this.idf.values()].reduce((sum, value) => sum + value, 0);
    for (let i = 0; i + 1 < terms.length; i++) {
      const [first, second] = [terms[i]!, terms[i + 1]!];
      this.pairs.push({ first, second, weight: Math.min(this.idf.get(first)!, this.idf.get(second)!) });
    }
    this.pairWeight = this.pairs.reduce((sum, pair) => sum + pair.weight, 0);
    this.wanted = new Set(terms);
  }

  score(candidate: CandidateFields): number {
    if (this.totalIdf === 0) return 0;
    const fields = [
      { weight: WEIGHTS.title, positions: positionsIn(candidate.title, this.wanted), norm: 1 },
      { weight: WEIGHTS.heading, positions: positionsIn(candidate.heading, this.wanted), norm: 1 },
      {
        weight: WEIGHTS.body,
        positions: positionsIn(candidate.body, this.wanted),
        norm: 1 - B + (B * candidate.length) / Math.max(this.statistics.averageLength, 1),
      },
    ];
    let relevance = 0;
    let coverage = 0;
    for (const term of this.terms) {
      const frequency = fields.reduce((sum, field) => sum + (field.weight * (field.positions.get(term)?.length ?? 0)) / field.norm, 0);
      if (frequency === 0) continue;
      const idf = this.idf.get(term)!;
      relevance += (idf * frequency) / (K1 + frequency);
      coverage += idf;
    }
    relevance /= this.totalIdf;
    coverage /= this.totalIdf;
    // A one-term query is its own phrase: its proximity is whether the passage holds it.
    let proximity = this.pairWeight === 0 ? coverage : 0;
    for (const pair of this.pairs) {
      const best = Math.max(...fields.map((field) => closeness(field.positions.get(pair.first), field.positions.get(pair.second))));
      proximity += (pair.weight * best) / this.pairWeight;
    }
    return PARTS.relevance * relevance + PARTS.coverage * coverage + PARTS.proximity * proximity;
  }
}

/** A stored chunk as scoring reads it: its search columns and its length. */
export interface IndexedChunk {
  id: number;
  search_title: string;
  search_heading: string;
  search_body: string;
  token_count: number;
}

const termsOf = (field: string) => (field === '' ? [] : field.split(' '));

/** The chunks scored, best first (equal scores by id), at most `depth`. */
export function rankChunks<T extends IndexedChunk>(scorer: QueryScorer, chunks: readonly T[], depth: number): { row: T; score: number }[] {
  return chunks
    .map((row) => ({
      row,
      score: scorer.score({ title: termsOf(row.search_title), heading: termsOf(row.search_heading), body: termsOf(row.search_body), length: row.token_count }),
    }))
    .sort((a, b) => b.score - a.score || a.row.id - b.row.id)
    .slice(0, depth);
}
