// A ChatModel over an AI SDK provider package's language model, speaking to the provider through the
// egress client. One deadline covers the whole call, retries included. A failure is retried with
// backoff (or after the provider's Retry-After, when it fits in the deadline) only while nothing has
// been handed to the caller yet; once a piece of the answer has gone out, a failure ends the call. No
// message carries the key. The model's doStream is called directly (sdk-messages.ts says why).
import type { EgressClient } from '../../net/egress.js';
import { backoffDelay } from '../retry.js';
import { ModelCallError, type ChatEvent, type ChatModel, type ChatRequest } from './chat-model.js';
import { egressFetch } from './egress-fetch.js';
import { providerPrompt, providerResponseFormat, providerToolChoice, providerTools, toolCallOf, type ProviderLanguageModel } from './sdk-messages.js';
import { classifyModelFailure, scrubKey } from './model-errors.js';
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
 * The deadline of each call in progress, by the abort signal the call gives the provider: the provider
 * hands that signal to the shared fetch of the model as it is, and the fetch reads the deadline from it.
 * (An AsyncLocalStorage would do the same, but enables promise hooks for the whole process.)
 */
const callDeadlines = new WeakMap<AbortSignal, number>();

export class SdkChatModel implements ChatModel {
  readonly model: string;
  private readonly label: string;
  /** Built once: making a provider's model (its clients and response schemas) costs milliseconds. */
  private readonly languageModel: ProviderLanguageModel;

  constructor(
    private readonly settings: ChatModelSettings,
    egress: EgressClient,
  ) {
    this.model = settings.model;
    this.label = providerLabel(settings);
    const timeoutMs = (signal: AbortSignal | undefined) => Math.max(1, ((signal && callDeadlines.get(signal)) ?? Date.now() + settings.timeoutMs) - Date.now());
    this.languageModel = languageModelFor(settings, egressFetch(egress, { timeoutMs }));
  }

  stream(request: ChatRequest): AsyncIterable<ChatEvent> {
    return traceModelCall(this.settings, request, this.callWithRetries(request));
  }

  private async *callWithRetries(request: ChatRequest): AsyncIterable<ChatEvent> {
    const deadline = Date.now() + this.settings.timeoutMs;
    for (let attempt = 1; ; attempt++) {
      let streamed = false;
      try {
        for await (const event of this.attempt(request, deadline)) {
          streamed = true;
          yield event;
        }
        return;
      } catch (error) {
        if (request.signal.aborted) throw request.signal.reason;
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
  private async *attempt(request: ChatRequest, deadline: number): AsyncGenerator<ChatEvent> {
    const call = new AbortController();
    const cancel = () => call.abort(request.signal.reason);
    request.signal.addEventListener('abort', cancel, { once: true });
    if (request.signal.aborted) cancel();
    callDeadlines.set(call.signal, deadline);
    let reader: ReadableStreamDefaultReader<unknown> | undefined;
    try {
      const tools = providerTools(request.tools);
      const { stream } = await this.languageModel.doStream({
        prompt: providerPrompt(request.messages),
        ...(tools === undefined ? {} : { tools, toolChoice: providerToolChoice(request.toolChoice) }),
        ...providerResponseFormat(request.responseFormat),
        temperature: request.temperature,
        maxOutputTokens: request.maxTokens,
        abortSignal: call.signal,
        includeRawChunks: false,
      });
      const parts = stream.getReader();
      reader = parts;
      for (;;) {
        const { done, value: part } = await parts.read();
        if (done) break;
        if (part.type === 'text-delta' && part.delta !== '') yield { type: 'delta', text: part.delta };
        // Calls of unknown tools and unreadable arguments come as they are: the tool loop answers them.
        else if (part.type === 'tool-call') yield { type: 'tool_call', call: toolCallOf(part) };
        else if (part.type === 'error') throw part.error;
        else if (part.type === 'finish') {
          if (part.finishReason.unified === 'length') yield { type: 'length' };
          const inputTokens = part.usage.inputTokens.total;
          const outputTokens = part.usage.outputTokens.total;
          // Only what the provider counted: an answer without usage leaves the estimate to the caller.
          if (inputTokens !== undefined || outputTokens !== undefined) {
            yield { type: 'usage', usage: { prompt: inputTokens ?? 0, completion: outputTokens ?? 0 } };
          }
        }
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
