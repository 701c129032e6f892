// Spans of the instrumented libraries go to the app whose request is in context, and none is made
// outside a request: here with Node's fetch (undici's diagnostics channels), which no request of the
// app makes today (the egress client speaks node:http, traced in tracing.test.ts).
import { ROOT_CONTEXT, SpanKind, context } from '@opentelemetry/api';
import { InMemorySpanExporter, NodeTracerProvider, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { instrumentLibraries } from '../src/observability/instrumentations.js';
import { propagateContext, requestContext } from '../src/observability/trace-context.js';
import { startListener, type Listener } from './support/listeners.js';

function appProvider() {
  const exporter = new InMemorySpanExporter();
  return { exporter, provider: new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }) };
}

describe('spans of instrumented libraries', () => {
  let listener: Listener;
  beforeAll(async () => {
    propagateContext();
    instrumentLibraries();
    listener = await startListener();
  });
  afterAll(async () => listener.close());

  it('belong to the app whose request made them, as children of its span', async () => {
    const first = appProvider();
    const second = appProvider();
    const requestSpan = first.provider.getTracer('test').startSpan('GET /somewhere', { kind: SpanKind.SERVER });
    const within = requestContext(ROOT_CONTEXT, requestSpan, first.provider);
    const answer = await context.with(within, () => fetch(`${listener.origin}/path?token=abc`));
    expect(await answer.text()).toBe('ok');
    requestSpan.end();
    await first.provider.forceFlush();

    const spans = first.exporter.getFinishedSpans();
    const outgoing = spans.find((span) => span.kind === SpanKind.CLIENT);
    expect(outgoing, JSON.stringify(spans.map((span) => span.name))).toBeDefined();
    expect(outgoing!.parentSpanContext?.spanId).toBe(requestSpan.spanContext().spanId);
    expect(outgoing!.attributes['http.request.method']).toBe('GET');
    expect(outgoing!.attributes['http.response.status_code']).toBe(200);
    expect(outgoing!.attributes['url.full']).toBe(`${listener.origin}/path`);
    expect(JSON.stringify(outgoing!.attributes)).not.toContain('abc');
    expect(second.exporter.getFinishedSpans()).toEqual([]);
  });

  it('are not made outside a request', async () => {
    const { exporter, provider } = appProvider();
    const requestSpan = provider.getTracer('test').startSpan('GET /somewhere', { kind: SpanKind.SERVER });
    // The request's context is made, but the fetch runs outside it (as the worker's would).
    requestContext(ROOT_CONTEXT, requestSpan, provider);
    expect(await (await fetch(`${listener.origin}/`)).text()).toBe('ok');
    requestSpan.end();
    await provider.forceFlush();
    expect(exporter.getFinishedSpans().map((span) => span.name)).toEqual(['GET /somewhere']);
  });
});
