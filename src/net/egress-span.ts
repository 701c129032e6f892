// A client span per request the egress client sends (each hop of a redirect its own), when it is
// sent within a traced request. The egress client speaks node:http, which the maintained undici
// instrumentation does not see (src/observability/instrumentations.ts), so the span is made here,
// with the HTTP semantic conventions' names. The URL is recorded without its query, which may carry
// a key; no header is recorded. The span ends when the exchange does (the whole body read, or cut).
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import type { ClientRequest } from 'node:http';
import { tracerOfRequest } from '../observability/trace-context.js';
import type { OutgoingRequest } from './egress-hops.js';

export function traceOutgoingRequest(outgoing: OutgoingRequest, request: ClientRequest): void {
  const tracer = tracerOfRequest();
  if (tracer === undefined) return;
  const { url, method } = outgoing;
  const span = tracer.startSpan(method, {
    kind: SpanKind.CLIENT,
    attributes: {
      'http.request.method': method,
      'server.address': url.hostname,
      'server.port': Number(url.port || (url.protocol === 'https:' ? 443 : 80)),
      'url.full': `${url.protocol}//${url.host}${url.pathname}`,
    },
  });
  request.once('response', (response) => {
    const status = response.statusCode ?? 0;
    span.setAttribute('http.response.status_code', status);
    if (status >= 400) span.setStatus({ code: SpanStatusCode.ERROR });
  });
  request.once('error', (error) => {
    span.setAttribute('error.type', (error as NodeJS.ErrnoException).code ?? error.name);
    span.setStatus({ code: SpanStatusCode.ERROR });
  });
  request.once('close', () => span.end());
}
