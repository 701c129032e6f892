// Kysely's SQLite driver prepares every statement it runs, every time. Preparing costs more than
// running a small indexed query, so the connection handed to Kysely keeps its prepared statements
// by SQL text. Kysely runs one statement at a time on the connection, so a cached statement is
// never in use twice at once; SQLite re-prepares one by itself if the schema changes under it.
import type SQLite from 'better-sqlite3';
import type { SqliteDatabase, SqliteStatement } from 'kysely';

/** Statements kept; the queries of an app are a few hundred distinct texts. */
const CAPACITY = 1000;

export function withStatementCache(connection: SQLite.Database, capacity = CAPACITY): SqliteDatabase {
  const statements = new Map<string, SqliteStatement>();
  return {
    close: () => {
      statements.clear();
      connection.close();
    },
    prepare(text: string): SqliteStatement {
      let statement = statements.get(text);
      if (statement) return statement;
      statement = connection.prepare(text) as unknown as SqliteStatement;
      statements.set(text, statement);
      // Oldest first out; IN lists of varying length are the queries that make new texts.
      if (statements.size > capacity) statements.delete(statements.keys().next().value!);
      return statement;
    },
  };
}
