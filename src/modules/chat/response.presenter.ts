// The AgentResponse of API.md §8, presented from a recorded answer: the v2 routes answer it in the
// envelope, the legacy routes bare; the fields are the same in both generations.
import { asRecorded, type Answer, type RecordedAnswer } from '../runtime/answer.js';
import type { AgentResponseView } from './responses.schemas.js';

export function presentResponse(answer: RecordedAnswer): AgentResponseView {
  return {
    id: answer.id,
    thread_id: answer.threadId,
    agent_id: answer.agentId,
    history_id: answer.historyId,
    project_id: answer.projectId,
    query: answer.query,
    answer: answer.text,
    status: answer.status,
    finish_reason: answer.finishReason,
    error: answer.error,
    citations: answer.citations,
    tokens: {
      prompt: answer.tokens.prompt,
      completion: answer.tokens.completion,
      total: answer.tokens.prompt + answer.tokens.completion,
      estimated: answer.tokens.estimated,
    },
    cost: answer.cost,
    latency_ms: answer.latencyMs,
    first_token_ms: answer.firstTokenMs,
    model: answer.model,
    llm_configuration_id: answer.llmConfigurationId,
    tool_calls: answer.toolCalls,
    guardrail_actions: answer.guardrailActions,
    pinned: answer.pinned,
    tags: answer.tags,
    created_on: answer.askedOn,
    created_by: answer.askedBy.email,
  };
}

/**
 * The response of an ask that has just been answered: recorded (every HTTP door records what it
 * asks), not yet pinned or tagged by anyone.
 */
export function presentAnswered(answer: Answer): AgentResponseView {
  return presentResponse({ ...asRecorded(answer), pinned: false, tags: [] });
}
