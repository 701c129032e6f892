// What the runtime asks of a language model, whatever serves it: a conversation in, the answer out as
// it is written, and the provider's count of tokens when it gives one. Implementations speak the
// providers' protocols through the egress client (every call obeys the server's address rules,
// deadline and byte caps) and never put the API key in an error or a log.

import type { JsonSchema, ToolDefinition } from '../../tools/index.js';

/** A tool call the model asked for. */
export interface ModelToolCall {
  /** The provider's id of the call, quoted back with its result. */
  id: string;
  name: string;
  /** The arguments as the model wrote them: parsed JSON, or the raw text when it was not JSON. */
  arguments: unknown;
}

/**
 * One message of the conversation. An assistant message may carry the tool calls it asked for; a
 * `tool` message is the result of one call (its `content`), quoting the call's id and name.
 */
export interface ChatMessage {
  role: 'system' | 'user' | 'assistant' | 'tool';
  content: string;
  toolCalls?: ModelToolCall[];
  toolCallId?: string;
  toolName?: string;
  /** On a `tool` message: the call failed, and `content` says why. */
  isError?: boolean;
}

/** Whether the model must call a tool: `auto` (its choice, the default), `required` (one of them), or the one named. */
export type ModelToolChoice = 'auto' | 'required' | { tool: string };

/** The answer as JSON: any object, or one that a schema describes (named, as providers ask). */
export interface JsonAnswerFormat {
  type: 'json';
  schema?: JsonSchema;
  name?: string;
  description?: string;
  /** Whether the provider must keep to the schema exactly (OpenAI's strict structured outputs). */
  strict?: boolean;
}

export interface ChatRequest {
  messages: ChatMessage[];
  /** Tools the model may call; none: it can only answer. */
  tools?: ToolDefinition[];
  /** With tools: whether the model must call one; `auto` when absent. */
  toolChoice?: ModelToolChoice;
  /** The answer as JSON instead of text; text when absent. */
  responseFormat?: JsonAnswerFormat;
  temperature: number;
  maxTokens: number;
  /** Aborted when the client goes away: the provider call stops. */
  signal: AbortSignal;
  /**
   * false: nobody reads the answer as it is written (an ask whose door sends its answer whole), and
   * the provider is asked for it whole; it then comes as one piece of text. Streamed when absent.
   */
  streamed?: boolean;
}

export interface ChatUsage {
  prompt: number;
  completion: number;
}

/**
 * The answer as it arrives: text pieces in order, the tool calls the model asks for (the call ends
 * after them: the caller runs the tools and calls again with their results), then whether the
 * provider cut it at maxTokens and (where the provider sends it) the usage.
 */
export type ChatEvent =
  | { type: 'delta'; text: string }
  | { type: 'usage'; usage: ChatUsage }
  | { type: 'tool_call'; call: ModelToolCall }
  /** The provider said it stopped at the request's maxTokens: the answer is cut. */
  | { type: 'length' };

export interface ChatModel {
  /** The model as the configuration names it. */
  readonly model: string;
  /**
   * Throws (or the iteration throws) ModelCallError; retries happen only before the first event. When
   * the request's signal aborts, the provider's connection closes and the iteration throws the signal's
   * reason. Stopping the iteration early (break) also closes the connection.
   */
  stream(request: ChatRequest): AsyncIterable<ChatEvent>;
}

/** Why a model call failed, in terms a user can act on. */
export type ModelErrorClass = 'auth' | 'not_found' | 'rate_limited' | 'unreachable' | 'timeout' | 'bad_response';

export class ModelCallError extends Error {
  /**
   * The failure told without the provider's address, its own words or any setting of the
   * configuration: what a caller who may not read the LLM configuration is shown. A message the
   * server wrote itself (a deadline, a tool mistake) is its own public message.
   */
  readonly publicMessage: string;

  constructor(
    readonly errorClass: ModelErrorClass,
    message: string,
    publicMessage?: string,
  ) {
    super(message);
    this.name = 'ModelCallError';
    this.publicMessage = publicMessage ?? message;
  }

  /** 504 for a model that did not answer in time, 502 for every other failure. */
  get status(): 502 | 504 {
    return this.errorClass === 'timeout' ? 504 : 502;
  }
}
