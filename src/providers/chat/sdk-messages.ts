// The conversation and the tools in the AI SDK's terms. Tools are given without `execute`: the SDK
// hands their calls back and the runtime's tool loop runs them (through its own checks and the egress
// client), then calls the model again with the results as `tool` messages.
import { jsonSchema, type ModelMessage, type ToolSet } from 'ai';
import type { ToolDefinition } from '../../tools/tool.js';
import type { ChatMessage } from './chat-model.js';

export function sdkMessages(messages: ChatMessage[]): ModelMessage[] {
  return messages
    .filter((message) => message.role !== 'system')
    .map((message): ModelMessage => {
      if (message.role === 'tool') {
        return {
          role: 'tool',
          content: [
            {
              type: 'tool-result',
              toolCallId: message.toolCallId ?? '',
              toolName: message.toolName ?? '',
              output: message.isError ? { type: 'error-text', value: message.content } : { type: 'text', value: message.content },
            },
          ],
        };
      }
      if (message.role === 'assistant' && message.toolCalls !== undefined && message.toolCalls.length > 0) {
        return {
          role: 'assistant',
          content: [
            ...(message.content === '' ? [] : [{ type: 'text' as const, text: message.content }]),
            ...message.toolCalls.map((call) => ({ type: 'tool-call' as const, toolCallId: call.id, toolName: call.name, input: call.arguments })),
          ],
        };
      }
      return { role: message.role as 'user' | 'assistant', content: message.content };
    });
}

/** The tools as the SDK declares them to the provider; arguments are checked by the tool loop, not here. */
export function sdkTools(tools: ToolDefinition[] | undefined): ToolSet | undefined {
  if (tools === undefined || tools.length === 0) return undefined;
  return Object.fromEntries(tools.map((tool) => [tool.name, { description: tool.description, inputSchema: jsonSchema(tool.parameters) }]));
}
