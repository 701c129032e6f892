// The pg package, required when a PostgreSQL database is opened: on SQLite a start does not load it
// (docs/performance.md "Suite start"). pg is CommonJS, so it is required synchronously and opening a
// database stays synchronous; the import of pg elsewhere (tests, the tracing instrumentation) is
// the same module object.
import { createRequire } from 'node:module';
import type pg from 'pg';

const require = createRequire(import.meta.url);

let loaded: typeof pg | undefined;

export function loadPg(): typeof pg {
  loaded ??= require('pg') as typeof pg;
  return loaded;
}
