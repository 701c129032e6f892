// OpenTelemetry tracing, off unless the OTEL_* variables name a collector (src/config.ts); see
// request-tracing.ts. The SDK, its exporter and the instrumentations (some 20 MB of modules) are
// loaded only when tracing is on.
import type { FastifyInstance } from 'fastify';
import type { TracingSettings } from '../config.js';

/** A server span for every request when `settings` name a collector; nothing otherwise. */
export async function installTracing(app: FastifyInstance, settings: TracingSettings | undefined): Promise<void> {
  if (settings === undefined) return;
  const { traceRequests } = await import('./request-tracing.js');
  traceRequests(app, settings);
}
