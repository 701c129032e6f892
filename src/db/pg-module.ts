// The pg package, required when a PostgreSQL database is opened: on SQLite a start does not load it
// (docs/performance.md "Suite start"). pg is CommonJS, so it is required synchronously and opening a
// database stays synchronous; the import of pg elsewhere (tests, the tracing instrumentation) is
// the same module object.
import type pg from 'pg';
import { requiredAtFirstUse } from '../required-at-first-use.js';

export const loadPg = requiredAtFirstUse<typeof pg>('pg');
