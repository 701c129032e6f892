// Usage events: every model call the platform pays for (an agent's answer, a judge's verdict in an
// evaluation, a batch of embeddings), recorded once with the scope it counts towards. Analytics of
// cost, tokens and queries read these rows, so a figure always agrees with the calls it comes from.
// An agent's answers are recorded by the runtime from their response rows (UsageEventsRepo.recordAnswer);
// recordUsage is for the calls that have no response row: judges and embeddings.
// Cost is kept as an integer count of nano-dollars (USD 1e-9): sums of integers are exact on both
// databases, so a total is the sum of its points to the last digit.
import { now } from '../../clock.js';
import type { DocumentRow } from '../../db/schema.js';
import type { Repositories } from '../../repositories.js';

export const USAGE_KINDS = ['answer', 'judge', 'embedding'] as const;
export type UsageKind = (typeof USAGE_KINDS)[number];

/** One model call (or one answer's calls, its tool rounds summed), as its caller knows it. */
export interface UsageEvent {
  kind: UsageKind;
  organization_id: number;
  /** Whether the call succeeded, for an answer made without a response row; null otherwise. */
  status?: 'completed' | 'blocked' | 'failed' | null;
  /** The agent answering, or the agent an evaluation evaluates (judge calls count towards it). */
  agent_id?: number | null;
  /** The corpus whose documents were embedded. */
  corpus_id?: number | null;
  /** The agent's project and team when the call was made; looked up from the agent when both are left out. */
  project_id?: number | null;
  team_id?: number | null;
  /** Who asked (answers), who started the evaluation (judges), who added the document (embeddings). */
  user_id?: number | null;
  response_id?: number | null;
  evaluation_id?: number | null;
  document_id?: number | null;
  model: string;
  llm_configuration_id?: number | null;
  prompt_tokens: number;
  completion_tokens: number;
  /** The provider gave no usage and the tokens were counted here. */
  tokens_estimated?: boolean;
  /** USD; null when a price is unknown (never guessed). */
  cost: number | null;
  latency_ms?: number | null;
  /** ISO 8601 instant of the call. */
  occurred_on: string;
}

/** The instant as ISO 8601 UTC with milliseconds: on SQLite, times compare as text, so all must be written alike. */
function instantOf(text: string): string {
  const ms = Date.parse(text);
  if (Number.isNaN(ms)) throw new Error(`Not an instant: ${text}`);
  return new Date(ms).toISOString();
}

/** USD as whole nano-dollars, the unit events store. */
export const toNanoUsd = (usd: number): number => Math.round(usd * 1e9);
/** Nano-dollars back to USD, rounded to the millionth of a cent responses carry. */
export const fromNanoUsd = (nano: number): number => Math.round(nano / 10) / 1e8;

/**
 * Records one usage event. Pass the repositories of the transaction that records the call itself
 * (a response, an evaluation result) so that both are written or neither.
 */
export async function recordUsage(repos: Pick<Repositories, 'usageEvents'>, event: UsageEvent): Promise<void> {
  // A response's answer event is the runtime's, made from the row; a second one would count it twice.
  if (event.kind === 'answer' && event.response_id != null) throw new Error('The answer event of a response is recorded by the runtime');
  let { project_id: projectId = null, team_id: teamId = null } = event;
  if (event.agent_id != null && event.project_id === undefined && event.team_id === undefined) {
    const owner = await repos.usageEvents.agentOwner(event.organization_id, event.agent_id);
    projectId = owner?.project_id ?? null;
    teamId = owner?.team_id ?? null;
  }
  await repos.usageEvents.insert({
    kind: event.kind,
    status: event.status ?? null,
    organization_id: event.organization_id,
    agent_id: event.agent_id ?? null,
    corpus_id: event.corpus_id ?? null,
    project_id: projectId,
    team_id: teamId,
    user_id: event.user_id ?? null,
    response_id: event.response_id ?? null,
    evaluation_id: event.evaluation_id ?? null,
    document_id: event.document_id ?? null,
    model: event.model,
    llm_configuration_id: event.llm_configuration_id ?? null,
    prompt_tokens: Math.max(0, Math.round(event.prompt_tokens)),
    completion_tokens: Math.max(0, Math.round(event.completion_tokens)),
    tokens_estimated: event.tokens_estimated ? 1 : 0,
    cost_nano_usd: event.cost === null ? null : toNanoUsd(event.cost),
    latency_ms: event.latency_ms == null ? null : Math.round(event.latency_ms),
    occurred_on: instantOf(event.occurred_on),
  });
}

/** The event of embedding a document's chunks: counted for its corpus and for whoever added it. */
export function embeddingEvent(document: Pick<DocumentRow, 'organization_id' | 'corpus_id' | 'id' | 'created_by'>, model: string, promptTokens: number): UsageEvent {
  return {
    kind: 'embedding',
    organization_id: document.organization_id,
    corpus_id: document.corpus_id,
    document_id: document.id,
    user_id: document.created_by,
    model,
    prompt_tokens: promptTokens,
    completion_tokens: 0,
    cost: null,
    occurred_on: now(),
  };
}
