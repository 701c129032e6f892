// What a client of the OpenAI-compatible doors may bring to an ask beside its question: its own
// function tools (offered to the model beside the agent's, returned to the client when called, never
// run here), whether the model must call one, and an answer in JSON. And, when it sends back the
// results of its tools, the steps that followed the question (the calls and their results), which the
// context guardrails read like the results of the agent's own tools. What the agent's model cannot
// honour is refused before anything is recorded.
import { BadRequest } from '../../errors.js';
import type { AgentGuardrails } from '../../guardrails/index.js';
import type { ChatMessage, JsonAnswerFormat, ModelToolChoice } from '../../providers/chat/chat-model.js';
import type { ToolDefinition } from '../../tools/index.js';
import type { GuardrailActionRecord } from './ask-guardrails.js';
import type { AnsweringConfiguration } from './answering-model.js';

export interface ClientAsk {
  /** Offered beside the agent's tools; empty where the client brought none or said tool_choice none. */
  tools: ToolDefinition[];
  /** For the first model call of the answer. */
  toolChoice: ModelToolChoice;
  responseFormat?: JsonAnswerFormat | undefined;
  /** The most tokens the client wants in the answer; the agent's and its configuration's bounds still hold. */
  maxTokens?: number | undefined;
  /** The JSON pointers of the body fields these came in, for the refusals (each door names them its way). */
  fields: { tools: string; toolChoice: string; responseFormat: string };
}

/** The providers whose packages hold an answer to a JSON format (the OpenAI family's response_format). */
const JSON_PROVIDERS = new Set(['openai', 'azure_openai', 'openai_compatible']);

/**
 * Refuses what the agent's model cannot honour: a tool the client names like one of the agent's, a
 * forced call or a JSON answer from the offline answerer (it calls no tool and writes no JSON), a JSON
 * answer from a provider without a JSON mode.
 */
export function checkClientAsk(client: ClientAsk, configuration: AnsweringConfiguration | null, agentToolNames: string[]): void {
  const agentNames = new Set(agentToolNames);
  for (const [index, tool] of client.tools.entries()) {
    if (agentNames.has(tool.name)) {
      throw new BadRequest(`The agent has a tool of its own named ${tool.name}: give yours another name`, [{ pointer: `${client.fields.tools}/${index}`, message: 'names a tool of the agent' }]);
    }
  }
  if (configuration === null) {
    if (client.toolChoice !== 'auto') {
      throw new BadRequest('The agent has no language model: it answers offline and calls no tool', [{ pointer: client.fields.toolChoice, message: 'cannot be honoured offline' }]);
    }
    if (client.responseFormat) {
      throw new BadRequest('The agent has no language model: it answers offline and writes no JSON', [{ pointer: client.fields.responseFormat, message: 'cannot be honoured offline' }]);
    }
    return;
  }
  if (client.responseFormat && !JSON_PROVIDERS.has(configuration.provider)) {
    throw new BadRequest(`The agent's model (provider ${configuration.provider}) has no JSON answer format`, [{ pointer: client.fields.responseFormat, message: 'cannot be honoured by the agent’s model' }]);
  }
}

/** The results the client sent back, after the context guardrails: what the model reads, and what the guardrails did. */
export async function guardContinuation(guardrails: AgentGuardrails, continuation: ChatMessage[]): Promise<{ messages: ChatMessage[]; actions: GuardrailActionRecord[] }> {
  const actions: GuardrailActionRecord[] = [];
  const messages: ChatMessage[] = [];
  for (const message of continuation) {
    if (message.role !== 'tool') {
      messages.push(message);
      continue;
    }
    const guarded = await guardrails.apply('context', message.content);
    actions.push(...guarded.verdicts.map((verdict) => ({ ...verdict, source: `client tool result ${message.toolCallId ?? ''}`.trim() })));
    messages.push({ ...message, content: guarded.blocked ? 'The result was withheld by a guardrail.' : guarded.text });
  }
  return { messages, actions };
}
