// The chat model of an LLM configuration: OpenAI, Azure OpenAI, Anthropic or any OpenAI-compatible
// server (vLLM, Ollama, LM Studio, llama.cpp), always reached through the egress client.
import type { EgressClient } from '../../net/egress.js';
import { ModelCallError, type ChatEvent, type ChatModel } from './chat-model.js';
import { SdkChatModel, type ChatModelSettings } from './sdk-chat-model.js';

export type { ChatModelSettings } from './sdk-chat-model.js';

export function createChatModel(settings: ChatModelSettings, egress: EgressClient): ChatModel {
  return new SdkChatModel(settings, egress);
}

/** A model that cannot be called (its key cannot be opened): every call fails with this error. */
export function failingChatModel(model: string, error: ModelCallError): ChatModel {
  return {
    model,
    // eslint-disable-next-line require-yield
    async *stream(): AsyncIterable<ChatEvent> {
      throw error;
    },
  };
}
