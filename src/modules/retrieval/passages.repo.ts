import type { Kysely } from 'kysely';
import type { Dialect } from '../../db/dialect.js';
import type { ChunkSearchColumns, WeightedTerm } from '../../db/full-text.js';
import type { DB } from '../../db/schema.js';
import type { SearchColumnsKind } from '../../db/search-columns.js';
import type { SearchTerms } from '../../search/analyzer.js';
import { reanalyzeChunks } from '../../search/reanalyze.sql.js';
import { raiseSearchGenerations, searchStateOf, type SearchState } from './search-generations.sql.js';

/** What scoring reads of a candidate chunk and its document (`scoringRows`). */
export interface ScoringRow {
  id: number;
  corpus_id: number;
  document_id: number;
  token_count: number;
  search_title: string;
  search_heading: string;
  search_body: string;
  source: string;
  type: string;
  chunk_count: number;
}

/** The text and place of a chunk (`passageTexts`). */
export interface PassageText {
  id: number;
  position: number;
  text: string;
  page: number | null;
  heading: string | null;
}

/** A scored chunk with its text: a passage as the answer gives it, before its score. */
export type PassageRow = ScoringRow & Omit<PassageText, 'id'>;

/** The two joined, field by field (not spread: see `scoringRows`). */
export function passageRow(row: ScoringRow, text: PassageText): PassageRow {
  return {
    id: row.id,
    corpus_id: row.corpus_id,
    document_id: row.document_id,
    token_count: row.token_count,
    search_title: row.search_title,
    search_heading: row.search_heading,
    search_body: row.search_body,
    source: row.source,
    type: row.type,
    chunk_count: row.chunk_count,
    position: text.position,
    text: text.text,
    page: text.page,
    heading: text.heading,
  };
}

export class PassagesRepo {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly dialect: Dialect,
  ) {}

  /** Chunks of the corpora holding any of the terms, best first by the database's rank: candidates to score. */
  fullTextCandidates(corpusIds: number[], terms: readonly WeightedTerm[], limit: number): Promise<number[]> {
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

  /** The columns a chunk's row is searched by in this database, made from its terms. */
  searchColumns(terms: SearchTerms): ChunkSearchColumns {
    return this.dialect.fullText.searchColumns(terms);
  }

  /** Which columns those are, named for an extraction thread to make them (src/db/search-columns.ts). */
  get searchColumnsKind(): SearchColumnsKind {
    return this.dialect.fullText.searchColumnsKind;
  }

  /** Makes the search terms of the corpus's chunks again, after its language changed. */
  async reanalyzeCorpus(corpusId: number): Promise<number> {
    const reanalysed = await reanalyzeChunks(this.db, corpusId, (terms) => this.searchColumns(terms));
    await raiseSearchGenerations(this.db, [corpusId]);
    return reanalysed;
  }

  /**
   * The corpora's languages and search generations, a search's first read: what a process kept of
   * them (statistics, chunks' rows) holds while these generations do.
   */
  searchState(corpusIds: readonly number[]): Promise<SearchState> {
    return searchStateOf(this.db, corpusIds);
  }

  /**
   * What scoring reads of the chunks with these ids: their search terms and length, with their
   * documents' sources and lengths, leaving out deleted documents; not their text, which only the
   * passages answered need (`passageTexts`: a search scores a hundred candidates and answers ten).
   * Two lookups by primary key rather than a join: PostgreSQL plans the join from its statistics,
   * which a corpus ingested minutes ago does not have yet (never analysed), and then walked every
   * document probing the chunks of each, 13 ms for 100 chunks of 241 documents instead of 0.3.
   */
  async scoringRows(chunkIds: number[]): Promise<ScoringRow[]> {
    if (chunkIds.length === 0) return [];
    const chunks = await this.db
      .selectFrom('chunks')
      .select(['id', 'corpus_id', 'document_id', 'token_count', 'search_title', 'search_heading', 'search_body'])
      .where('id', 'in', chunkIds)
      .execute();
    const documents = await this.db
      .selectFrom('documents')
      .select(['id', 'source', 'type', 'chunk_count'])
      .where('id', 'in', [...new Set(chunks.map((chunk) => chunk.document_id))])
      .where('deleted_on', 'is', null)
      .execute();
    const documentsById = new Map(documents.map((document) => [document.id, document]));
    // Each row written out field by field: spreading the chunk's row into a new object cost 1.2 ms for
    // a search's 300 candidates (V8's slow path for object spread), 40 times what this does.
    const rows: ScoringRow[] = [];
    for (const chunk of chunks) {
      const document = documentsById.get(chunk.document_id);
      if (document === undefined) continue;
      rows.push({
        id: chunk.id,
        corpus_id: chunk.corpus_id,
        document_id: chunk.document_id,
        token_count: chunk.token_count,
        search_title: chunk.search_title,
        search_heading: chunk.search_heading,
        search_body: chunk.search_body,
        source: document.source,
        type: document.type,
        chunk_count: document.chunk_count,
      });
    }
    return rows;
  }

  /** The text and place of the chunks with these ids, by id. */
  async passageTexts(chunkIds: number[]): Promise<Map<number, PassageText>> {
    if (chunkIds.length === 0) return new Map();
    const rows = await this.db.selectFrom('chunks').select(['id', 'position', 'text', 'page', 'heading']).where('id', 'in', chunkIds).execute();
    return new Map(rows.map((row) => [row.id, row]));
  }

  /** The chunks with these ids as passages: what scoring reads and their text, leaving out deleted documents. */
  async byIds(chunkIds: number[]) {
    const [rows, texts] = await Promise.all([this.scoringRows(chunkIds), this.passageTexts(chunkIds)]);
    return rows.flatMap((row) => {
      const text = texts.get(row.id);
      return text ? [passageRow(row, text)] : [];
    });
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
  async indexedSources(organizationId: number, corpusId: number, limit: number): Promise<string[]> {
    const rows = await this.db
      .selectFrom('documents')
      .select('source')
      .where('corpus_id', '=', corpusId)
      // Named as every query of documents names it: the index (corpus_id, organization_id, id) then gives the order.
      .where('organization_id', '=', organizationId)
      .where('deleted_on', 'is', null)
      .where('step', '=', 'indexed')
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
    return rows.map((row) => row.source);
  }
}
