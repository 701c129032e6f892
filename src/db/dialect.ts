// What differs between SQLite and PostgreSQL, in one small interface. Repositories and migrations ask
// the dialect instead of testing which database they are on.
import type { ColumnDefinitionBuilder, Expression, SelectQueryBuilder, SqlBool } from 'kysely';
import type { FullTextIndex } from './full-text.js';
import type { JsonText } from './json-text.js';
import type { VectorStore } from './vector-store.js';

export type DialectName = 'sqlite' | 'postgres';

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
  /** Full-text candidates and term counts over chunks. */
  fullText: FullTextIndex;
  /** Vectors of chunks and nearest-neighbour search (sqlite-vec, pgvector where available). */
  vectorStore: VectorStore;
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
