// Rate limit counters in the database, shared by every server process on it (PostgreSQL): an
// UNLOGGED table, written without the write-ahead log so that a count costs one small write, and
// emptied by a crash of PostgreSQL, which at worst forgives a minute of requests. Made at start
// rather than by a migration: it holds no records and has no SQLite counterpart.
import { sql } from 'kysely';
import type { Database } from './database.js';

const TABLE = 'rate_limit_counters';
/** Expired counters are deleted at most this often, by whichever request comes after. */
const SWEEP_INTERVAL_MS = 60_000;

export interface RateLimitCounters {
  /** Counts a hit of the key in its window: the hits so far and the milliseconds left of the window. */
  hit(key: string, windowMs: number): Promise<{ hits: number; ttl: number }>;
}

export async function openRateLimitCounters(database: Database): Promise<RateLimitCounters> {
  const db = database.db;
  await db.transaction().execute(async (trx) => {
    // Processes starting together would otherwise race on the catalog.
    await sql`select pg_advisory_xact_lock(hashtext(${TABLE}))`.execute(trx);
    await sql`create unlogged table if not exists ${sql.table(TABLE)} (key text primary key, hits bigint not null, resets_at timestamptz not null)`.execute(trx);
  });
  let nextSweep = 0;
  const sweep = () => {
    if (Date.now() < nextSweep) return;
    nextSweep = Date.now() + SWEEP_INTERVAL_MS;
    // Not awaited: the sweep is housekeeping that no request waits for; a failed one is left to the next.
    sql`delete from ${sql.table(TABLE)} where resets_at < now()`.execute(db).catch(() => undefined);
  };
  return {
    async hit(key, windowMs) {
      sweep();
      // One statement: a new window starts when the last one has ended; time is the database's,
      // the same for every process.
      const { rows } = await sql<{ hits: number; ttl: number }>`
        insert into ${sql.table(TABLE)} as c (key, hits, resets_at)
        values (${key}, 1, now() + make_interval(secs => ${windowMs / 1000}))
        on conflict (key) do update set
          hits = case when c.resets_at <= now() then 1 else c.hits + 1 end,
          resets_at = case when c.resets_at <= now() then excluded.resets_at else c.resets_at end
        returning hits, greatest(0, ceil(extract(epoch from (resets_at - now())) * 1000))::bigint as ttl`.execute(db);
      return { hits: Number(rows[0]!.hits), ttl: Number(rows[0]!.ttl) };
    },
  };
}
