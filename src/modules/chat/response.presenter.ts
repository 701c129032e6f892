import type { ResponseRecord } from './responses.repo.js';
import type { AgentResponseView, Citation } from './responses.schemas.js';

const parseArray = <T>(text: string): T[] => {
  const value: unknown = JSON.parse(text);
  return Array.isArray(value) ? (value as T[]) : [];
};

export function presentResponse(row: ResponseRecord): AgentResponseView {
  return {
    id: row.id,
    thread_id: row.thread_id,
    agent_id: row.agent_id,
    history_id: row.history_id,
    project_id: row.project_id,
    query: row.query,
    answer: row.answer,
    status: row.status,
    finish_reason: row.finish_reason,
    error: row.error,
    citations: parseArray<Citation>(row.citations),
    tokens: {
      prompt: row.prompt_tokens,
      completion: row.completion_tokens,
      total: row.prompt_tokens + row.completion_tokens,
      estimated: row.tokens_estimated === 1,
    },
    cost: row.cost,
    latency_ms: row.latency_ms,
    first_token_ms: row.first_token_ms,
    model: row.model,
    llm_configuration_id: row.llm_configuration_id,
    tool_calls: parseArray(row.tool_calls),
    guardrail_actions: parseArray(row.guardrail_actions),
    pinned: row.pinned_on !== null,
    tags: row.tags,
    created_on: row.created_on,
    created_by: row.created_by_email,
  };
}
