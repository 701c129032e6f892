// Retrieval: the passages of a corpus that best match a query, from documents the caller may read.
import type { Database } from '../../db/database.js';
import { queryTerms } from '../../db/full-text.js';
import type { Actor } from '../auth/actor.js';
import type { CorporaService } from '../corpora/corpora.service.js';
import { PassagesRepo } from './passages.repo.js';

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

export class SearchService {
  constructor(
    private readonly database: Database,
    private readonly corpora: CorporaService,
  ) {}

  /** Searches corpora the caller has already been checked to read. */
  async searchCorpora(corpusIds: number[], query: string, limit: number): Promise<Passage[]> {
    const hits = await this.database.dialect.fullTextSearch(this.database.db, corpusIds, queryTerms(query), limit);
    const chunks = new Map((await new PassagesRepo(this.database.db).byIds(hits.map((hit) => hit.chunk_id))).map((c) => [c.id, c]));
    return hits.flatMap((hit) => {
      const chunk = chunks.get(hit.chunk_id);
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

  async search(actor: Actor, corpusId: number, query: string, limit: number): Promise<Passage[]> {
    await this.corpora.requireCorpus(actor, corpusId, 'read');
    return this.searchCorpora([corpusId], query, limit);
  }
}
