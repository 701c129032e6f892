// The agent builder: a description in, a complete draft agent configuration out. Nothing is created;
// the client sends the draft (changed or not) to POST /api/v2/agents. Drafting takes the right to
// create agents and the chat-agent-creation flag; the organization's default model drafts, else the
// rule-based drafter. Whatever drafted it, the draft names only what the caller may attach.
import { nowMs, now } from '../../clock.js';
import { UpstreamError } from '../../errors.js';
import type { UnitOfWork } from '../../repositories.js';
import { recordUsage } from '../analytics/usage-events.js';
import type { Actor } from '../auth/actor.js';
import { agentPolicy, authorize } from '../agents/agent.policy.js';
import type { CorporaService } from '../corpora/corpora.service.js';
import type { FeatureFlagsService } from '../flags/flags.service.js';
import type { LlmConfigurationsService, ResolvedModel } from '../llm/llm-configurations.service.js';
import { costOf } from '../runtime/cost.js';
import type { AgentDraft, BuilderInput, BuilderResult } from './builder.schemas.js';
import { keepUsable, usableCandidates, type Candidates } from './builder-candidates.js';
import { draftByModel, type ModelDraftOutcome } from './model-drafter.js';
import { draftByRules } from './rule-drafter.js';

/** The draft with every id the caller may not use left out, and how many went. */
function withinCandidates(draft: AgentDraft, candidates: Candidates): { draft: AgentDraft; dropped: number } {
  const corpora = keepUsable(draft.corpus_ids, candidates.corpora);
  const tools = keepUsable(draft.tool_ids, candidates.tools);
  const guardrails = keepUsable(draft.guardrail_ids, candidates.guardrails);
  return {
    draft: { ...draft, corpus_ids: corpora.ids, tool_ids: tools.ids, guardrail_ids: guardrails.ids },
    dropped: corpora.dropped + tools.dropped + guardrails.dropped,
  };
}

export class BuilderService {
  constructor(
    private readonly store: UnitOfWork,
    private readonly flags: FeatureFlagsService,
    private readonly corpora: Pick<CorporaService, 'list'>,
    private readonly llm: Pick<LlmConfigurationsService, 'resolveForAnswering'>,
    private readonly options: { llmTimeoutMs: number },
  ) {}

  async draft(actor: Actor, input: BuilderInput): Promise<BuilderResult> {
    authorize(agentPolicy.mayCreate(actor, null, null), 'Only owners, admins and members may draft agents');
    await this.flags.require(actor, 'chat-agent-creation');
    const candidates = await usableCandidates(this.store.repos, this.corpora, this.flags, actor);
    const resolved = await this.llm.resolveForAnswering(actor.organizationId, null);
    if (!resolved) {
      const { draft, dropped } = withinCandidates(draftByRules(input.description, candidates), candidates);
      return { draft, drafted_by: 'rules', dropped_references: dropped, usage: null };
    }
    const started = nowMs();
    const outcome = await draftByModel(resolved.chatModel, input.description, candidates, this.options.llmTimeoutMs);
    const usage = await this.recordCost(actor, resolved, outcome, nowMs() - started);
    if (outcome.draft === undefined) {
      throw new UpstreamError(`The model's draft did not match the agent schema after a repair round: ${outcome.problems.slice(0, 5).join('; ')}`);
    }
    const { draft, dropped } = withinCandidates(outcome.draft, candidates);
    return { draft, drafted_by: 'model', dropped_references: dropped, usage };
  }

  /** Records the calls' usage (paid for whether or not the draft validated) and answers it for the response. */
  private async recordCost(actor: Actor, resolved: ResolvedModel, outcome: ModelDraftOutcome, latencyMs: number): Promise<BuilderResult['usage']> {
    const { configuration } = resolved;
    const cost = costOf(outcome.tokens, { inputPerMillion: configuration.input_price_per_million, outputPerMillion: configuration.output_price_per_million });
    // Usage events know answers, judges and embeddings: a draft is an answer of no agent and no response row.
    await recordUsage(this.store.repos, {
      kind: 'answer',
      status: outcome.draft === undefined ? 'failed' : 'completed',
      organization_id: actor.organizationId,
      user_id: actor.userId,
      model: configuration.model,
      llm_configuration_id: configuration.id,
      prompt_tokens: outcome.tokens.prompt,
      completion_tokens: outcome.tokens.completion,
      tokens_estimated: outcome.tokens.estimated,
      cost,
      latency_ms: latencyMs,
      occurred_on: now(),
    });
    return {
      model: configuration.model,
      llm_configuration_id: configuration.id,
      prompt_tokens: outcome.tokens.prompt,
      completion_tokens: outcome.tokens.completion,
      tokens_estimated: outcome.tokens.estimated,
      cost,
      model_calls: outcome.calls,
    };
  }
}
