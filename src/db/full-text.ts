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

export const sqliteFullTextSearch: FullTextSearch = async (db, corpusIds, terms, limit) => {
  if (terms.length === 0 || corpusIds.length === 0) return [];
  const match = terms.map((term) => `"${term}"`).join(' OR ');
  const { rows } = await sql<FullTextHit>`
    select c.id as chunk_id, -bm25(chunks_fts) as score
    from chunks_fts
    join chunks c on c.id = chunks_fts.rowid
    where chunks_fts match ${match} and c.corpus_id in (${sql.join(corpusIds)})
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
