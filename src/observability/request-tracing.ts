// OpenTelemetry tracing, off unless the OTEL_* variables name a collector (src/config.ts): a server
// span per request, named by method and route pattern, posted to the collector over OTLP/HTTP, with
// what the request did as its children (statements, outgoing requests, model calls). The tracer
// belongs to the app rather than to the process's global provider, so that each app (tests build
// many in one process) exports its own spans and flushes them when it closes (trace-context.ts).
import { SpanKind, SpanStatusCode, ROOT_CONTEXT, context, defaultTextMapGetter, type Span, type Tracer } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TracingSettings } from '../config.js';
import type { JobTracer } from '../jobs/worker.js';
import { SERVER_VERSION } from '../version.js';
import { instrumentLibraries } from './instrumentations.js';
import { propagateContext, requestContext } from './trace-context.js';

/** The span of each request in flight. */
const requestSpans = new WeakMap<FastifyRequest, Span>();

export function createTracerProvider(settings: TracingSettings): NodeTracerProvider {
  // The collector is named by the operator, so its requests do not go through the egress client
  // (which refuses private addresses, where collectors usually are).
  const exporter = new OTLPTraceExporter({ url: settings.tracesUrl, headers: settings.headers });
  return new NodeTracerProvider({
    resource: resourceFromAttributes({ 'service.name': settings.serviceName, 'service.version': SERVER_VERSION }),
    spanProcessors: [new BatchSpanProcessor(exporter)],
  });
}

/**
 * A server span for every request, and what traces each job the worker runs (a consumer span, the
 * root of a trace of its own, with the job's statements and requests as children); spans still
 * queued are sent when the app closes.
 */
export function traceRequests(app: FastifyInstance, settings: TracingSettings): JobTracer {
  propagateContext();
  instrumentLibraries();
  const provider = createTracerProvider(settings);
  const tracer: Tracer = provider.getTracer('agent-platform', SERVER_VERSION);
  // A caller's traceparent header makes the request's span a child of the caller's.
  const propagator = new W3CTraceContextPropagator();

  app.addHook('onRequest', (request, reply, done) => {
    const parent = propagator.extract(ROOT_CONTEXT, request.headers, defaultTextMapGetter);
    const route = request.routeOptions.url;
    const span = tracer.startSpan(
      route === undefined ? request.method : `${request.method} ${route}`,
      {
        kind: SpanKind.SERVER,
        attributes: {
          'http.request.method': request.method,
          ...(route === undefined ? {} : { 'http.route': route }),
          'url.scheme': request.protocol,
          'user_agent.original': request.headers['user-agent'] ?? '',
        },
      },
      parent,
    );
    requestSpans.set(request, span);
    // The rest of the request runs in the span's context: the hooks and handler that follow, and the
    // listeners of the request's and the reply's streams (the body arrives in the socket's events).
    const active = requestContext(parent, span, provider);
    context.bind(active, request.raw);
    context.bind(active, reply.raw);
    context.with(active, done);
  });
  app.addHook('onResponse', async (request, reply) => {
    const span = requestSpans.get(request);
    if (span === undefined) return;
    span.setAttribute('http.response.status_code', reply.statusCode);
    if (reply.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
    span.end();
  });
  app.addHook('onClose', async () => {
    await provider.shutdown();
  });

  return async (job, run) => {
    const span = tracer.startSpan(`job ${job.name}`, { kind: SpanKind.CONSUMER, attributes: { 'job.name': job.name, 'job.id': job.id, 'job.attempts': job.attempts } }, ROOT_CONTEXT);
    try {
      return await context.with(requestContext(ROOT_CONTEXT, span, provider), run);
    } catch (error) {
      span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.name : 'failed' });
      throw error;
    } finally {
      span.end();
    }
  };
}
