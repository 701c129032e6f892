// Where the rate limits are counted, so that every process of a deployment counts the same requests:
// Redis when REDIS_URL is set, the database on PostgreSQL, the process's memory on SQLite (where the
// server is one process). Each store answers @fastify/rate-limit's `incr(key) → {current, ttl}`.
import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import { Redis } from 'ioredis';
import { sql } from 'kysely';
import type { FastifyBaseLogger } from 'fastify';
import type { RateLimitStoreSettings } from '../config.js';
import type { Database } from '../db/database.js';

/**
 * What @fastify/rate-limit asks of a store (its `store` option is a class it constructs itself). Its
 * typings leave out what it passes at run time: the window to `incr`, the route to `child`.
 */
interface RateLimitStore extends FastifyRateLimitStore {
  incr(key: string, callback: (error: Error | null, result?: { current: number; ttl: number }) => void, timeWindow?: number): void;
}
type ChildOptions = Parameters<FastifyRateLimitStore['child']>[0] & { routeInfo?: { method?: string; url?: string } };

/** The options of @fastify/rate-limit that choose the store: none for the in-process default. */
export type RateLimitStoreOptions =
  | { redis: Redis; nameSpace: string; skipOnError: true }
  | { store: FastifyRateLimitStoreCtor; skipOnError: true }
  | Record<string, never>;

export interface SharedRateLimitStore {
  options: RateLimitStoreOptions;
  /** What the log says the limits are counted in. */
  description: string;
  close(): Promise<void>;
}

const TABLE = 'rate_limit_counters';
/** Expired counters are deleted at most this often, by whichever request comes after. */
const SWEEP_INTERVAL_MS = 60_000;

export async function openRateLimitStore(settings: RateLimitStoreSettings, database: Database, log: FastifyBaseLogger): Promise<SharedRateLimitStore> {
  if (settings.redisUrl !== undefined) return openRedisStore(settings.redisUrl, `${settings.redisKeyPrefix}rate-limit:`, log);
  if (database.dialect.name === 'postgres') return openPostgresStore(database);
  return { options: {}, description: 'this process', close: async () => undefined };
}

async function openRedisStore(url: string, nameSpace: string, log: FastifyBaseLogger): Promise<SharedRateLimitStore> {
  // Commands fail at once while Redis is away (no queue), and the request then passes unlimited
  // (skipOnError): an outage of the counter does not become an outage of the API.
  const redis = new Redis(url, { lazyConnect: true, enableOfflineQueue: false, maxRetriesPerRequest: 1 });
  redis.on('error', (error: Error) => log.warn({ err: error }, 'The rate limit store (Redis) is unreachable; requests pass unlimited meanwhile'));
  try {
    await redis.connect();
  } catch (error) {
    redis.disconnect();
    throw new Error(`REDIS_URL: cannot connect to Redis (${(error as Error).message})`);
  }
  const where = new URL(url);
  return {
    options: { redis, nameSpace, skipOnError: true },
    description: `Redis ${where.hostname}:${where.port || 6379}`,
    close: async () => {
      await redis.quit().catch(() => redis.disconnect());
    },
  };
}

/**
 * Counters in an UNLOGGED table: written without the write-ahead log, so a count costs one small
 * write, and emptied by a crash of PostgreSQL, which at worst forgives a minute of requests. Made at
 * start rather than by a migration: it holds no records and has no SQLite counterpart.
 */
async function openPostgresStore(database: Database): Promise<SharedRateLimitStore> {
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
    sql`delete from ${sql.table(TABLE)} where resets_at < now()`.execute(db).catch(() => undefined);
  };

  const countIn = (prefix: string): RateLimitStore => ({
    incr(key, callback, timeWindow = 60_000) {
      // One statement: a new window starts when the last one has ended; time is the database's,
      // the same for every process.
      sql<{ hits: number; ttl: number }>`
        insert into ${sql.table(TABLE)} as c (key, hits, resets_at)
        values (${prefix + key}, 1, now() + make_interval(secs => ${timeWindow / 1000}))
        on conflict (key) do update set
          hits = case when c.resets_at <= now() then 1 else c.hits + 1 end,
          resets_at = case when c.resets_at <= now() then excluded.resets_at else c.resets_at end
        returning hits, greatest(0, ceil(extract(epoch from (resets_at - now())) * 1000))::bigint as ttl`
        .execute(db)
        .then(({ rows }) => callback(null, { current: Number(rows[0]!.hits), ttl: Number(rows[0]!.ttl) }), (error: Error) => callback(error));
      sweep();
    },
    child: (routeOptions: ChildOptions) => countIn(`${prefix}${routeOptions.routeInfo?.method ?? ''}${routeOptions.routeInfo?.url ?? ''}-`),
  });
  const root = countIn('');
  return {
    options: { store: class { constructor() { return root; } } as unknown as FastifyRateLimitStoreCtor, skipOnError: true },
    description: 'PostgreSQL',
    close: async () => undefined,
  };
}
