// What differs between SQLite and PostgreSQL, in one small interface. Repositories and migrations ask
// the dialect instead of testing which database they are on.
import type { ColumnDefinitionBuilder, Expression, Kysely, SelectQueryBuilder, SqlBool } from 'kysely';
import type { FullTextIndex } from './full-text.js';
import type { JsonText } from './json-text.js';
import type { VectorStore } from './vector-store.js';

export type DialectName = 'sqlite' | 'postgres';

/** A span of time [from, to), as ISO 8601 instants. */
export interface TimeSpan {
  from: string;
  to: string;
}

/** An aggregate query (one row, no GROUP BY) over the span whose bounds it is given. */
export type SpanAggregate<R> = (from: Expression<string>, to: Expression<string>) => SelectQueryBuilder<any, any, R>;

export interface Dialect {
  readonly name: DialectName;
  /** Column type of generated integer keys. */
  readonly idType: 'integer' | 'bigint';
  /** Makes a column the table's generated integer primary key. */
  idColumn(column: ColumnDefinitionBuilder): ColumnDefinitionBuilder;
  /** Column type of timestamps; values are ISO 8601 strings either way. */
  readonly timestampType: 'text' | 'timestamptz';
  /** Column type of floating-point numbers. */
  readonly floatType: 'real' | 'double precision';
  /** Case-insensitive "contains" of plain text (no wildcards from the caller). */
  containsIgnoringCase(column: Expression<string>, text: string): Expression<SqlBool>;
  /**
   * Locks the selected rows for the transaction and skips rows another transaction holds, so that
   * several workers each claim different jobs (FOR UPDATE SKIP LOCKED). SQLite has one writer at a
   * time, so there is nothing to add there.
   */
  skipLocked<DB, TB extends keyof DB, O>(query: SelectQueryBuilder<DB, TB, O>): SelectQueryBuilder<DB, TB, O>;
  /**
   * Keeps the selected rows from being changed by another transaction until this one ends (FOR
   * SHARE); another transaction's change already under way is waited for, and its result read.
   * SQLite has one writer at a time, so there is nothing to add there.
   */
  sharedLock<DB, TB extends keyof DB, O>(query: SelectQueryBuilder<DB, TB, O>): SelectQueryBuilder<DB, TB, O>;
  /**
   * A statement may carry writes in WITH (PostgreSQL): two writes in one round trip. SQLite has none,
   * and runs in the process, where a second statement costs no round trip.
   */
  readonly writesInWith: boolean;
  /** One transaction writes at a time (SQLite); PostgreSQL takes several at once. */
  readonly oneWriterAtATime: boolean;
  /**
   * Several server processes may use the database at once (PostgreSQL): what they share (job leases,
   * rate limit counters) is shared through it. A SQLite file is one server process's.
   */
  readonly sharedByProcesses: boolean;
  /** Full-text candidates and term counts over chunks. */
  fullText: FullTextIndex;
  /** Vectors of chunks and nearest-neighbour search (sqlite-vec, pgvector where available). */
  vectorStore: VectorStore;
  /**
   * Date bucketing: the aggregate's row for each span, in order. Each span is read by a range scan of
   * an index on the time column, never by sorting or hashing every row of the range: PostgreSQL runs
   * one statement (a lateral join over the spans' bounds), SQLite, which has no lateral join, runs the
   * statement once per span (prepared once).
   */
  aggregatePerSpan<R>(db: Kysely<any>, spans: TimeSpan[], aggregate: SpanAggregate<R>): Promise<R[]>;
  /** The start of the instant's UTC hour, in the form instants are stored: rows grouped by hour, in one statement. */
  utcHourOf(column: Expression<string>): Expression<string>;
  /** The column (instants) is one of the instants, given as one parameter however many there are. */
  instantIn(column: Expression<string>, instants: string[]): Expression<SqlBool>;
  /** JSON written by the database, byte for byte as JSON.stringify writes it (listings of many rows). */
  json: JsonText;
  /** A unique constraint refused the statement. */
  isUniqueViolation(error: unknown): boolean;
  /** The database cannot be reached or cannot take writes now; the request may be retried later. */
  isUnavailable(error: unknown): boolean;
}

/** Escapes LIKE wildcards so that user text matches literally (with ESCAPE '\'). */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (char) => `\\${char}`);
}
