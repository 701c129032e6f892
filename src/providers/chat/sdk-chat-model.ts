// A ChatModel over an AI SDK provider package's language model, speaking to the provider through the
// egress client. One deadline covers the whole call, retries included. A failure is retried with
// backoff (or after the provider's Retry-After, when it fits in the deadline) only while nothing has
// been handed to the caller yet; once a piece of the answer has gone out, a failure ends the call. No
// message carries the key. The model's doStream is called directly (sdk-messages.ts says why), or its
// doGenerate when nobody reads the answer as it is written (ChatRequest.streamed false): one JSON
// answer costs the provider package a fraction of the CPU of a stream of pieces, each of them checked
// and passed through web streams (docs/performance.md, suite `ask`).
import type { EgressClient } from '../../net/egress.js';
import { backoffDelay } from '../retry.js';
import { ModelCallError, type ChatEvent, type ChatModel, type ChatRequest } from './chat-model.js';
import { egressFetch } from './egress-fetch.js';
import { providerPrompt, providerResponseFormat, providerToolChoice, providerTools, type ProviderCallOptions, type ProviderLanguageModel } from './sdk-messages.js';
import { classifyModelFailure, isAnswerTooLarge, scrubKey } from './model-errors.js';
import { streamPartEvents, wholeAnswerEvents } from './provider-events.js';
import { languageModelFor, providerLabel, type ProviderModelSettings } from './provider-models.js';
import { traceModelCall } from './model-call-span.js';

export interface ChatModelSettings extends ProviderModelSettings {
  /** Deadline of a whole call, retries included (LIMIT_LLM_TIMEOUT_MS). */
  timeoutMs: number;
  /** Attempts after the first, made only before anything was streamed. */
  maxRetries: number;
  /** First backoff delay, doubled on each retry; 500 ms unless set. */
  retryBaseMs?: number;
}

/**
 * The deadline and byte cap of each call in progress, by the abort signal the call gives the provider:
 * the provider hands that signal to the shared fetch of the model as it is, and the fetch reads them
 * from it. (An AsyncLocalStorage would do the same, but enables promise hooks for the whole process.)
 */
const callLimits = new WeakMap<AbortSignal, { deadline: number; maxBytes: number | undefined }>();

/**
 * The most bytes of a whole answer: far more than `maxTokens` tokens can take as JSON (64 bytes a
 * token, escapes included, and room for the envelope). A streamed answer is cut by its reader at its
 * most characters; a whole one cannot be, so a provider that ignores max tokens is stopped here.
 */
const wholeAnswerBytes = (maxTokens: number) => maxTokens * 64 + 256 * 1024;

export class SdkChatModel implements ChatModel {
  readonly model: string;
  private readonly label: string;
  /** Built once: making a provider's model (its clients and response schemas) costs milliseconds. */
  private readonly languageModel: ProviderLanguageModel;
  /**
   * Set once the provider answered a whole answer past its byte cap (it ignores max tokens): from
   * then on its answers are streamed, where the reader cuts them at their most characters.
   */
  private streamsOnly = false;

  constructor(
    private readonly settings: ChatModelSettings,
    egress: EgressClient,
  ) {
    this.model = settings.model;
    this.label = providerLabel(settings);
    const timeoutMs = (signal: AbortSignal | undefined) => Math.max(1, ((signal && callLimits.get(signal)?.deadline) ?? Date.now() + settings.timeoutMs) - Date.now());
    const maxBytes = (signal: AbortSignal | undefined) => (signal && callLimits.get(signal)?.maxBytes) || undefined;
    this.languageModel = languageModelFor(settings, egressFetch(egress, { timeoutMs, maxBytes }));
  }

  stream(request: ChatRequest): AsyncIterable<ChatEvent> {
    return traceModelCall(this.settings, request, this.callWithRetries(request));
  }

  private async *callWithRetries(request: ChatRequest): AsyncIterable<ChatEvent> {
    const deadline = Date.now() + this.settings.timeoutMs;
    for (let attempt = 1; ; attempt++) {
      let streamed = false;
      const whole = request.streamed === false && !this.streamsOnly;
      try {
        for await (const event of this.attempt(request, deadline, whole)) {
          streamed = true;
          yield event;
        }
        return;
      } catch (error) {
        if (request.signal.aborted) throw request.signal.reason;
        // Nothing was handed over: the same call is made at once streamed, and is not a retry.
        if (whole && isAnswerTooLarge(error)) {
          this.streamsOnly = true;
          attempt--;
          continue;
        }
        const failure = classifyModelFailure(error, this.label, this.settings.timeoutMs);
        const scrubbed = new ModelCallError(failure.error.errorClass, scrubKey(failure.error.message, this.settings.apiKey), scrubKey(failure.error.publicMessage, this.settings.apiKey));
        if (streamed || !failure.retryable || attempt > this.settings.maxRetries) throw scrubbed;
        const wait = failure.retryAfter ?? backoffDelay(attempt, this.settings.retryBaseMs ?? 500);
        if (Date.now() + wait >= deadline) throw scrubbed;
        await pause(wait, request.signal);
      }
    }
  }

  /** One call to the provider; its connection closes when the caller stops reading or goes away. */
  private async *attempt(request: ChatRequest, deadline: number, whole: boolean): AsyncGenerator<ChatEvent> {
    const call = new AbortController();
    const cancel = () => call.abort(request.signal.reason);
    request.signal.addEventListener('abort', cancel, { once: true });
    if (request.signal.aborted) cancel();
    callLimits.set(call.signal, { deadline, maxBytes: whole ? wholeAnswerBytes(request.maxTokens) : undefined });
    let reader: ReadableStreamDefaultReader<unknown> | undefined;
    try {
      const tools = providerTools(request.tools);
      const options: ProviderCallOptions = {
        prompt: providerPrompt(request.messages),
        ...(tools === undefined ? {} : { tools, toolChoice: providerToolChoice(request.toolChoice) }),
        ...providerResponseFormat(request.responseFormat),
        temperature: request.temperature,
        maxOutputTokens: request.maxTokens,
        abortSignal: call.signal,
        includeRawChunks: false,
      };
      if (whole) {
        const result = await this.languageModel.doGenerate(options);
        if (call.signal.aborted) throw request.signal.reason ?? new Error('The model call was cancelled');
        yield* wholeAnswerEvents(result);
        return;
      }
      const { stream } = await this.languageModel.doStream(options);
      const parts = stream.getReader();
      reader = parts;
      for (;;) {
        const { done, value: part } = await parts.read();
        if (done) break;
        yield* streamPartEvents(part);
      }
      if (call.signal.aborted) throw request.signal.reason ?? new Error('The model call was cancelled');
    } finally {
      call.abort();
      // Stopped early (the caller broke off): the provider's stream is let go of.
      reader?.cancel().catch(() => undefined);
      request.signal.removeEventListener('abort', cancel);
    }
  }
}

/** Waits `ms`, or less if the caller goes away. */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
