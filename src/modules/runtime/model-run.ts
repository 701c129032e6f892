// One model call of an ask, as it streams (collect-stream.ts reads it): pieces pass through the
// citation-marker filter to the listener, the provider's usage is kept, and the call ends in one of
// five ways — completed, cut at the answer's most characters (what came up to them kept), failed
// (ModelCallError), timed out (the configured LLM timeout over the whole answer) or cancelled (the
// client went away).
import type { ChatModel, ChatRequest, ChatUsage, ModelToolCall } from '../../providers/chat/chat-model.js';
import { ModelCallError } from '../../providers/chat/chat-model.js';
import { collectStream, type CollectedStream } from '../../providers/chat/collect-stream.js';
import { CitationMarkers } from './citation-markers.js';

export const CANCELLED_BY_CLIENT = 'cancelled by the client';

export type RunFailure =
  | { kind: 'cancelled'; message: typeof CANCELLED_BY_CLIENT }
  | { kind: 'model'; error: ModelCallError; cause?: unknown };

export interface ModelRunOptions {
  model: ChatModel;
  request: Omit<ChatRequest, 'signal'>;
  /** Passages numbered in the prompt: markers beyond them are dropped (unless the answer is JSON). */
  passages: number;
  /** Aborted when the client goes away. */
  clientSignal: AbortSignal;
  /** Aborted when the answer must stop without failing (an output guardrail blocked it). */
  stopSignal?: AbortSignal;
  timeoutMs: number;
  /** Characters of answer this call may still add; past them the call stops and the answer is cut. */
  maxCharacters: number;
  /** Milliseconds since the question arrived. */
  elapsed: () => number;
  onDelta: (text: string) => void;
}

export interface ModelRun {
  /** The text sent on, with unknown markers removed: the deltas joined. */
  answer: string;
  /** Passage numbers cited, in order of first use. */
  cited: number[];
  usage: ChatUsage | undefined;
  /** The tools the model asked to call, in order. */
  toolCalls: ModelToolCall[];
  firstTokenMs: number | null;
  /** The answer was cut at its most characters, or the provider stopped it at maxTokens. */
  cut: boolean;
  failure: RunFailure | undefined;
}

export async function runModel(options: ModelRunOptions): Promise<ModelRun> {
  const markers = new CitationMarkers(options.passages, options.request.responseFormat === undefined);
  let firstTokenMs: number | null = null;
  const collected = await collectStream(options.model, {
    request: options.request,
    signals: [options.clientSignal, ...(options.stopSignal ? [options.stopSignal] : [])],
    timeoutMs: options.timeoutMs,
    maxCharacters: options.maxCharacters,
    filter: markers,
    onText: (text) => {
      firstTokenMs ??= Math.round(options.elapsed());
      options.onDelta(text);
    },
  });
  return {
    answer: collected.text,
    cited: markers.used(),
    usage: collected.usage,
    toolCalls: collected.toolCalls,
    firstTokenMs,
    cut: collected.cut,
    failure: failureOf(options, collected.failure, collected.timedOut),
  };
}

function failureOf(options: ModelRunOptions, failure: CollectedStream['failure'], timedOut: boolean): RunFailure | undefined {
  if (options.stopSignal?.aborted && !options.clientSignal.aborted) return undefined;
  if (options.clientSignal.aborted) return { kind: 'cancelled', message: CANCELLED_BY_CLIENT };
  if (timedOut) return { kind: 'model', error: new ModelCallError('timeout', `The model did not answer within ${options.timeoutMs} ms`) };
  if (failure === undefined) return undefined;
  const thrown = failure.thrown;
  if (thrown instanceof ModelCallError) return { kind: 'model', error: thrown };
  // Not a failure the model layer classified: a fault here, told to the client without its details.
  return { kind: 'model', error: new ModelCallError('bad_response', 'The model gave an answer that could not be read'), cause: thrown };
}
