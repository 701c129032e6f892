// A span per model call of a traced request (retries included: each attempt's HTTP request is a
// child of it), named and described by OpenTelemetry's GenAI semantic conventions: the provider, the
// model, the tokens the provider counted, the class of a failure. Never the key, the prompt or the
// answer. The calls go to the provider's model directly (doStream, sdk-messages.ts says why), not
// through streamText, so the AI SDK's own telemetry does not run: the span is made here.
import { SpanKind, SpanStatusCode, context, trace, type Context, type Span } from '@opentelemetry/api';
import type { LlmProvider } from '../../db/schema.js';
import { tracerOfRequest } from '../../observability/trace-context.js';
import { ModelCallError, type ChatEvent, type ChatRequest } from './chat-model.js';
import { DEFAULT_BASE_URLS, type ProviderModelSettings } from './provider-models.js';

/** gen_ai.provider.name: the conventions' names where they have one. */
const PROVIDER_NAMES: Record<LlmProvider, string> = {
  openai: 'openai',
  azure_openai: 'azure.ai.openai',
  anthropic: 'anthropic',
  openai_compatible: 'openai_compatible',
};

function serverOf(settings: ProviderModelSettings): Record<string, string | number> {
  try {
    const url = new URL(settings.baseUrl ?? DEFAULT_BASE_URLS[settings.provider] ?? '');
    return { 'server.address': url.hostname, 'server.port': Number(url.port || (url.protocol === 'https:' ? 443 : 80)) };
  } catch {
    return {};
  }
}

function startModelCallSpan(settings: ProviderModelSettings, request: ChatRequest): Span | undefined {
  return tracerOfRequest()?.startSpan(`chat ${settings.model}`, {
    kind: SpanKind.CLIENT,
    attributes: {
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': PROVIDER_NAMES[settings.provider],
      'gen_ai.request.model': settings.model,
      'gen_ai.request.temperature': request.temperature,
      'gen_ai.request.max_tokens': request.maxTokens,
      ...serverOf(settings),
    },
  });
}

/** The call's events, each step of it run in the span's context so that its requests are children of it. */
async function* eventsWithinSpan(events: AsyncIterable<ChatEvent>, span: Span, within: Context): AsyncIterable<ChatEvent> {
  const iterator = events[Symbol.asyncIterator]();
  try {
    for (;;) {
      const next = await context.with(within, () => iterator.next());
      if (next.done) return;
      const event = next.value;
      if (event.type === 'usage') span.setAttributes({ 'gen_ai.usage.input_tokens': event.usage.prompt, 'gen_ai.usage.output_tokens': event.usage.completion });
      if (event.type === 'length') span.setAttribute('gen_ai.response.finish_reasons', ['length']);
      yield event;
    }
  } catch (error) {
    span.setAttribute('error.type', error instanceof ModelCallError ? error.errorClass : 'cancelled');
    span.setStatus({ code: SpanStatusCode.ERROR });
    throw error;
  } finally {
    // The caller stopped reading: the call is let go of (its connection closes).
    await iterator.return?.();
    span.end();
  }
}

/**
 * The model call's events, within a span when the call is made for a traced request. The span starts
 * when the reading does, as the call does; untraced, the events are handed over as they are.
 */
export function traceModelCall(settings: ProviderModelSettings, request: ChatRequest, events: AsyncIterable<ChatEvent>): AsyncIterable<ChatEvent> {
  return {
    [Symbol.asyncIterator]() {
      const span = startModelCallSpan(settings, request);
      if (span === undefined) return events[Symbol.asyncIterator]();
      return eventsWithinSpan(events, span, trace.setSpan(context.active(), span))[Symbol.asyncIterator]();
    },
  };
}
