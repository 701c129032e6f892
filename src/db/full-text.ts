// Full-text retrieval over chunks, the one query whose SQL differs most between the databases:
// SQLite's FTS5 ranked by BM25, PostgreSQL's tsvector ranked by ts_rank_cd. Both take the query's
// words (never its syntax), match any of them, and rank.
import { sql, type Kysely } from 'kysely';
import type { DB } from './schema.js';

export interface FullTextHit {
  chunk_id: number;
  score: number;
}

/** The words of a query, lower-cased, at most 32: operators and punctuation are not passed on. */
export function queryTerms(query: string): string[] {
  return [...new Set(query.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [])].slice(0, 32);
}

export type FullTextSearch = (db: Kysely<DB>, corpusIds: number[], terms: string[], limit: number) => Promise<FullTextHit[]>;

/** How long a term's document frequency is trusted before it is counted again. */
const FREQUENCY_TTL_MS = 60_000;

type Counts = Map<string, { value: number; at: number }>;

/** Per database handle: the tests and the benchmarks open several in one process. */
const countsByDatabase = new WeakMap<Kysely<DB>, Counts>();

async function cachedCount(cache: Counts, key: string, count: () => Promise<number>): Promise<number> {
  const cached = cache.get(key);
  if (cached && Date.now() - cached.at < FREQUENCY_TTL_MS) return cached.value;
  const value = await count();
  cache.set(key, { value, at: Date.now() });
  if (cache.size > 10_000) cache.delete(cache.keys().next().value!);
  return value;
}

/**
 * The terms worth ranking by. A term found in half of all chunks or more weighs next to nothing in
 * BM25 (FTS5 clamps its weight to 1e-6) yet makes the query score every chunk holding it. Such terms
 * are left out when the query has a rarer term that some chunk holds; otherwise every term is kept,
 * so that a query is never narrowed to terms that match nothing. Counts are kept for a minute.
 */
async function discriminatingTerms(db: Kysely<DB>, terms: string[]): Promise<string[]> {
  let cache = countsByDatabase.get(db);
  if (!cache) {
    cache = new Map();
    countsByDatabase.set(db, cache);
  }
  const total = await cachedCount(cache, '\u0000total', async () => {
    const { rows } = await sql<{ total: number }>`select count(*) as total from chunks`.execute(db);
    return Number(rows[0]?.total ?? 0);
  });
  const counts = await Promise.all(
    terms.map((term) =>
      cachedCount(cache, term, async () => {
        const { rows } = await sql<{ found: number }>`select count(*) as found from chunks_fts where chunks_fts match ${`"${term}"`}`.execute(db);
        return Number(rows[0]?.found ?? 0);
      }),
    ),
  );
  const informative = terms.filter((_, index) => counts[index]! > 0 && counts[index]! * 2 < total);
  return informative.length > 0 ? informative : terms;
}

export const sqliteFullTextSearch: FullTextSearch = async (db, corpusIds, terms, limit) => {
  if (terms.length === 0 || corpusIds.length === 0) return [];
  const match = (await discriminatingTerms(db, terms)).map((term) => `"${term}"`).join(' OR ');
  // The corpus is checked through the covering index chunks_corpus (corpus_id, id), without
  // reading each matching chunk's row.
  const { rows } = await sql<FullTextHit>`
    select chunks_fts.rowid as chunk_id, -bm25(chunks_fts) as score
    from chunks_fts
    where chunks_fts match ${match}
      and exists (select 1 from chunks c where c.corpus_id in (${sql.join(corpusIds)}) and c.id = chunks_fts.rowid)
    order by bm25(chunks_fts)
    limit ${limit}`.execute(db);
  return rows;
};

export const postgresFullTextSearch: FullTextSearch = async (db, corpusIds, terms, limit) => {
  if (terms.length === 0 || corpusIds.length === 0) return [];
  const query = terms.join(' | ');
  const { rows } = await sql<FullTextHit>`
    select c.id as chunk_id, ts_rank_cd(c.search, q) as score
    from chunks c, to_tsquery('english', ${query}) q
    where c.search @@ q and c.corpus_id in (${sql.join(corpusIds)})
    order by score desc, c.id
    limit ${limit}`.execute(db);
  return rows.map((row) => ({ chunk_id: Number(row.chunk_id), score: Number(row.score) }));
};
