// What a draft may name: the corpora the caller may read, the organization's enabled tools, and its
// guardrails when the guardrail flag lets agents be given any. Anything else a drafter proposes is
// dropped, so a draft never names what the caller could not attach.
import type { Repositories } from '../../repositories.js';
import type { Actor } from '../auth/actor.js';
import type { CorporaService } from '../corpora/corpora.service.js';
import type { FeatureFlagsService } from '../flags/flags.service.js';
import { readableCorpusIds } from '../runtime/ask-retrieval.js';

export interface Candidate {
  id: number;
  name: string;
  description: string;
}

export interface Candidates {
  corpora: Candidate[];
  tools: Candidate[];
  guardrails: Candidate[];
}

/** The most of each kind put before a drafter: enough for any organization's catalogue to be shown. */
export const CANDIDATES_PER_KIND = 200;

const window = { limit: CANDIDATES_PER_KIND, offset: 0 };
const asCandidate = (row: { id: number; name: string; description?: string | null }): Candidate => ({ id: row.id, name: row.name, description: row.description ?? '' });

export async function usableCandidates(repos: Repositories, corpora: Pick<CorporaService, 'list'>, flags: FeatureFlagsService, actor: Actor): Promise<Candidates> {
  const listed = (await corpora.list(actor, window)).items;
  // The corpus listing shows what the caller holds a grant on; readable narrows it to read permission.
  const readable = new Set(await readableCorpusIds(repos, actor, listed.map((corpus) => corpus.id)));
  const tools = (await repos.tools.list(actor.organizationId, { enabled: true }, window)).items;
  const guardrails = (await flags.isEnabled(actor.organizationId, 'guardrail')) ? (await repos.guardrails.list(actor.organizationId, window, undefined)).items : [];
  return {
    corpora: listed.filter((corpus) => readable.has(corpus.id)).map(asCandidate),
    tools: tools.map(asCandidate),
    guardrails: guardrails.map((guardrail) => asCandidate({ id: guardrail.id, name: guardrail.name, description: `${guardrail.type} guardrail` })),
  };
}

/** The ids among those proposed that name a candidate, distinct and ascending, and how many did not. */
export function keepUsable(proposed: number[], candidates: Candidate[]): { ids: number[]; dropped: number } {
  const usable = new Set(candidates.map((candidate) => candidate.id));
  const distinct = [...new Set(proposed)];
  const ids = distinct.filter((id) => usable.has(id)).sort((a, b) => a - b);
  return { ids, dropped: distinct.length - ids.length };
}
