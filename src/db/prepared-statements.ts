// The statements every document or request runs (src/db/precompiled.ts) are prepared once on each
// PostgreSQL connection, and then only bound and run: an unnamed statement is parsed and planned
// again at each run, which cost PostgreSQL more than running most of them (the job claim: 245 µs of
// parsing and planning for 105 of work; docs/performance.md). Only those statements are named, so
// that a connection keeps a bounded set of them however many other statements it runs.
import type pg from 'pg';
import { loadPg } from './pg-module.js';

const names = new Map<string, string>();

/** The statement is run often enough to be prepared on each connection that runs it. */
export function prepareOnConnections(sql: string): void {
  if (!names.has(sql)) names.set(sql, `ap_${names.size + 1}`);
}

let preparing: typeof pg.Client | undefined;

/** A pg client class that runs the statements marked for it as named (prepared) statements; made when first asked for, as pg is loaded only on PostgreSQL. */
export function preparingClient(): typeof pg.Client {
  preparing ??= class PreparingClient extends loadPg().Client {
    // Kysely runs every statement as query(text, values); other forms are passed on as they are.
    override query(...args: unknown[]): never {
      const [text, values] = args;
      const name = args.length === 2 && typeof text === 'string' && Array.isArray(values) ? names.get(text) : undefined;
      const call = super.query as (...args: unknown[]) => never;
      return name === undefined ? call.apply(this, args) : call.call(this, { name, text, values });
    }
  };
  return preparing;
}
