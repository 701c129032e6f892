// A ChatModel over the AI SDK's streamText, speaking to the provider through the egress client.
// One deadline covers the whole call, retries included. A failure is retried with backoff (or after
// the provider's Retry-After, when it fits in the deadline) only while nothing has been handed to the
// caller yet; once a piece of the answer has gone out, a failure ends the call. No message carries
// the key, and the SDK's own error logging is off (it would print request details).
import { AsyncLocalStorage } from 'node:async_hooks';
import { streamText, type LanguageModel } from 'ai';
import type { EgressClient } from '../../net/egress.js';
import { backoffDelay } from '../retry.js';
import { ModelCallError, type ChatEvent, type ChatModel, type ChatRequest } from './chat-model.js';
import { egressFetch } from './egress-fetch.js';
import { sdkMessages, sdkTools } from './sdk-messages.js';
import { classifyModelFailure, scrubKey } from './model-errors.js';
import { languageModelFor, providerLabel, type ProviderModelSettings } from './provider-models.js';

export interface ChatModelSettings extends ProviderModelSettings {
  /** Deadline of a whole call, retries included (LIMIT_LLM_TIMEOUT_MS). */
  timeoutMs: number;
  /** Attempts after the first, made only before anything was streamed. */
  maxRetries: number;
  /** First backoff delay, doubled on each retry; 500 ms unless set. */
  retryBaseMs?: number;
}

/** The deadline of the call in progress, read by the shared fetch of the call's language model. */
const callDeadline = new AsyncLocalStorage<number>();

export class SdkChatModel implements ChatModel {
  readonly model: string;
  private readonly label: string;
  /** Built once: making a provider's model (its clients and response schemas) costs milliseconds. */
  private readonly languageModel: LanguageModel;

  constructor(
    private readonly settings: ChatModelSettings,
    egress: EgressClient,
  ) {
    this.model = settings.model;
    this.label = providerLabel(settings);
    const timeoutMs = () => Math.max(1, (callDeadline.getStore() ?? Date.now() + settings.timeoutMs) - Date.now());
    this.languageModel = languageModelFor(settings, egressFetch(egress, { timeoutMs }));
  }

  async *stream(request: ChatRequest): AsyncIterable<ChatEvent> {
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
        const scrubbed = new ModelCallError(failure.error.errorClass, scrubKey(failure.error.message, this.settings.apiKey));
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
    try {
      // Instructions go as `system`, which every provider takes (the SDK warns of system messages in `messages`).
      const system = request.messages.filter((message) => message.role === 'system').map((message) => message.content);
      const tools = sdkTools(request.tools);
      const result = callDeadline.run(deadline, () =>
        streamText({
          model: this.languageModel,
          ...(system.length > 0 ? { system: system.join('\n\n') } : {}),
          messages: sdkMessages(request.messages),
          ...(tools === undefined ? {} : { tools }),
          temperature: request.temperature,
          maxOutputTokens: request.maxTokens,
          abortSignal: call.signal,
          maxRetries: 0,
          onError: () => {},
        }),
      );
      for await (const part of result.fullStream) {
        if (part.type === 'text-delta' && part.text !== '') yield { type: 'delta', text: part.text };
        // Calls of unknown tools and unreadable arguments come as they are: the tool loop answers them.
        else if (part.type === 'tool-call') yield { type: 'tool_call', call: { id: part.toolCallId, name: part.toolName, arguments: part.input } };
        else if (part.type === 'error') throw part.error;
        else if (part.type === 'abort') throw request.signal.reason ?? new Error('The model call was cancelled');
        else if (part.type === 'finish') {
          const { inputTokens, outputTokens } = part.totalUsage;
          // Only what the provider counted: an answer without usage leaves the estimate to the caller.
          if (inputTokens !== undefined || outputTokens !== undefined) {
            yield { type: 'usage', usage: { prompt: inputTokens ?? 0, completion: outputTokens ?? 0 } };
          }
        }
      }
    } finally {
      call.abort();
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
