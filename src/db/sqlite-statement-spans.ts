// A span per SQLite statement of a traced request. OpenTelemetry has no maintained instrumentation of
// better-sqlite3, so the spans are made here, in the one place every statement of the app passes
// through: the connection Kysely runs on (and the direct reads beside it, precompiled.ts). Named and
// described like the pg instrumentation's (`sqlite.query:SELECT`, `db.query.text`); the parameters
// are never recorded. Only wrapped when tracing is on (database.ts); outside a traced request (the
// worker, start-up) statements run without a span.
import { SpanKind, SpanStatusCode, type Span } from '@opentelemetry/api';
import type SQLite from 'better-sqlite3';
import type { SqliteStatement } from 'kysely';
import { tracerOfRequest } from '../observability/trace-context.js';
import type { CachingSqliteDatabase } from './statement-cache.js';

function operationOf(text: string): string {
  return /^\s*(\w+)/.exec(text)?.[1]?.toUpperCase() ?? 'QUERY';
}

function startStatementSpan(text: string): Span | undefined {
  const operation = operationOf(text);
  return tracerOfRequest()?.startSpan(`sqlite.query:${operation}`, {
    kind: SpanKind.CLIENT,
    attributes: { 'db.system.name': 'sqlite', 'db.operation.name': operation, 'db.query.text': text },
  });
}

/** Runs a statement (synchronous in better-sqlite3) inside its span. */
function withinSpan<T>(text: string, run: () => T): T {
  const span = startStatementSpan(text);
  if (span === undefined) return run();
  try {
    return run();
  } catch (error) {
    span.setStatus({ code: SpanStatusCode.ERROR, message: (error as { code?: string }).code ?? 'SQLite error' });
    throw error;
  } finally {
    span.end();
  }
}

function* rowsWithinSpan(text: string, rows: IterableIterator<unknown>): IterableIterator<unknown> {
  const span = startStatementSpan(text);
  try {
    yield* rows;
  } finally {
    span?.end();
  }
}

function tracedStatement(text: string, statement: SqliteStatement): SqliteStatement {
  return {
    reader: statement.reader,
    all: (parameters) => withinSpan(text, () => statement.all(parameters)),
    run: (parameters) => withinSpan(text, () => statement.run(parameters)),
    // Kysely streams rows with iterate (no query of ours does): the span lasts until the last row.
    iterate: (parameters) => rowsWithinSpan(text, statement.iterate(parameters)),
  };
}

/** `cached` runs its statements on `connection`, which says whether a direct read will run. */
export function withStatementSpans(cached: CachingSqliteDatabase, connection: SQLite.Database): CachingSqliteDatabase {
  return {
    close: () => cached.close(),
    prepare: (text) => tracedStatement(text, cached.prepare(text)),
    // In a transaction the read does not run here (it waits its turn through Kysely, and gets its span there).
    readNow: (text, parameters) => (connection.inTransaction ? undefined : withinSpan(text, () => cached.readNow(text, parameters))),
    transactionNow: (work) => cached.transactionNow((run) => work((text, parameters) => withinSpan(text, () => run(text, parameters)))),
  };
}
