// Retrieval: the passages of a corpus that best match a query, from documents the caller may read.
// Full text always, scored from 0 to 1 alike on both databases; where vectors are in use, also the
// chunks nearest to the query's vector, the two rankings fused by reciprocal rank. A provider that
// fails at query time leaves full text alone, and the answer says so.
import type { FastifyBaseLogger } from 'fastify';
import { queryTerms } from '../../search/analyzer.js';
import { storedSearchLanguage, type SearchLanguage } from '../../search/languages.js';
import { candidateCount, candidateTerms, countedTerms } from '../../search/candidates.js';
import { QueryScorer, rankChunks } from '../../search/ranking.js';
import type { UnitOfWork } from '../../repositories.js';
import type { Actor } from '../auth/actor.js';
import type { CorporaService } from '../corpora/corpora.service.js';
import type { RetrievalMode } from '../corpora/corpus.presenter.js';
import { KeptChunkRows } from './kept-chunk-rows.js';
import { passageRow, type PassageRow, type PassagesRepo, type ScoringRow } from './passages.repo.js';
import { reciprocalRankFusion, RRF_K } from './rank-fusion.js';
import { SearchStatistics } from './search-statistics.js';
import type { VectorIndex } from './vector-index.js';

export interface Passage {
  chunk_id: number;
  document_id: number;
  corpus_id: number;
  source: string;
  type: string;
  position: number;
  page: number | null;
  heading: string | null;
  text: string;
  score: number;
}

export interface SearchResult {
  items: Passage[];
  retrieval_mode: RetrievalMode;
  /** Set when hybrid retrieval was expected but the answer is from full text alone, saying why. */
  warning?: string;
}

/** Candidates each ranking contributes to the fusion: deeper than the answer, so that agreement counts. */
const fusionDepth = (limit: number) => Math.max(limit, 50);

/** The best reciprocal-rank score there is: first in both rankings. Fused scores are divided by it. */
const BEST_FUSED = 2 / (RRF_K + 1);


export class SearchService {
  private readonly statistics = new SearchStatistics();
  private readonly kept = new KeptChunkRows();

  constructor(
    private readonly store: UnitOfWork,
    private readonly corpora: CorporaService,
    private readonly vectors: VectorIndex,
    private readonly log: FastifyBaseLogger,
  ) {}

  /**
   * Searches corpora the caller has already been checked to read; `languages`, their languages when
   * the caller has just read them (otherwise read here).
   */
  async searchCorpora(corpusIds: number[], query: string, limit: number, languages?: SearchLanguage[]): Promise<SearchResult> {
    if (!this.vectors.active) {
      return { items: await this.withTexts(await this.fullText(corpusIds, query, limit, languages)), retrieval_mode: 'full_text' };
    }
    const depth = fusionDepth(limit);
    const [fullText, nearest] = await Promise.all([
      this.fullText(corpusIds, query, depth, languages),
      this.vectors.nearest(corpusIds, query, depth).catch((error: unknown) => error as Error),
    ]);
    if (nearest instanceof Error) {
      this.log.warn({ err: nearest }, 'query embedding failed; searching full text alone');
      const items = await this.withTexts(fullText.slice(0, limit));
      return { items, retrieval_mode: 'full_text', warning: `Full text only: ${nearest.message}` };
    }
    const fused = reciprocalRankFusion([fullText.map(({ row }) => row.id), nearest.map((hit) => hit.chunk_id)]).slice(0, limit);
    const rows = new Map((await this.store.repos.passages.byIds(fused.map((hit) => hit.id))).map((row) => [row.id, row]));
    const items = fused.flatMap((hit) => {
      const row = rows.get(hit.id);
      return row ? [passage(row, hit.score / BEST_FUSED)] : [];
    });
    return { items, retrieval_mode: 'hybrid' };
  }

  /** The ranked chunks as passages, in their order, with their text. */
  private async withTexts(ranked: { row: ScoringRow; score: number }[]): Promise<Passage[]> {
    const texts = await this.kept.passageTexts(this.store.repos.passages, ranked.map(({ row }) => row.id));
    return ranked.flatMap(({ row, score }) => {
      const text = texts.get(row.id);
      return text ? [passage(passageRow(row, text), score)] : [];
    });
  }

  /**
   * Full text: the database finds candidates by the query's rarer terms, the server scores them
   * (src/search/ranking.ts) with every term, best first. Chunks of deleted documents are left out.
   */
  private async fullText(corpusIds: number[], query: string, depth: number, known?: SearchLanguage[]): Promise<{ row: ScoringRow; score: number }[]> {
    const passages = this.store.repos.passages;
    const state = await passages.searchState(corpusIds);
    const languages = known ?? state.languages.map(storedSearchLanguage);
    // Corpora in several languages: the query's terms in each of them.
    const terms = [...new Set(languages.flatMap((language) => queryTerms(query, language)))].slice(0, 32);
    if (terms.length === 0) return [];
    const statistics = await this.statistics.of(passages, corpusIds, state.generations, countedTerms(terms));
    const candidates = await passages.fullTextCandidates(corpusIds, candidateTerms(terms, statistics), candidateCount(depth));
    return rankChunks(new QueryScorer(terms, statistics), await this.kept.scoringRows(passages, candidates, state.generations), depth);
  }

  async search(actor: Actor, corpusId: number, query: string, limit: number): Promise<SearchResult> {
    const { corpus } = await this.corpora.requireCorpus(actor, corpusId, 'read');
    return this.searchCorpora([corpusId], query, limit, [storedSearchLanguage(corpus.language)]);
  }
}

/** A chunk as the answer gives it; the score from 0 to 1, to six places. */
function passage(row: PassageRow, score: number): Passage {
  return {
    chunk_id: row.id,
    document_id: row.document_id,
    corpus_id: row.corpus_id,
    source: row.source,
    type: row.type,
    position: row.position,
    page: row.page,
    heading: row.heading,
    text: row.text,
    score: Math.round(score * 1e6) / 1e6,
  };
}
