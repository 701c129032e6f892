// The maintained OpenTelemetry instrumentations of the libraries we call, turned on once per process
// when the first app with tracing starts (never when tracing is off: nothing is patched then):
// - pg: a span per PostgreSQL statement, with its text (parameters are never recorded).
// - undici: a span per request made with Node's fetch. The egress client speaks node:http, which
//   undici's channels do not see; its requests get their spans in src/net/egress-span.ts.
// SQLite has no maintained instrumentation for better-sqlite3: src/db/sqlite-statement-spans.ts.
import type { Attributes } from '@opentelemetry/api';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { UndiciInstrumentation } from '@opentelemetry/instrumentation-undici';
import pg from 'pg';
import { requestTracerProvider } from './trace-context.js';

let instrumented = false;

export function instrumentLibraries(): void {
  if (instrumented) return;
  instrumented = true;
  // Spans only below a request's span: the worker's polling and the pool's connections make none.
  // Not enabled: enabling installs the require hooks, useless here (patchLoadedPg says why).
  const postgres = new PgInstrumentation({ enabled: false, requireParentSpan: true, ignoreConnectSpans: true });
  postgres.setTracerProvider(requestTracerProvider);
  patchLoadedPg(postgres);
  // Subscribes to undici's diagnostics channels as it is made: no patching, whenever fetch was loaded.
  const fetches = new UndiciInstrumentation({ requireParentforSpans: true, startSpanHook: withoutQuery });
  fetches.setTracerProvider(requestTracerProvider);
}

/** The URL without its query, which may carry a key (as the egress client's spans record it). */
function withoutQuery(request: { origin: string; path: string }): Attributes {
  try {
    const url = new URL(request.path, request.origin);
    return { 'url.full': `${url.origin}${url.pathname}`, 'url.query': undefined };
  } catch {
    return {};
  }
}

/**
 * The instrumentation would patch pg as it is required, through a require hook; but pg is already
 * loaded by then (src/db/database.ts imports it, and an ES module's import of a CommonJS package
 * does not pass through the hook). So its patch is applied to the loaded module's Client, whose
 * prototype every client shares, ours (PreparingClient) included.
 */
function patchLoadedPg(instrumentation: PgInstrumentation): void {
  const definition = instrumentation.getModuleDefinitions().find((candidate) => candidate.name === 'pg');
  if (definition?.patch === undefined) throw new Error('The pg instrumentation no longer defines a patch of the pg module');
  definition.patch(pg);
}
