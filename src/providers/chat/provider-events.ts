// A provider's answer as the runtime's ChatEvents, whether it came streamed (doStream's parts, one
// at a time) or whole (doGenerate's result): text pieces and tool calls in the order the provider
// gave them, then whether it stopped at the request's max tokens, then its count of tokens.
import type { ChatEvent } from './chat-model.js';
import { toolCallOf, type ProviderLanguageModel } from './sdk-messages.js';

type GenerateResult = Awaited<ReturnType<ProviderLanguageModel['doGenerate']>>;
type StreamPart = Awaited<ReturnType<ProviderLanguageModel['doStream']>>['stream'] extends ReadableStream<infer Part> ? Part : never;
type Finish = Pick<GenerateResult, 'finishReason' | 'usage'>;

/** How the answer ended: cut at max tokens, and the usage (only what the provider counted: an answer without it leaves the estimate to the caller). */
function* finishEvents({ finishReason, usage }: Finish): Generator<ChatEvent> {
  if (finishReason.unified === 'length') yield { type: 'length' };
  const inputTokens = usage.inputTokens.total;
  const outputTokens = usage.outputTokens.total;
  if (inputTokens !== undefined || outputTokens !== undefined) yield { type: 'usage', usage: { prompt: inputTokens ?? 0, completion: outputTokens ?? 0 } };
}

/**
 * The events of one streamed part; an `error` part is thrown. Calls of unknown tools and unreadable
 * arguments come as they are: the tool loop answers them.
 */
export function* streamPartEvents(part: StreamPart): Generator<ChatEvent> {
  if (part.type === 'text-delta' && part.delta !== '') yield { type: 'delta', text: part.delta };
  else if (part.type === 'tool-call') yield { type: 'tool_call', call: toolCallOf(part) };
  else if (part.type === 'error') throw part.error;
  else if (part.type === 'finish') yield* finishEvents(part);
}

/** The events of a whole answer: each text as one piece, as a stream of one part would give it. */
export function* wholeAnswerEvents(result: GenerateResult): Generator<ChatEvent> {
  for (const part of result.content) {
    if (part.type === 'text' && part.text !== '') yield { type: 'delta', text: part.text };
    else if (part.type === 'tool-call') yield { type: 'tool_call', call: toolCallOf(part) };
  }
  yield* finishEvents(result);
}
