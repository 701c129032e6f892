// An answer in OpenAI's words: a chat completion whole, or the chunks of one. The completion's id
// and agent_response_id name the agent response the answer was recorded as.
import { now } from '../../clock.js';
import { asRecorded, type Answer } from '../runtime/answer.js';
import { argumentsText } from './openai-client-tools.js';
import { unixSeconds } from './openai-models.js';
import type { ChatCompletion, ChatCompletionChunk } from './openai.schemas.js';

const completionId = (responseId: number) => `chatcmpl-${responseId}`;
const finishReasonOf = (answer: Answer) =>
  answer.status === 'blocked' ? 'content_filter' : answer.finishReason === 'length' ? 'length' : answer.finishReason === 'tool_calls' ? 'tool_calls' : 'stop';

/** The calls of the client's tools the answer ended with, as OpenAI writes them. */
export const clientCallsOf = (answer: Answer) => answer.toolCalls.filter((call) => call.status === 'client');
const toolCallsOf = (answer: Answer) =>
  clientCallsOf(answer).map((call) => ({ id: call.id, type: 'function' as const, function: { name: call.name, arguments: argumentsText(call.input) } }));
const usageOf = (answer: Answer) => ({ prompt_tokens: answer.tokens.prompt, completion_tokens: answer.tokens.completion, total_tokens: answer.tokens.prompt + answer.tokens.completion });

/** The completion of an answer that has ended; `model` is the model as the client named it. */
export function presentCompletion(answered: Answer, model: string): ChatCompletion {
  const answer = asRecorded(answered);
  const toolCalls = toolCallsOf(answer);
  const message =
    toolCalls.length === 0
      ? { role: 'assistant' as const, content: answer.text, refusal: null }
      : { role: 'assistant' as const, content: answer.text === '' ? null : answer.text, refusal: null, tool_calls: toolCalls };
  return {
    id: completionId(answer.id),
    object: 'chat.completion',
    created: unixSeconds(answer.askedOn),
    model,
    choices: [{ index: 0, message, finish_reason: finishReasonOf(answer), logprobs: null }],
    usage: usageOf(answer),
    agent_response_id: answer.id,
    citations: answer.citations,
  };
}

/** The chunks of one completion as its answer goes: each shares the completion's id, time and model. */
export class CompletionChunks {
  private head: { id: string; created: number; model: string };

  constructor(model: string) {
    this.head = { id: '', created: unixSeconds(now()), model };
  }

  private chunk(fields: Partial<ChatCompletionChunk> & Pick<ChatCompletionChunk, 'choices'>): ChatCompletionChunk {
    return { ...this.head, object: 'chat.completion.chunk', ...fields };
  }

  /** The first chunk, once the question is recorded: the assistant's role. */
  opened(responseId: number): ChatCompletionChunk {
    this.head = { ...this.head, id: completionId(responseId) };
    return this.chunk({ choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null, logprobs: null }] });
  }

  text(text: string): ChatCompletionChunk {
    return this.chunk({ choices: [{ index: 0, delta: { content: text }, finish_reason: null, logprobs: null }] });
  }

  /** The calls of the client's tools, each whole with its index, where the answer ended with some. */
  toolCalls(answer: Answer): ChatCompletionChunk | undefined {
    const calls = toolCallsOf(answer);
    if (calls.length === 0) return undefined;
    return this.chunk({ choices: [{ index: 0, delta: { tool_calls: calls.map((call, index) => ({ index, ...call })) }, finish_reason: null, logprobs: null }] });
  }

  /** The last chunk of the choice: why it finished, and the agent response with its citations. */
  finished(answered: Answer): ChatCompletionChunk {
    const answer = asRecorded(answered);
    return this.chunk({ choices: [{ index: 0, delta: {}, finish_reason: finishReasonOf(answer), logprobs: null }], agent_response_id: answer.id, citations: answer.citations });
  }

  /** The chunk of the usage (stream_options.include_usage), after the last one. */
  usage(answer: Answer): ChatCompletionChunk {
    return this.chunk({ choices: [], usage: usageOf(answer) });
  }
}
