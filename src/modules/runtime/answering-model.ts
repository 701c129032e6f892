// What answers an agent: the LLM configuration it resolves to (its own, or the organization's
// default) with a ChatModel speaking to its provider, or nothing, and then the offline answerer.
// The LLM configurations module provides the resolver; the runtime needs only this much of it.
import type { ChatModel } from '../../providers/chat/chat-model.js';

export interface AnsweringConfiguration {
  id: number;
  name: string;
  provider: string;
  model: string;
  input_price_per_million: number | null;
  output_price_per_million: number | null;
  /** null: unknown, and DEFAULT_CONTEXT_WINDOW is assumed. */
  context_window: number | null;
  /** Most tokens one answer may take (answer-length.ts). */
  max_answer_tokens: number;
}

export interface AnsweringModel {
  configuration: AnsweringConfiguration;
  chatModel: ChatModel;
}

export interface AnsweringModels {
  /** undefined: no configuration answers for the agent (none named, no default). */
  resolveForAnswering(organizationId: number, llmConfigurationId: number | null): Promise<AnsweringModel | undefined>;
}

/** The context window assumed for a configuration that does not give one: small enough for most models. */
export const DEFAULT_CONTEXT_WINDOW = 8192;
