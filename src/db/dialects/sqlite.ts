import { sql, type Kysely } from 'kysely';
import type { Dialect, SpanAggregate, TimeSpan } from '../dialect.js';
import { sqliteFullText } from '../full-text.js';
import { escapeLike } from '../dialect.js';
import { sqliteJsonText } from '../json-text.js';
import { sqliteVectorStore } from '../vector-store.js';

const UNAVAILABLE_CODES = new Set(['SQLITE_BUSY', 'SQLITE_LOCKED', 'SQLITE_FULL', 'SQLITE_IOERR', 'SQLITE_CANTOPEN', 'SQLITE_READONLY']);

function sqliteCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** Stand-ins for a span's bounds in a compiled aggregate; no instant is written like them. */
const SPAN_FROM = '\u0000span-from';
const SPAN_TO = '\u0000span-to';

/** Compiled once with markers for the bounds, then run with each span's bounds in their places. */
async function aggregatePerSpanOneByOne<R>(db: Kysely<any>, spans: TimeSpan[], aggregate: SpanAggregate<R>): Promise<R[]> {
  const compiled = aggregate(sql.val(SPAN_FROM), sql.val(SPAN_TO)).compile();
  const rows: R[] = [];
  for (const span of spans) {
    const parameters = compiled.parameters.map((value) => (value === SPAN_FROM ? span.from : value === SPAN_TO ? span.to : value));
    const result = await db.executeQuery<R>({ ...compiled, parameters });
    rows.push(result.rows[0]!);
  }
  return rows;
}

export const sqliteDialect: Dialect = {
  name: 'sqlite',
  idType: 'integer',
  idColumn: (column) => column.primaryKey().autoIncrement(),
  timestampType: 'text',
  floatType: 'real',
  // SQLite's LIKE ignores case for ASCII letters.
  containsIgnoringCase: (column, text) => sql<boolean>`${column} like ${`%${escapeLike(text)}%`} escape '\\'`,
  skipLocked: (query) => query,
  oneWriterAtATime: true,
  sharedByProcesses: false,
  writesInWith: false,
  sharedLock: (query) => query,
  fullText: sqliteFullText,
  vectorStore: sqliteVectorStore,
  json: sqliteJsonText,
  aggregatePerSpan: aggregatePerSpanOneByOne,
  utcHourOf: (column) => sql<string>`substr(${column}, 1, 13) || ':00:00.000Z'`,
  // Looked up value by value in an index on the column.
  instantIn: (column, instants) => sql<boolean>`${column} in (select value from json_each(${JSON.stringify(instants)}))`,
  isUniqueViolation: (error) => {
    const code = sqliteCode(error);
    return code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
  },
  isUnavailable: (error) => {
    const code = sqliteCode(error);
    return code !== undefined && [...UNAVAILABLE_CODES].some((prefix) => code.startsWith(prefix));
  },
};
