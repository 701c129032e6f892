// Reading a model's answer as it streams, under a deadline: the one way the server reads a model
// (an ask's model run, an evaluation's judge, the builder's draft, an LLM configuration's test call).
// The text is kept up to a most number of characters — past them the provider's stream is let go
// of, its connection closed, and what came up to them kept — with the usage and the tool calls the
// provider sends. Waiting on the model is raced against the deadline and the caller's signals, so
// that a provider that ignores the abort signal still cannot hold a caller past them. The reading
// never throws: it tells how the stream ended, and each caller says it in its own words.
import type { ChatModel, ChatRequest, ChatUsage, ModelToolCall } from './chat-model.js';

/** Timers of two deadlines (the model layer's over its requests, this one), started moments apart and rounded differently, fire this close. */
const DEADLINE_TOLERANCE_MS = 10;

export interface StreamCollection {
  request: Omit<ChatRequest, 'signal'>;
  /** Aborted when the reading must stop: the client went away, the run was cancelled, a guardrail blocked the answer. */
  signals?: AbortSignal[];
  /** Milliseconds the whole answer may take; absent, only the model layer's own deadline over its requests holds. */
  timeoutMs?: number;
  /** Characters of text kept at most; unbounded when absent. */
  maxCharacters?: number;
  /** Rewrites each piece before it is counted (the citation-marker filter); flushed once an answer ends unstopped. */
  filter?: { push(text: string): string; flush(): string };
  /** Each piece of text kept, as it comes. */
  onText?: (text: string) => void;
}

export interface CollectedStream {
  /** The text kept: the pieces passed to onText, joined. */
  text: string;
  usage: ChatUsage | undefined;
  /** The tools the model asked to call, in order. */
  toolCalls: ModelToolCall[];
  /** Cut at maxCharacters, or the provider said it stopped at the request's maxTokens. */
  cut: boolean;
  /** The deadline passed before the answer ended (or the model layer reported a failure at it). */
  timedOut: boolean;
  /** The stream failed or was stopped by a signal: what it threw (the signal's reason for a stop). */
  failure: { thrown: unknown } | undefined;
}

/** The start of `text` at most `characters` long, never splitting a character written as two UTF-16 units. */
export function textWithin(text: string, characters: number): string {
  if (text.length <= characters) return text;
  const end = Math.max(0, characters);
  const last = text.charCodeAt(end - 1);
  return text.slice(0, last >= 0xd800 && last <= 0xdbff ? end - 1 : end);
}

/**
 * A signal that aborts with the first of these, and the release of its listeners. AbortSignal.any does
 * the same but costs some 60 µs on Node 20 (weak references and a finalization registry) at every
 * step of an answer; this signal needs none of that, as the reading releases it when it ends.
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
 * as unhandled), raced against each piece the model sends: one listener for the whole reading rather
 * than one added and removed for every piece of the answer.
 */
function rejectionOnAbort(signal: AbortSignal): Promise<never> {
  const rejection = new Promise<never>((_, reject) => {
    if (signal.aborted) reject(signal.reason as Error);
    else signal.addEventListener('abort', () => reject(signal.reason as Error), { once: true });
  });
  rejection.catch(() => undefined);
  return rejection;
}

export async function collectStream(model: ChatModel, options: StreamCollection): Promise<CollectedStream> {
  const startedAt = performance.now();
  const deadline = new AbortController();
  const timer = options.timeoutMs === undefined ? undefined : setTimeout(() => deadline.abort(), options.timeoutMs);
  // Aborted once the text passes its most characters: the provider's request ends there.
  const tooLong = new AbortController();
  const { signal, release } = eitherAborts([...(options.signals ?? []), deadline.signal, tooLong.signal]);
  const maxCharacters = options.maxCharacters ?? Number.POSITIVE_INFINITY;
  const collected: CollectedStream = { text: '', usage: undefined, toolCalls: [], cut: false, timedOut: false, failure: undefined };
  const keep = (piece: string) => {
    const room = maxCharacters - collected.text.length;
    const text = piece.length > room ? textWithin(piece, room) : piece;
    if (text.length < piece.length) {
      collected.cut = true;
      tooLong.abort();
    }
    if (text === '') return;
    collected.text += text;
    options.onText?.(text);
  };
  const filter = options.filter ?? { push: (text: string) => text, flush: () => '' };

  let thrown: { thrown: unknown } | undefined;
  const iterator = model.stream({ ...options.request, signal })[Symbol.asyncIterator]();
  const aborted = rejectionOnAbort(signal);
  try {
    for (;;) {
      const next = await Promise.race([iterator.next(), aborted]);
      if (next.done) break;
      if (next.value.type === 'delta') keep(filter.push(next.value.text));
      else if (next.value.type === 'tool_call') collected.toolCalls.push(next.value.call);
      else if (next.value.type === 'length') collected.cut = true;
      else collected.usage = next.value.usage;
      if (tooLong.signal.aborted) {
        // Nothing more is read: the provider's connection closes (the call has already been aborted).
        void Promise.resolve(iterator.return?.()).catch(() => undefined);
        break;
      }
    }
    // A model that stops quietly once aborted has not finished its answer.
    if (!signal.aborted) keep(filter.flush());
  } catch (error) {
    thrown = { thrown: error };
    // The model's iteration may still be waiting on the network: let it end on its own.
    void Promise.resolve(iterator.return?.()).catch(() => undefined);
  } finally {
    if (timer !== undefined) clearTimeout(timer);
    release();
  }
  // The model layer keeps the same deadline over its own requests and may report it first, in its own words
  // (a stream broken off): a failure at the deadline is the deadline's.
  const atDeadline = options.timeoutMs !== undefined && thrown !== undefined && performance.now() - startedAt >= options.timeoutMs - DEADLINE_TOLERANCE_MS;
  collected.timedOut = deadline.signal.aborted || atDeadline;
  collected.failure = thrown;
  return collected;
}
