// The conversation and the tools in the terms of the provider packages' language models (the AI SDK's
// provider specification), handed to the model's doStream directly. streamText would build the same
// prompt, after validating every message of the conversation against its schemas and piping the
// answer through several transform streams: at each step of a tool loop, where the conversation
// grows, that cost milliseconds of CPU for nothing the runtime uses (docs/performance.md, suite
// `tools`). Tools are given without `execute`: their calls come back to the runtime's tool loop, which
// checks and runs them, then calls the model again with the results as `tool` messages.
import type { LanguageModel } from 'ai';
import type { ToolDefinition } from '../../tools/index.js';
import type { ChatMessage, JsonAnswerFormat, ModelToolCall, ModelToolChoice } from './chat-model.js';

/** A provider package's language model (what languageModelFor builds), as the specification defines it. */
export type ProviderLanguageModel = Extract<LanguageModel, { specificationVersion: 'v3' }>;
export type ProviderCallOptions = Parameters<ProviderLanguageModel['doStream']>[0];
type ProviderPrompt = ProviderCallOptions['prompt'];
type ProviderMessage = ProviderPrompt[number];
type ToolResultMessage = Extract<ProviderMessage, { role: 'tool' }>;
type ProviderTools = NonNullable<ProviderCallOptions['tools']>;
type ProviderToolChoice = NonNullable<ProviderCallOptions['toolChoice']>;

/**
 * The prompt: the instructions as one system message first, as streamText sends them; results of
 * consecutive tool calls together in one `tool` message; empty text left out of an assistant's calls.
 */
export function providerPrompt(messages: ChatMessage[]): ProviderPrompt {
  const system = messages.filter((message) => message.role === 'system').map((message) => message.content);
  const prompt: ProviderPrompt = system.length > 0 ? [{ role: 'system', content: system.join('\n\n') }] : [];
  for (const message of messages) {
    if (message.role === 'system') continue;
    if (message.role === 'tool') {
      const result: ToolResultMessage['content'][number] = {
        type: 'tool-result',
        toolCallId: message.toolCallId ?? '',
        toolName: message.toolName ?? '',
        output: message.isError ? { type: 'error-text', value: message.content } : { type: 'text', value: message.content },
      };
      const last = prompt.at(-1);
      if (last?.role === 'tool') last.content.push(result);
      else prompt.push({ role: 'tool', content: [result] });
      continue;
    }
    if (message.role === 'assistant') {
      const calls = message.toolCalls ?? [];
      prompt.push({
        role: 'assistant',
        content: [
          ...(message.content === '' && calls.length > 0 ? [] : [{ type: 'text' as const, text: message.content }]),
          ...calls.map((call) => ({ type: 'tool-call' as const, toolCallId: call.id, toolName: call.name, input: call.arguments })),
        ],
      });
      continue;
    }
    prompt.push({ role: 'user', content: [{ type: 'text', text: message.content }] });
  }
  return prompt;
}

/** The tools as function tools; arguments are checked by the tool loop, not here. */
export function providerTools(tools: ToolDefinition[] | undefined): ProviderTools | undefined {
  if (tools === undefined || tools.length === 0) return undefined;
  return tools.map((tool) => ({
    type: 'function' as const,
    name: tool.name,
    description: tool.description,
    inputSchema: tool.parameters,
    ...(tool.strict === undefined ? {} : { strict: tool.strict }),
  }));
}

export function providerToolChoice(choice: ModelToolChoice | undefined): ProviderToolChoice {
  if (choice === undefined || choice === 'auto') return { type: 'auto' };
  if (choice === 'required') return { type: 'required' };
  return { type: 'tool', toolName: choice.tool };
}

/**
 * A JSON answer as the provider packages take it, and whether its schema is strict: OpenAI's
 * packages read it from their provider options (strict unless told), under each package's name.
 */
export function providerResponseFormat(format: JsonAnswerFormat | undefined): Pick<ProviderCallOptions, 'responseFormat' | 'providerOptions'> {
  if (format === undefined) return {};
  const strict = { strictJsonSchema: format.strict ?? false };
  return {
    responseFormat: {
      type: 'json',
      ...(format.schema === undefined ? {} : { schema: format.schema as NonNullable<Extract<ProviderCallOptions['responseFormat'], { type: 'json' }>['schema']> }),
      ...(format.name === undefined ? {} : { name: format.name }),
      ...(format.description === undefined ? {} : { description: format.description }),
    },
    providerOptions: { openai: strict, azure: strict, 'openai-compatible': strict },
  };
}

/**
 * A call as the provider streamed it, its arguments parsed: an empty text is no arguments (`{}`), text
 * that is not JSON is kept as it is, for the tool loop to tell the model (as streamText hands it over).
 */
export function toolCallOf(call: { toolCallId: string; toolName: string; input: string }): ModelToolCall {
  let input: unknown = call.input;
  if (call.input.trim() === '') input = {};
  else {
    try {
      input = JSON.parse(call.input);
    } catch {
      // Not JSON: the raw text goes to the tool loop, which answers that arguments must be an object.
    }
  }
  return { id: call.toolCallId, name: call.toolName, arguments: input };
}
