// Queries on the hottest paths (resolving the caller, reading an agent, claiming a job) are built
// and compiled by Kysely once per database rather than on every run: the query is compiled with a
// placeholder for each argument, and each run binds the real values in the placeholders' places.
// A transaction's handle shares the compiled queries of its database (the same compiler and
// plugins), so a query run in a transaction is not built again for each one either.
//
// On SQLite a precompiled read also skips Kysely's execution path (its connection lock and the
// promises around it, which cost more than the read itself): outside a transaction it runs at once
// on the connection (CachingSqliteDatabase.readNow), inside one it waits its turn as any query does.
import { CompiledQuery, SelectQueryNode, type Compilable, type Kysely } from 'kysely';
import { prepareOnConnections } from './prepared-statements.js';
import type { CachingSqliteDatabase } from './statement-cache.js';

const placeholder = (index: number) => `\u0000argument ${index}\u0000`;

type Binding = { argument: number } | { constant: unknown };

interface Prepared {
  compiled: CompiledQuery;
  bindings: Binding[];
  isRead: boolean;
}

type DirectConnection = Pick<CachingSqliteDatabase, 'readNow' | 'transactionNow'>;

/** The SQLite connections whose reads may run at once, by the Kysely handle (never a transaction's) on them. */
const directReaders = new WeakMap<object, DirectConnection>();

/** Lets precompiled reads (and transactions of them, precompiled-transaction.ts) through this handle run directly on its SQLite connection. */
export function readDirectly(db: Kysely<any>, connection: DirectConnection): void {
  directReaders.set(db, connection);
}

/** The SQLite connection under a handle, where its statements may run directly; undefined on PostgreSQL and in a transaction's handle. */
export const directConnectionOf = (db: Kysely<any>): DirectConnection | undefined => directReaders.get(db);

/** A precompiled query with its arguments bound, to run in a transaction of such statements (precompiled-transaction.ts). */
export interface BoundStatement<Row> {
  readonly sql: string;
  readonly parameters: readonly unknown[];
  /** Never set: carries the row type. */
  readonly row?: Row;
}

/** A precompiled query: run it (awaited), or `now`, a read at once when the connection allows it. */
export type Precompiled<DB, Args extends unknown[], Row> = ((db: Kysely<DB>, ...args: Args) => Promise<Row[]>) & {
  /**
   * The rows at once, synchronously, when the read can run directly (SQLite, no transaction open on
   * the connection); undefined otherwise, and the caller then awaits the query. Saves the promises
   * of a hot path that can finish without waiting (a cached caller).
   */
  now(db: Kysely<DB>, ...args: Args): Row[] | undefined;
  /** The statement and its parameters, not run. */
  bind(db: Kysely<DB>, ...args: Args): BoundStatement<Row>;
};

/**
 * What a compiled query is kept by: the database's adapter, which its transactions' handles share with
 * it (Kysely makes a transaction's executor from the database's, changing only the connection). A
 * handle with plugins of its own may compile otherwise, so it keeps its queries to itself.
 */
function compilationOf(db: Kysely<any>): object {
  const executor = db.getExecutor();
  return executor.plugins.length === 0 ? executor.adapter : db;
}

export function precompiled<DB, Args extends unknown[], Row>(
  arity: Args['length'],
  build: (db: Kysely<DB>, ...args: Args) => Compilable<Row>,
): Precompiled<DB, Args, Row> {
  const prepared = new WeakMap<object, Prepared>();
  const prepare = (db: Kysely<DB>): Prepared => {
    const key = compilationOf(db);
    let query = prepared.get(key);
    if (!query) {
      const placeholders = Array.from({ length: arity }, (_, i) => placeholder(i)) as Args;
      const compiled = build(db, ...placeholders).compile();
      const bindings = compiled.parameters.map((value): Binding => {
        const index = placeholders.indexOf(value);
        return index >= 0 ? { argument: index } : { constant: value };
      });
      prepareOnConnections(compiled.sql);
      query = { compiled, bindings, isRead: SelectQueryNode.is(compiled.query) };
      prepared.set(key, query);
    }
    return query;
  };
  const parametersOf = (query: Prepared, args: Args) => query.bindings.map((binding) => ('argument' in binding ? args[binding.argument] : binding.constant));
  const now = (db: Kysely<DB>, ...args: Args): Row[] | undefined => {
    const query = prepare(db);
    if (!query.isRead) return undefined;
    return directReaders.get(db)?.readNow(query.compiled.sql, parametersOf(query, args)) as Row[] | undefined;
  };
  const run = async (db: Kysely<DB>, ...args: Args): Promise<Row[]> => {
    const query = prepare(db);
    const parameters = parametersOf(query, args);
    const rows = query.isRead ? directReaders.get(db)?.readNow(query.compiled.sql, parameters) : undefined;
    if (rows !== undefined) return rows as Row[];
    const result = await db.executeQuery<Row>(CompiledQuery.raw(query.compiled.sql, parameters));
    return result.rows;
  };
  const bind = (db: Kysely<DB>, ...args: Args): BoundStatement<Row> => {
    const query = prepare(db);
    return { sql: query.compiled.sql, parameters: parametersOf(query, args) };
  };
  return Object.assign(run, { now, bind });
}

/**
 * A family of precompiled queries, one per key, each made when first asked for: per dialect when the
 * SQL follows the dialect, per shape when it follows what is written (the columns an update sets,
 * the rows an insert carries). Keys must be few: each query stays for the life of the process.
 */
export function precompiledPer<Key, Query>(make: (key: Key) => Query): (key: Key) => Query {
  const queries = new Map<Key, Query>();
  return (key) => {
    let query = queries.get(key);
    if (query === undefined) queries.set(key, (query = make(key)));
    return query;
  };
}
