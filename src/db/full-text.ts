// The full-text index of chunks, the SQL that differs most between the databases: SQLite's FTS5 and
// PostgreSQL's tsvector, both over the terms the server's analyser made (src/search/analyzer.ts). The
// databases find candidates and count terms; the score itself is computed by the server
// (src/search/ranking.ts), so that it is the same on both.
import { sql, type Kysely } from 'kysely';
import type { SearchTerms } from '../search/analyzer.js';
import type { DB } from './schema.js';
import { searchColumnsOf, type ChunkSearchColumns, type SearchColumnsKind } from './search-columns.js';
import { quotedWord } from './tsvector.js';

export type { ChunkSearchColumns } from './search-columns.js';

/** A query term and its weight in the query: its rarity in the searched corpora (IDF). */
export interface WeightedTerm {
  term: string;
  weight: number;
}

export interface FullTextIndex {
  /**
   * Chunks of the corpora holding any of the terms, best first by the database's own rank weighing
   * the terms' rarity and their fields (title, then heading path, then text), at most `limit`: the
   * candidates the server then scores.
   */
  candidates(db: Kysely<DB>, corpusIds: number[], terms: readonly WeightedTerm[], limit: number): Promise<number[]>;
  /** How many chunks of the corpora hold each term, in any field; in the order of the terms. */
  documentFrequencies(db: Kysely<DB>, corpusIds: number[], terms: string[]): Promise<number[]>;
  /** The columns a chunk's row is searched by, made from its terms. */
  searchColumns(terms: SearchTerms): ChunkSearchColumns;
  /** The same, named: what an extraction thread is asked to make (searchColumnsOf). */
  readonly searchColumnsKind: SearchColumnsKind;
}

/** Field weights of the candidates' rank, as in src/search/ranking.ts: title 4, heading 2, text 1. */
const FTS5_WEIGHTS = sql.raw('4.0, 2.0, 1.0');
/** ts_rank's weights are given for D, C, B, A: the text is D, the heading path B, the title A. */
const TS_RANK_WEIGHTS = '{0.25, 0.25, 0.5, 1.0}';

/** An FTS5 query for any of the terms: letters and digits only (the analyser's output), quoted all the same. */
export const fts5Match = (terms: string[]) => terms.map((term) => `"${term}"`).join(' OR ');
/**
 * The corpus is checked through the covering index chunks_corpus (corpus_id, id), one lookup per
 * match, without reading the chunk's row. (A corpus column in the index itself was slower: FTS5 then
 * walks the corpus's whole list of chunks for every query.)
 */
const inCorpora = (corpusIds: number[]) => sql`exists (select 1 from chunks c where c.corpus_id in (${sql.join(corpusIds)}) and c.id = chunks_fts.rowid)`;
/** A tsquery for any of the terms, as tsquery text: the terms are taken as written, as the chunks' tsvectors are (src/db/tsvector.ts). */
const tsQuery = (terms: string[]) => sql`${terms.map(quotedWord).join(' | ')}::tsquery`;

export const sqliteFullText: FullTextIndex = {
  async candidates(db, corpusIds, terms, limit) {
    if (terms.length === 0 || corpusIds.length === 0) return [];
    const { rows } = await sql<{ chunk_id: number }>`
      select rowid as chunk_id from chunks_fts
      where chunks_fts match ${fts5Match(terms.map(({ term }) => term))} and ${inCorpora(corpusIds)}
      order by bm25(chunks_fts, ${FTS5_WEIGHTS})
      limit ${limit}`.execute(db);
    return rows.map((row) => row.chunk_id);
  },
  async documentFrequencies(db, corpusIds, terms) {
    if (corpusIds.length === 0 || terms.length === 0) return terms.map(() => 0);
    const fromVocabulary = await countsFromVocabulary(db, corpusIds, terms);
    // Terms the vocabulary does not hold (none of the chunks has them, or the tokenizer would write
    // them otherwise) are counted by matching, which is cheap for them: an empty or short list.
    const toCount = terms.filter((_, index) => !(fromVocabulary?.[index] ?? 0));
    const counted = toCount.length === 0 ? [] : await countsByMatching(db, corpusIds, toCount);
    return terms.map((term, index) => fromVocabulary?.[index] || (counted[toCount.indexOf(term)] ?? 0));
  },
  searchColumns: (terms) => searchColumnsOf('fields', terms),
  searchColumnsKind: 'fields',
};

/** Each term's count of the corpora's chunks, one `match` each and every match's corpus checked, in one statement. */
async function countsByMatching(db: Kysely<DB>, corpusIds: number[], terms: string[]): Promise<number[]> {
  const counts = terms.map((term, index) => sql`(select count(*) from chunks_fts where chunks_fts match ${fts5Match([term])} and ${inCorpora(corpusIds)}) as ${sql.ref(`t${index}`)}`);
  const { rows } = await sql<Record<string, number>>`select ${sql.join(counts)}`.execute(db);
  return terms.map((_, index) => Number(rows[0]?.[`t${index}`] ?? 0));
}

/** Past this many corpora the check that no other chunk exists costs more than it saves. */
const VOCABULARY_MAX_CORPORA = 16;
/** The connections (by handle) whose temp schema has the vocabulary table. */
const withVocabulary = new WeakSet<Kysely<DB>>();

/**
 * FTS5's vocabulary (fts5vocab, per row) has each term's count of chunks without a look at any
 * chunk's corpus: read from the term's list alone, where counting by matching checks the corpus of
 * every match (a term found in 30,000 chunks: 30,000 lookups). It counts every chunk of the database,
 * so it is used only when the searched corpora hold every chunk, which the same statement checks
 * (one probe of chunks_corpus per gap between the corpus ids): another organization's chunks never
 * count. Undefined when they do not; 0 or null for a term the vocabulary does not hold.
 */
async function countsFromVocabulary(db: Kysely<DB>, corpusIds: number[], terms: string[]): Promise<(number | null)[] | undefined> {
  const ids = [...new Set(corpusIds)].sort((a, b) => a - b);
  if (ids.length > VOCABULARY_MAX_CORPORA) return undefined;
  if (!withVocabulary.has(db)) {
    // In the connection's temp schema: made when first needed, no migration, not in backups.
    await sql`create virtual table if not exists temp.chunks_fts_vocabulary using fts5vocab(main, chunks_fts, row)`.execute(db);
    withVocabulary.add(db);
  }
  const gaps = [
    sql`corpus_id < ${ids[0]}`,
    ...ids.slice(1).map((id, index) => sql`corpus_id > ${ids[index]} and corpus_id < ${id}`),
    sql`corpus_id > ${ids[ids.length - 1]}`,
  ];
  const others = sql.join(
    gaps.map((gap) => sql`exists (select 1 from chunks where ${gap})`),
    sql` or `,
  );
  const counts = terms.map((term, index) => sql`(select doc from temp.chunks_fts_vocabulary where term = ${term}) as ${sql.ref(`t${index}`)}`);
  const { rows } = await sql<Record<string, number | null>>`select (${others}) as others, ${sql.join(counts)}`.execute(db);
  const row = rows[0];
  if (row === undefined || row.others) return undefined;
  return terms.map((_, index) => row[`t${index}`] ?? null);
}

/**
 * PostgreSQL's full-text statements run on connections of their own, whose sessions price sequential
 * scans out and start no parallel workers. The planner prices a tsvector match far below its cost: for
 * a term found in more than about a tenth of the chunks it reads every chunk of the corpora,
 * sequentially or through chunks_corpus, and matches each (59 ms on 10,000 chunks, against 6 ms
 * through the GIN index). The statements also write the corpus condition as `corpus_id + 0`, which no
 * index serves, so that the GIN index is the way in. Parallel workers are turned off too: the planner
 * chose them for the candidates' grouping on a corpus just ingested, and starting them took 35 ms of a
 * 12 ms statement. Set per session rather than per statement: a transaction around each statement for
 * `set local` cost two more round trips a statement, 0.2–2.2 ms of a search's median of 8–10 ms on the
 * search suite's 100,000 chunks (docs/performance.md).
 */
export const FULL_TEXT_SESSION_SETTINGS = { enable_seqscan: 'off', max_parallel_workers_per_gather: '0' } as const;

/** The connections set for full-text statements, by the database handle whose statements they run. */
const fullTextConnections = new WeakMap<Kysely<DB>, Kysely<DB>>();

/** Makes `connections` (sessions with FULL_TEXT_SESSION_SETTINGS) run the full-text statements of `db`. */
export function runFullTextOn(db: Kysely<DB>, connections: Kysely<DB>): void {
  fullTextConnections.set(db, connections);
}

/** Where the full-text statements of `db` run; never inside a transaction, whose handle has none. */
export function fullTextConnectionsOf(db: Kysely<DB>): Kysely<DB> {
  const connections = fullTextConnections.get(db);
  if (connections === undefined) throw new Error('full-text statements run on the database handle that openDatabase made, outside transactions');
  return connections;
}

/**
 * Where a chunk holds a term: 2 in its title, 1 in its heading path, 0 in its text alone. Read from the
 * row's analysed title and heading (short, stored in the row), never from its tsvector (most of which
 * lives in TOAST: reading it for every match tripled a common term's statement).
 */
function inFields(term: string) {
  const holds = (field: 'search_title' | 'search_heading') => sql`position(${` ${term} `} in ' ' || ${sql.ref(field)} || ' ') > 0`;
  return sql`(case when ${holds('search_title')} then 2 when ${holds('search_heading')} then 1 else 0 end)`;
}

/**
 * A term's chunks in the corpora, found through the GIN index (`corpus_id + 0`: not chunks_corpus).
 * Counted and found alike, so that a term's count is the number of chunks its candidates come from.
 */
const holding = (term: string, corpusIds: number[]) => sql`search @@ ${tsQuery([term])} and corpus_id + 0 in (${sql.join(corpusIds)})`;

/** Chunks ordered by `ts_rank` among the best by rarity, twice the limit of them: by field and frequency. */
const TS_RANK_POOL = 2;

export const postgresFullText: FullTextIndex = {
  /**
   * `ts_rank` knows nothing of a term's rarity: ranked by it, chunks full of a query's common words
   * pushed out those holding its rare ones, and the answering page was among the candidates for only
   * 82–88 % of the relevance questions (95–99 % on SQLite, whose bm25 weighs rarity). So the chunks
   * are ranked by the sum of the weights of the terms they hold, each term's list read from the GIN
   * index alone, and `ts_rank` (which reads each chunk's tsvector) orders only the best few of them.
   */
  async candidates(db, corpusIds, terms, limit) {
    if (terms.length === 0 || corpusIds.length === 0) return [];
    const hits = ({ term, weight }: WeightedTerm) => sql`select id, document_id, ${weight}::float8 as weight from chunks where ${holding(term, corpusIds)}`;
    const only = terms.length === 1 ? terms[0] : undefined;
    // With one term every match holds the same weight: those holding the term in their title or
    // heading path go first, then the document and chunk order, as the server's ranking breaks ties
    // (by document order alone, a common word handed over its first matches by document id, however
    // well a later page titled with it would have scored); and no sums are made (sorting and summing
    // a common term's thousands of matches was a third of the statement). With several, the sums of
    // weights, rounded so that chunks holding the same terms tie whatever order they were added in.
    const held = only
      ? sql`${hits(only)} order by ${inFields(only.term)} desc, document_id, id limit ${limit * TS_RANK_POOL}`
      : sql`
        with hits as (${sql.join(terms.map(hits), sql` union all `)})
        select id, document_id, round(sum(weight)::numeric, 9) as weight from hits
        group by id, document_id order by weight desc, document_id, id limit ${limit * TS_RANK_POOL}`;
    const { rows } = await sql<{ chunk_id: string | number }>`
        with held as (${held})
        select c.id as chunk_id
        from held h join chunks c on c.id = h.id
        order by h.weight desc, ts_rank(${TS_RANK_WEIGHTS}, c.search, ${tsQuery(terms.map(({ term }) => term))}, 1) desc, h.document_id, c.id
        limit ${limit}`.execute(fullTextConnectionsOf(db));
    return rows.map((row) => Number(row.chunk_id));
  },
  async documentFrequencies(db, corpusIds, terms) {
    if (corpusIds.length === 0 || terms.length === 0) return terms.map(() => 0);
    // One statement; each term counted from the GIN index, without reading any chunk's tsvector.
    const counts = terms.map((term, index) => sql`(select count(*) from chunks where ${holding(term, corpusIds)}) as ${sql.ref(`t${index}`)}`);
    const { rows } = await sql<Record<string, string | number>>`select ${sql.join(counts)}`.execute(fullTextConnectionsOf(db));
    return terms.map((_, index) => Number(rows[0]?.[`t${index}`] ?? 0));
  },
  searchColumns: (terms) => searchColumnsOf('fields-and-tsvector', terms),
  searchColumnsKind: 'fields-and-tsvector',
};
