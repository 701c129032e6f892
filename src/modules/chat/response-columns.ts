// An answer as the columns of its response row, and back: the lists (citations, tool calls,
// guardrail actions) are JSON text in the row, the estimated flag 0 or 1. Only the repositories
// that write and read agent_responses use these.
import type { AgentResponseRow } from '../../db/schema.js';
import type { AnswerOutcome, AskedQuestion, RecordedAnswer } from '../runtime/answer.js';

export function questionColumns(organizationId: number, question: AskedQuestion) {
  return {
    organization_id: organizationId,
    agent_id: question.agentId,
    project_id: question.projectId,
    history_id: question.historyId,
    query: question.query,
    model: question.model,
    llm_configuration_id: question.llmConfigurationId,
    input_price_per_million: question.prices.input,
    output_price_per_million: question.prices.output,
    created_on: question.askedOn,
    created_by: question.askedBy.userId,
  };
}

export function outcomeColumns(outcome: AnswerOutcome) {
  return {
    answer: outcome.text,
    status: outcome.status,
    error: outcome.error,
    finish_reason: outcome.finishReason,
    citations: JSON.stringify(outcome.citations),
    tool_calls: JSON.stringify(outcome.toolCalls),
    guardrail_actions: JSON.stringify(outcome.guardrailActions),
    prompt_tokens: outcome.tokens.prompt,
    completion_tokens: outcome.tokens.completion,
    tokens_estimated: outcome.tokens.estimated ? 1 : 0,
    cost: outcome.cost,
    latency_ms: outcome.latencyMs,
    first_token_ms: outcome.firstTokenMs,
  };
}

const parseArray = <T>(text: string): T[] => {
  const value: unknown = JSON.parse(text);
  return Array.isArray(value) ? (value as T[]) : [];
};

export function recordedAnswerOf(row: AgentResponseRow & { created_by_email: string; tags: string[] }): RecordedAnswer {
  return {
    id: row.id,
    threadId: row.thread_id,
    agentId: row.agent_id,
    projectId: row.project_id,
    historyId: row.history_id,
    query: row.query,
    model: row.model,
    llmConfigurationId: row.llm_configuration_id,
    prices: { input: row.input_price_per_million, output: row.output_price_per_million },
    askedOn: row.created_on,
    askedBy: { userId: row.created_by, email: row.created_by_email },
    text: row.answer,
    status: row.status,
    finishReason: row.finish_reason,
    error: row.error,
    citations: parseArray(row.citations),
    toolCalls: parseArray(row.tool_calls),
    guardrailActions: parseArray(row.guardrail_actions),
    tokens: { prompt: row.prompt_tokens, completion: row.completion_tokens, estimated: row.tokens_estimated === 1 },
    cost: row.cost,
    latencyMs: row.latency_ms,
    firstTokenMs: row.first_token_ms,
    pinned: row.pinned_on !== null,
    tags: row.tags,
  };
}
