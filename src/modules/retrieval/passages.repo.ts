import type { Kysely } from 'kysely';
import type { Dialect } from '../../db/dialect.js';
import type { DB } from '../../db/schema.js';
import { reanalyzeChunks } from '../../search/reanalyze.js';
import { storedSearchLanguage, type SearchLanguage } from '../../search/languages.js';

export class PassagesRepo {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly dialect: Dialect,
  ) {}

  /** Chunks of the corpora holding any of the terms, best first by the database's rank: candidates to score. */
  fullTextCandidates(corpusIds: number[], terms: string[], limit: number): Promise<number[]> {
    return this.dialect.fullText.candidates(this.db, corpusIds, terms, limit);
  }

  /** How many chunks of the corpora hold each term, in the order of the terms. */
  documentFrequencies(corpusIds: number[], terms: string[]): Promise<number[]> {
    return this.dialect.fullText.documentFrequencies(this.db, corpusIds, terms);
  }

  /** How many chunks the corpora have, and their mean length in tokens. */
  async corporaSize(corpusIds: number[]): Promise<{ chunks: number; averageLength: number }> {
    if (corpusIds.length === 0) return { chunks: 0, averageLength: 0 };
    const row = await this.db
      .selectFrom('chunks')
      .select((eb) => [eb.fn.countAll<number>().as('chunks'), eb.fn.avg<number>('token_count').as('average')])
      .where('corpus_id', 'in', corpusIds)
      .executeTakeFirst();
    return { chunks: Number(row?.chunks ?? 0), averageLength: Number(row?.average ?? 0) };
  }

  /** The languages the corpora are analysed in. */
  async languagesOf(corpusIds: number[]): Promise<SearchLanguage[]> {
    if (corpusIds.length === 0) return [];
    const rows = await this.db.selectFrom('corpora').select('language').distinct().where('id', 'in', corpusIds).orderBy('language').execute();
    return rows.map((row) => storedSearchLanguage(row.language));
  }

  /** The language a corpus's text is analysed in. */
  async languageOf(corpusId: number): Promise<SearchLanguage> {
    const row = await this.db.selectFrom('corpora').select('language').where('id', '=', corpusId).executeTakeFirst();
    return storedSearchLanguage(row?.language);
  }

  /** Makes the search terms of the corpus's chunks again, after its language changed. */
  reanalyzeCorpus(corpusId: number): Promise<number> {
    return reanalyzeChunks(this.db, corpusId);
  }

  /** The chunks with these ids, with their search terms and their documents' sources, leaving out deleted documents. */
  byIds(chunkIds: number[]) {
    if (chunkIds.length === 0) return Promise.resolve([]);
    return this.db
      .selectFrom('chunks as c')
      .innerJoin('documents as d', 'd.id', 'c.document_id')
      .select([
        'c.id',
        'c.corpus_id',
        'c.document_id',
        'c.position',
        'c.text',
        'c.page',
        'c.heading',
        'c.token_count',
        'c.search_title',
        'c.search_heading',
        'c.search_body',
        'd.source',
        'd.type',
        'd.chunk_count',
      ])
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
