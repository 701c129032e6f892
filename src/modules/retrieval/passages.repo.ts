import type { Kysely } from 'kysely';
import type { Dialect } from '../../db/dialect.js';
import type { DB } from '../../db/schema.js';

export class PassagesRepo {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly dialect: Dialect,
  ) {}

  /** Chunks of the corpora that match the query's terms, best first (BM25 on SQLite, ts_rank on PostgreSQL). */
  fullTextSearch(corpusIds: number[], terms: string[], limit: number) {
    return this.dialect.fullTextSearch(this.db, corpusIds, terms, limit);
  }

  /** The chunks with these ids, with their documents' sources, leaving out deleted documents. */
  byIds(chunkIds: number[]) {
    if (chunkIds.length === 0) return Promise.resolve([]);
    return this.db
      .selectFrom('chunks as c')
      .innerJoin('documents as d', 'd.id', 'c.document_id')
      .select(['c.id', 'c.corpus_id', 'c.document_id', 'c.position', 'c.text', 'c.page', 'c.heading', 'd.source', 'd.type'])
      .where('c.id', 'in', chunkIds)
      .where('d.deleted_on', 'is', null)
      .execute();
  }

  /** The headings most chunks of the corpus fall under, most frequent first. */
  async frequentHeadings(corpusId: number, limit: number): Promise<string[]> {
    const rows = await this.db
      .selectFrom('chunks')
      .select(['heading', (eb) => eb.fn.countAll<number>().as('uses')])
      .where('corpus_id', '=', corpusId)
      .where('heading', 'is not', null)
      .groupBy('heading')
      .orderBy('uses', 'desc')
      .orderBy('heading')
      .limit(limit)
      .execute();
    return rows.map((row) => row.heading!);
  }

  /** Sources of the corpus's indexed documents, newest first. */
  async indexedSources(corpusId: number, limit: number): Promise<string[]> {
    const rows = await this.db
      .selectFrom('documents')
      .select('source')
      .where('corpus_id', '=', corpusId)
      .where('deleted_on', 'is', null)
      .where('step', '=', 'indexed')
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
    return rows.map((row) => row.source);
  }
}
