// Kysely's SQLite driver prepares every statement it runs, every time. Preparing costs more than
// running a small indexed query, so the connection handed to Kysely keeps its prepared statements
// by SQL text. Kysely runs one statement at a time on the connection, so a cached statement is
// never in use twice at once; SQLite re-prepares one by itself if the schema changes under it.
import type SQLite from 'better-sqlite3';
import type { SqliteDatabase, SqliteStatement } from 'kysely';

/** Statements kept; the queries of an app are a few hundred distinct texts. */
const CAPACITY = 1000;

export interface CachingSqliteDatabase extends SqliteDatabase {
  /**
   * Runs a read at once, synchronously, and returns its rows; undefined when a transaction is open
   * on the connection, whose uncommitted rows the read must not see (it then waits its turn through
   * Kysely). better-sqlite3 runs one statement at a time, so outside a transaction the read sees
   * exactly what a read queued behind Kysely's connection lock would.
   */
  readNow(sql: string, parameters: readonly unknown[]): unknown[] | undefined;
  /**
   * Runs the work as one transaction at once, synchronously, with `run` running each statement (its
   * rows, or none for a write without RETURNING); undefined when a transaction is open on the
   * connection (the work then waits its turn through Kysely). A throw rolls the whole of it back.
   * Outside a transaction nothing else can run between its statements: better-sqlite3 is synchronous.
   */
  transactionNow<T>(work: (run: StatementRunner) => T): T | undefined;
}

/** Runs one statement of a transaction run at once: its rows (objects), or none. */
export type StatementRunner = (sql: string, parameters: readonly unknown[]) => unknown[];

/** A map of bounded size: past it the oldest entry goes first. */
function boundedCache<V>(capacity: number, make: (text: string) => V): { get(text: string): V; clear(): void } {
  const entries = new Map<string, V>();
  return {
    get(text) {
      let value = entries.get(text);
      if (value !== undefined) return value;
      value = make(text);
      entries.set(text, value);
      // IN lists of varying length are the queries that make new texts.
      if (entries.size > capacity) entries.delete(entries.keys().next().value!);
      return value;
    },
    clear: () => entries.clear(),
  };
}

interface DirectRead {
  statement: SQLite.Statement<unknown[], unknown[]>;
  toObject: (values: unknown[]) => unknown;
}

/**
 * A read run at once returns each row as an array (better-sqlite3's raw mode) and makes the object
 * with a function written for the statement's columns: better-sqlite3 builds an object by setting
 * each column by name, which costs more than the read itself for a row of twenty columns.
 */
function directRead(connection: SQLite.Database, text: string): DirectRead {
  const statement = connection.prepare<unknown[], unknown[]>(text).raw(true);
  const fields = statement.columns().map((column, index) => `${JSON.stringify(column.name)}: values[${index}]`);
  // Generated once per statement; the names come from SQLite and are quoted by JSON.stringify.
  const toObject = new Function('values', `return { ${fields.join(', ')} };`) as DirectRead['toObject'];
  return { statement, toObject };
}

export function withStatementCache(connection: SQLite.Database, capacity = CAPACITY): CachingSqliteDatabase {
  const statements = boundedCache(capacity, (text) => connection.prepare(text) as unknown as SqliteStatement);
  const reads = boundedCache(capacity, (text) => directRead(connection, text));
  return {
    close: () => {
      statements.clear();
      reads.clear();
      connection.close();
    },
    prepare: (text) => statements.get(text),
    readNow(text, parameters) {
      if (connection.inTransaction) return undefined;
      const { statement, toObject } = reads.get(text);
      return statement.all(parameters).map(toObject);
    },
    transactionNow(work) {
      if (connection.inTransaction) return undefined;
      const run: StatementRunner = (text, parameters) => {
        const statement = statements.get(text);
        if (statement.reader) return statement.all(parameters) as unknown[];
        statement.run(parameters);
        return [];
      };
      return connection.transaction(() => work(run))();
    },
  };
}
