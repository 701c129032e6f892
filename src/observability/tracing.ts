// OpenTelemetry tracing, off unless the OTEL_* variables name a collector (src/config.ts); see
// request-tracing.ts. The SDK, its exporter and the instrumentations (some 20 MB of modules) are
// loaded only when tracing is on.
import type { FastifyInstance } from 'fastify';
import type { TracingSettings } from '../config.js';
import type { JobTracer } from '../jobs/worker.js';

/**
 * A server span for every request when `settings` name a collector, and what traces the worker's
 * jobs; nothing otherwise.
 */
export async function installTracing(app: FastifyInstance, settings: TracingSettings | undefined): Promise<JobTracer | undefined> {
  if (settings === undefined) return undefined;
  const { traceRequests } = await import('./request-tracing.js');
  return traceRequests(app, settings);
}
