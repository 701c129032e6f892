// What asking an agent comes to, whatever door the question came through: the answer as the runtime
// knows it, typed (arrays are arrays, not the JSON text a row keeps them in). The response repository
// turns it into a row and back; each door (v2, legacy, OpenAI-compatible, evaluations) presents it
// in its own words. An ask that records nothing (an evaluation's) is an answer without an id, and
// the door that made it decides what to show of it.
import type { FinishReason, ResponseStatus } from '../../db/schema.js';
import type { GuardrailVerdict } from '../../guardrails/index.js';
import type { Citation } from '../chat/responses.schemas.js';
import type { TokenCount } from './cost.js';

/** `client`: a call of the client's own tool (OpenAI-compatible doors), returned to the client, not run. */
export type ToolCallStatus = 'ok' | 'error' | 'invalid' | 'repeated' | 'blocked' | 'client';

/** A call as the response records it (`tool_calls`) and the stream tells it (`tool_call`). */
export interface ToolCallRecord {
  /** The provider's id of the call. */
  id: string;
  /** null for a tool the answer does not have. */
  tool_id: number | null;
  name: string;
  input: unknown;
  /** What the model read, cut to RECORDED_OUTPUT_CHARACTERS. */
  output: string;
  status: ToolCallStatus;
  http_status: number | null;
  latency_ms: number;
  /** The round of the answer, from 1. */
  step: number;
}

/** A verdict as the response records it, with what it was passed on (`passage 2`, `tool call_1`) below the question. */
export type GuardrailActionRecord = GuardrailVerdict & { source?: string };

/** The question, and what answered it: known before the model is called. */
export interface AskedQuestion {
  agentId: number;
  /** The agent's project when it answered. */
  projectId: number | null;
  /** The history record whose configuration answered. */
  historyId: number | null;
  query: string;
  /** offline for the built-in answerer. */
  model: string;
  llmConfigurationId: number | null;
  /** USD a million tokens, copied from the configuration so that later price changes leave the cost alone; null where unknown. */
  prices: { input: number | null; output: number | null };
  askedOn: string;
  askedBy: { userId: number; email: string };
}

/** What came of a question once its answer ended (or failed): what completes its response. */
export interface AnswerOutcome {
  text: string;
  status: ResponseStatus;
  /** Why a completed answer ended; null when not completed. */
  finishReason: FinishReason | null;
  error: string | null;
  citations: Citation[];
  toolCalls: ToolCallRecord[];
  guardrailActions: GuardrailActionRecord[];
  tokens: TokenCount;
  /** USD; null where a price is unknown. */
  cost: number | null;
  latencyMs: number;
  firstTokenMs: number | null;
}

export interface Answer extends AskedQuestion, AnswerOutcome {
  /** The response and its thread; undefined for an ask that records nothing (AskInput.record false). */
  id: number | undefined;
  threadId: number | undefined;
}

/** An answer as its response holds it, with what the thread's owner did to it since. */
export interface RecordedAnswer extends Answer {
  id: number;
  threadId: number;
  pinned: boolean;
  tags: string[];
}

/** The answer as recorded, for a door that records every ask it answers (every HTTP door does). */
export function asRecorded(answer: Answer): Answer & { id: number; threadId: number } {
  if (answer.id === undefined || answer.threadId === undefined) throw new Error('The answer was not recorded: it has no response to present');
  return { ...answer, id: answer.id, threadId: answer.threadId };
}
