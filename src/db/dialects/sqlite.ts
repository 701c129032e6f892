import { sql } from 'kysely';
import type { Dialect } from '../dialect.js';
import { sqliteFullText } from '../full-text.js';
import { escapeLike } from '../dialect.js';
import { sqliteJsonText } from '../json-text.js';
import { sqliteVectorStore } from '../vector-store.js';

const UNAVAILABLE_CODES = new Set(['SQLITE_BUSY', 'SQLITE_LOCKED', 'SQLITE_FULL', 'SQLITE_IOERR', 'SQLITE_CANTOPEN', 'SQLITE_READONLY']);

function sqliteCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
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
  fullText: sqliteFullText,
  vectorStore: sqliteVectorStore,
  json: sqliteJsonText,
  isUniqueViolation: (error) => {
    const code = sqliteCode(error);
    return code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
  },
  isUnavailable: (error) => {
    const code = sqliteCode(error);
    return code !== undefined && [...UNAVAILABLE_CODES].some((prefix) => code.startsWith(prefix));
  },
};
