// One model call of an ask, as it streams: pieces pass through the citation-marker filter to the
// listener, the provider's usage is kept, and the call ends in one of five ways — completed, cut at
// the answer's most characters (the provider's stream is let go of, what came up to them kept),
// failed (ModelCallError), timed out (the configured LLM timeout over the whole answer) or cancelled
// (the client went away). Waiting on the model is raced against the deadline and the client, so that
// a provider that ignores the abort signal still cannot hold an ask past its deadline.
import type { ChatModel, ChatRequest, ChatUsage, ModelToolCall } from '../../providers/chat/chat-model.js';
import { ModelCallError } from '../../providers/chat/chat-model.js';
import { textWithin } from './answer-length.js';
import { CitationMarkers } from './citation-markers.js';

export const CANCELLED_BY_CLIENT = 'cancelled by the client';

/** Timers of the two deadlines, started moments apart and rounded differently, fire this close. */
const DEADLINE_TOLERANCE_MS = 10;

export type RunFailure =
  | { kind: 'cancelled'; message: typeof CANCELLED_BY_CLIENT }
  | { kind: 'model'; error: ModelCallError; cause?: unknown };

export interface ModelRunOptions {
  model: ChatModel;
  request: Omit<ChatRequest, 'signal'>;
  /** Passages numbered in the prompt: markers beyond them are dropped. */
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

/**
 * A signal that aborts with the first of these, and the release of its listeners. AbortSignal.any does
 * the same but costs some 60 µs on Node 20 (weak references and a finalization registry) at every
 * step of an answer; the run's own signal needs none of that, as the run releases it when it ends.
 */
function eitherAborts(signals: AbortSignal[]): { signal: AbortSignal; release: () => void } {
  const combined = new AbortController();
  const aborted = signals.find((signal) => signal.aborted);
  if (aborted !== undefined) {
    combined.abort(aborted.reason);
    return { signal: combined.signal, release: () => undefined };
  }
  const listeners = signals.map((signal) => {
    const onAbort = () => combined.abort(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    return () => signal.removeEventListener('abort', onAbort);
  });
  return { signal: combined.signal, release: () => listeners.forEach((remove) => remove()) };
}

/**
 * A promise that rejects with the signal's reason once it aborts (handled, so that it is never reported
 * as unhandled), raced against each piece the model sends: one listener for the whole run rather than
 * one added and removed for every piece of the answer.
 */
function rejectionOnAbort(signal: AbortSignal): Promise<never> {
  const rejection = new Promise<never>((_, reject) => {
    if (signal.aborted) reject(signal.reason as Error);
    else signal.addEventListener('abort', () => reject(signal.reason as Error), { once: true });
  });
  rejection.catch(() => undefined);
  return rejection;
}

export async function runModel(options: ModelRunOptions): Promise<ModelRun> {
  const startedAt = performance.now();
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(), options.timeoutMs);
  // Aborted once the answer passes its most characters: the provider's request ends there.
  const tooLong = new AbortController();
  const { signal, release } = eitherAborts([options.clientSignal, deadline.signal, tooLong.signal, ...(options.stopSignal ? [options.stopSignal] : [])]);
  const markers = new CitationMarkers(options.passages);
  const run: ModelRun = { answer: '', cited: [], usage: undefined, toolCalls: [], firstTokenMs: null, cut: false, failure: undefined };
  const emit = (piece: string) => {
    const room = options.maxCharacters - run.answer.length;
    const text = piece.length > room ? textWithin(piece, room) : piece;
    if (text.length < piece.length) {
      run.cut = true;
      tooLong.abort();
    }
    if (text === '') return;
    run.firstTokenMs ??= Math.round(options.elapsed());
    run.answer += text;
    options.onDelta(text);
  };

  let thrown: unknown;
  const iterator = options.model.stream({ ...options.request, signal })[Symbol.asyncIterator]();
  const aborted = rejectionOnAbort(signal);
  try {
    for (;;) {
      const next = await Promise.race([iterator.next(), aborted]);
      if (next.done) break;
      if (next.value.type === 'delta') emit(markers.push(next.value.text));
      else if (next.value.type === 'tool_call') run.toolCalls.push(next.value.call);
      else if (next.value.type === 'length') run.cut = true;
      else run.usage = next.value.usage;
      if (tooLong.signal.aborted) {
        // Nothing more is read: the provider's connection closes (the call has already been aborted).
        void Promise.resolve(iterator.return?.()).catch(() => undefined);
        break;
      }
    }
    // A model that stops quietly once aborted has not finished its answer.
    if (!signal.aborted) emit(markers.flush());
  } catch (error) {
    thrown = error;
    // The model's iteration may still be waiting on the network: let it end on its own.
    void Promise.resolve(iterator.return?.()).catch(() => undefined);
  } finally {
    clearTimeout(timer);
    release();
  }
  run.cited = markers.used();
  // The model layer keeps the same deadline over its own requests and may report it first, in its own words
  // (a stream broken off): a failure at the deadline is the deadline's.
  const timedOut = deadline.signal.aborted || (thrown !== undefined && performance.now() - startedAt >= options.timeoutMs - DEADLINE_TOLERANCE_MS);
  run.failure = failureOf(options, thrown, timedOut);
  return run;
}

function failureOf(options: ModelRunOptions, thrown: unknown, timedOut: boolean): RunFailure | undefined {
  if (options.stopSignal?.aborted && !options.clientSignal.aborted) return undefined;
  if (options.clientSignal.aborted) return { kind: 'cancelled', message: CANCELLED_BY_CLIENT };
  if (timedOut) return { kind: 'model', error: new ModelCallError('timeout', `The model did not answer within ${options.timeoutMs} ms`) };
  if (thrown === undefined) return undefined;
  if (thrown instanceof ModelCallError) return { kind: 'model', error: thrown };
  // Not a failure the model layer classified: a fault here, told to the client without its details.
  return { kind: 'model', error: new ModelCallError('bad_response', 'The model gave an answer that could not be read'), cause: thrown };
}
