// Queries on the hottest paths (resolving the caller, reading an agent) are built and compiled by
// Kysely once per database handle rather than on every request: the query is compiled with a
// placeholder for each argument, and each run binds the real values in the placeholders' places.
import { CompiledQuery, type Compilable, type Kysely } from 'kysely';

const placeholder = (index: number) => `\u0000argument ${index}\u0000`;

type Binding = { argument: number } | { constant: unknown };

interface Prepared {
  compiled: CompiledQuery;
  bindings: Binding[];
}

export function precompiled<DB, Args extends unknown[], Row>(
  arity: Args['length'],
  build: (db: Kysely<DB>, ...args: Args) => Compilable<Row>,
): (db: Kysely<DB>, ...args: Args) => Promise<Row[]> {
  const prepared = new WeakMap<Kysely<DB>, Prepared>();
  return async (db, ...args) => {
    let query = prepared.get(db);
    if (!query) {
      const placeholders = Array.from({ length: arity }, (_, i) => placeholder(i)) as Args;
      const compiled = build(db, ...placeholders).compile();
      const bindings = compiled.parameters.map((value): Binding => {
        const index = placeholders.indexOf(value);
        return index >= 0 ? { argument: index } : { constant: value };
      });
      query = { compiled, bindings };
      prepared.set(db, query);
    }
    const parameters = query.bindings.map((binding) => ('argument' in binding ? args[binding.argument] : binding.constant));
    const result = await db.executeQuery<Row>(CompiledQuery.raw(query.compiled.sql, parameters));
    return result.rows;
  };
}
