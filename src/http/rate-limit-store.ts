// Where the rate limits are counted, so that every process of a deployment counts the same requests:
// Redis when REDIS_URL is set, the database on PostgreSQL, the process's memory on SQLite (where the
// server is one process). Each store answers @fastify/rate-limit's `incr(key) → {current, ttl}`.
import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import type { Redis } from 'ioredis';
import type { FastifyBaseLogger } from 'fastify';
import type { RateLimitStoreSettings } from '../config.js';
import type { Database } from '../db/database.js';
import { openRateLimitCounters } from '../db/rate-limit-counters.js';

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

export async function openRateLimitStore(settings: RateLimitStoreSettings, database: Database, log: FastifyBaseLogger): Promise<SharedRateLimitStore> {
  if (settings.redisUrl !== undefined) return openRedisStore(settings.redisUrl, `${settings.redisKeyPrefix}rate-limit:`, log);
  if (database.dialect.sharedByProcesses) return openDatabaseStore(database);
  return { options: {}, description: 'this process', close: async () => undefined };
}

async function openRedisStore(url: string, nameSpace: string, log: FastifyBaseLogger): Promise<SharedRateLimitStore> {
  // Commands fail at once while Redis is away (no queue), and the request then passes unlimited
  // (skipOnError): an outage of the counter does not become an outage of the API.
  // ioredis is loaded only where REDIS_URL is set.
  const { Redis } = await import('ioredis');
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

/** Counters in the database (src/db/rate-limit-counters.ts), shared by every process on it. */
async function openDatabaseStore(database: Database): Promise<SharedRateLimitStore> {
  const counters = await openRateLimitCounters(database);
  const countIn = (prefix: string): RateLimitStore => ({
    incr(key, callback, timeWindow = 60_000) {
      counters.hit(prefix + key, timeWindow).then(({ hits, ttl }) => callback(null, { current: hits, ttl }), (error: Error) => callback(error));
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
