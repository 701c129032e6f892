// The passages an answer may draw on: from the corpora the agent is connected to that the asking
// user may read (a read permission or more, or being an owner or admin of the organization). A
// corpus the caller may not read is never searched, so nothing of it reaches the model, the answer
// or a citation. Passages scoring under the agent's min_score are left out; the rest are numbered
// [1]..[n] in rank order.
import type { Repositories } from '../../repositories.js';
import type { Actor } from '../auth/actor.js';
import type { RetrievalSettings } from '../agents/agent-config.js';
import type { Citation } from '../chat/responses.schemas.js';
import { allows, effectivePermission } from '../corpora/corpus.policy.js';
import type { Passage, SearchService } from '../retrieval/search.service.js';

/** A passage of an ask with its marker number. */
export type NumberedPassage = Passage & { number: number };

export async function readableCorpusIds(repos: Repositories, actor: Actor, corpusIds: number[]): Promise<number[]> {
  const grants = await repos.ask.grantsOn(actor.organizationId, actor.userId, corpusIds);
  return corpusIds.filter((corpusId) => allows(effectivePermission(actor, grants.get(corpusId)), 'read'));
}

export async function retrievePassages(
  search: Pick<SearchService, 'searchCorpora'>,
  corpusIds: number[],
  query: string,
  settings: RetrievalSettings,
): Promise<NumberedPassage[]> {
  if (corpusIds.length === 0 || settings.passages === 0) return [];
  const found = await search.searchCorpora(corpusIds, query, settings.passages);
  return found.items.filter((passage) => passage.score >= settings.min_score).map((passage, index) => ({ ...passage, number: index + 1 }));
}

/** What a citation shows of a passage: the answer's own, or one a retrieval tool found. */
export type CitablePassage = Pick<NumberedPassage, 'number' | 'document_id' | 'corpus_id' | 'source' | 'text' | 'page' | 'score'>;

export function citationOf(passage: CitablePassage): Citation {
  return {
    number: passage.number,
    document_id: passage.document_id,
    corpus_id: passage.corpus_id,
    source: passage.source,
    passage: passage.text,
    page: passage.page,
    score: passage.score,
  };
}
