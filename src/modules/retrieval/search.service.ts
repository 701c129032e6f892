// Retrieval: the passages of a corpus that best match a query, from documents the caller may read.
// Full text always; where vectors are in use, also the chunks nearest to the query's vector, the two
// rankings fused by reciprocal rank. A provider that fails at query time leaves full text alone,
// and the answer says so.
import type { FastifyBaseLogger } from 'fastify';
import { queryTerms } from '../../db/full-text.js';
import type { UnitOfWork } from '../../repositories.js';
import type { Actor } from '../auth/actor.js';
import type { CorporaService } from '../corpora/corpora.service.js';
import type { RetrievalMode } from '../corpora/corpus.presenter.js';
import { reciprocalRankFusion } from './rank-fusion.js';
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

export class SearchService {
  constructor(
    private readonly store: UnitOfWork,
    private readonly corpora: CorporaService,
    private readonly vectors: VectorIndex,
    private readonly log: FastifyBaseLogger,
  ) {}

  /** Searches corpora the caller has already been checked to read. */
  async searchCorpora(corpusIds: number[], query: string, limit: number): Promise<SearchResult> {
    const passages = this.store.repos.passages;
    if (!this.vectors.active) {
      const hits = await passages.fullTextSearch(corpusIds, queryTerms(query), limit);
      return { items: await this.passages(hits.map((hit) => ({ id: hit.chunk_id, score: hit.score }))), retrieval_mode: 'full_text' };
    }
    const depth = fusionDepth(limit);
    const [fullText, nearest] = await Promise.all([
      passages.fullTextSearch(corpusIds, queryTerms(query), depth),
      this.vectors.nearest(corpusIds, query, depth).catch((error: unknown) => error as Error),
    ]);
    if (nearest instanceof Error) {
      this.log.warn({ err: nearest }, 'query embedding failed; searching full text alone');
      const items = await this.passages(fullText.slice(0, limit).map((hit) => ({ id: hit.chunk_id, score: hit.score })));
      return { items, retrieval_mode: 'full_text', warning: `Full text only: ${nearest.message}` };
    }
    const fused = reciprocalRankFusion([fullText.map((hit) => hit.chunk_id), nearest.map((hit) => hit.chunk_id)]);
    return { items: await this.passages(fused.slice(0, limit)), retrieval_mode: 'hybrid' };
  }

  async search(actor: Actor, corpusId: number, query: string, limit: number): Promise<SearchResult> {
    await this.corpora.requireCorpus(actor, corpusId, 'read');
    return this.searchCorpora([corpusId], query, limit);
  }

  /** The ranked chunks as passages, in rank order; chunks of deleted documents are left out. */
  private async passages(ranked: { id: number; score: number }[]): Promise<Passage[]> {
    const chunks = new Map((await this.store.repos.passages.byIds(ranked.map((hit) => hit.id))).map((c) => [c.id, c]));
    return ranked.flatMap((hit) => {
      const chunk = chunks.get(hit.id);
      if (!chunk) return [];
      return [
        {
          chunk_id: chunk.id,
          document_id: chunk.document_id,
          corpus_id: chunk.corpus_id,
          source: chunk.source,
          type: chunk.type,
          position: chunk.position,
          page: chunk.page,
          heading: chunk.heading,
          text: chunk.text,
          score: Math.round(hit.score * 1e6) / 1e6,
        },
      ];
    });
  }
}
