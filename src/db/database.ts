// Opens the configured database: the embedded SQLite file in the data folder, or PostgreSQL when
// DATABASE_URL names one. Everything above this file sees the same Kysely instance and dialect.
import { join } from 'node:path';
import type SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect, sql } from 'kysely';
import type pg from 'pg';
import * as sqliteVec from 'sqlite-vec';
import type { Dialect } from './dialect.js';
import { inProcessNotices, type Notices } from './notices.js';
import { PostgresNotices } from './postgres-notices.js';
import { postgresDialect } from './dialects/postgres.js';
import { sqliteDialect } from './dialects/sqlite.js';
import { FULL_TEXT_SESSION_SETTINGS, runFullTextOn } from './full-text.js';
import type { DB } from './schema.js';
import { readDirectly } from './precompiled.js';
import { loadPg } from './pg-module.js';
import { preparingClient } from './prepared-statements.js';
import { sqliteDriver } from './sqlite-driver.js';
import { withStatementCache } from './statement-cache.js';
import { withStatementSpans } from './sqlite-statement-spans.js';
import { startCheckpointThread, type CheckpointThread } from './wal-checkpoints.js';
import { createPrivateFileIfMissing, makePrivateFolder } from '../storage/private-files.js';

export interface Database {
  readonly db: Kysely<DB>;
  readonly dialect: Dialect;
  /** Where the data lives, without credentials, for logs. */
  readonly description: string;
  /** Answers whether the database takes a query now. */
  ping(): Promise<void>;
  close(): Promise<void>;
  /** Wake-ups sent at commit to readers that follow rows (notices.ts). */
  readonly notices: Notices;
  /** Connections of the PostgreSQL pools, for metrics; absent on SQLite (one connection). */
  poolStats?(): { total: number; idle: number; waiting: number };
  /** SQLite: its checkpoints moved to a thread of its own until it closes (wal-checkpoints.ts); absent on PostgreSQL. */
  checkpointInThread?(): Promise<CheckpointThread>;
}

export interface DatabaseOptions {
  dataDir: string;
  databaseUrl: string | undefined;
  poolMax?: number;
  /** Prepare the statements marked for it on each connection (src/db/prepared-statements.ts); default true. */
  preparedStatements?: boolean;
  /**
   * Tracing is on: SQLite statements get spans (sqlite-statement-spans.ts). PostgreSQL statements get
   * theirs from the pg instrumentation (src/observability/instrumentations.ts).
   */
  traced?: boolean;
}

export const SQLITE_FILE_NAME = 'agent-platform.sqlite';

export function openDatabase(options: DatabaseOptions): Database {
  return options.databaseUrl
    ? openPostgres(options.databaseUrl, options.poolMax ?? 10, options.preparedStatements ?? true)
    : openSqlite(options.dataDir, options.traced ?? false);
}

function openSqlite(dataDir: string, traced: boolean): Database {
  makePrivateFolder(dataDir);
  const file = join(dataDir, SQLITE_FILE_NAME);
  // Made 0600 here: SQLite would make it 0644 whatever the umask. Its -wal and -shm files take the
  // database file's mode.
  createPrivateFileIfMissing(file);
  const connection = new (sqliteDriver())(file);
  connection.pragma('journal_mode = WAL');
  // In WAL mode NORMAL keeps every committed transaction through a crash of the process; FULL would
  // add an fsync to each commit for power-loss safety at several times the cost.
  connection.pragma('synchronous = NORMAL');
  connection.pragma('foreign_keys = ON');
  connection.pragma('busy_timeout = 5000');
  // Sorts, groupings and unions that need a temporary b-tree keep it in memory: with the default, a
  // file is opened for it, which took a job's claim (three small sorts) from 14 to 37 µs.
  connection.pragma('temp_store = MEMORY');
  loadVectorExtension(connection);
  const cached = traced ? withStatementSpans(withStatementCache(connection), connection) : withStatementCache(connection);
  const db = new Kysely<DB>({ dialect: new SqliteDialect({ database: cached }) });
  readDirectly(db, cached);
  let checkpoints: Promise<CheckpointThread> | undefined;
  return {
    db,
    dialect: sqliteDialect,
    description: `SQLite ${file}`,
    notices: inProcessNotices,
    ping: async () => {
      await sql`select 1`.execute(db);
    },
    checkpointInThread: () => (checkpoints ??= startCheckpointThread(connection, file)),
    close: async () => {
      // The thread first: its connection is not the last one, so the log is not left behind.
      await (await checkpoints?.catch(() => undefined))?.stop();
      await db.destroy();
    },
  };
}

/**
 * sqlite-vec, shipped in its npm package for each platform: vector search, and the chunk_vectors table
 * made with it. Loaded whether or not an embedder is configured, since deleting a chunk deletes its
 * vector. Where the platform has no build, retrieval stays full text (the vector store says why).
 */
function loadVectorExtension(connection: SQLite.Database): void {
  try {
    sqliteVec.load(connection);
  } catch {
    // Reported by sqliteVectorStore.unavailableReason when vectors are asked for.
  }
}

/** timestamptz arrives as "2026-11-20 10:15:30.123+00"; the API speaks "2026-11-20T10:15:30.123Z". */
export function isoFromPostgresTimestamp(text: string): string {
  return new Date(text.replace(' ', 'T').replace(/([+-]\d{2})$/, '$1:00')).toISOString();
}

const PG_INT8 = 20;
const PG_TIMESTAMPTZ = 1184;

function openPostgres(url: string, poolMax: number, preparedStatements: boolean): Database {
  const pool = postgresPool(url, poolMax, {}, preparedStatements);
  // Searches wait for their statements, not for a connection; at most half as many again, opened when needed.
  const fullTextPool = postgresPool(url, Math.ceil(poolMax / 2), FULL_TEXT_SESSION_SETTINGS, preparedStatements);
  const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
  const fullTextDb = new Kysely<DB>({ dialect: new PostgresDialect({ pool: fullTextPool }) });
  runFullTextOn(db, fullTextDb);
  const where = new URL(url);
  const notices = new PostgresNotices(url);
  return {
    db,
    dialect: postgresDialect,
    description: `PostgreSQL ${where.hostname}:${where.port || 5432}${where.pathname}`,
    notices,
    ping: async () => {
      await sql`select 1`.execute(db);
    },
    close: async () => {
      await Promise.all([notices.close(), db.destroy(), fullTextDb.destroy()]);
    },
    poolStats: () => ({
      total: pool.totalCount + fullTextPool.totalCount,
      idle: pool.idleCount + fullTextPool.idleCount,
      waiting: pool.waitingCount + fullTextPool.waitingCount,
    }),
  };
}

/** A pool whose sessions are in UTC, with the given settings besides. */
function postgresPool(url: string, max: number, settings: Record<string, string>, preparedStatements: boolean): pg.Pool {
  const options = Object.entries({ TimeZone: 'UTC', ...settings })
    .map(([name, value]) => `-c ${name}=${value}`)
    .join(' ');
  const pgModule = loadPg();
  const pool = new pgModule.Pool({
    ...(preparedStatements ? { Client: preparingClient() } : {}),
    connectionString: url,
    max,
    connectionTimeoutMillis: 5000,
    options,
    types: {
      getTypeParser: ((oid: number, format?: 'text' | 'binary') => {
        // Keys and counts are bigint; every one of ours fits in a JavaScript number.
        if (oid === PG_INT8) return (value: string) => Number(value);
        if (oid === PG_TIMESTAMPTZ) return isoFromPostgresTimestamp;
        return pgModule.types.getTypeParser(oid, format ?? 'text');
      }) as typeof pg.types.getTypeParser,
    },
  });
  keepConnectionLossesHandled(pool);
  return pool;
}

/**
 * A pg client whose connection drops (the server restarts, an administrator terminates it, the
 * network fails) emits 'error', and an 'error' event without a listener ends the process. The pool
 * listens only while a client is idle; a checked-out client (in a transaction, a job's step, a
 * lease renewal) has no listener of its own. So every client gets one from its first connection.
 * Nothing is lost by ignoring the event: the query in progress rejects with the error, later
 * queries on the client reject as "not queryable" (which the dialect reports as unavailable), and
 * the pool discards the client when it is released and connects a fresh one for the next caller.
 */
function keepConnectionLossesHandled(pool: pg.Pool): void {
  pool.on('connect', (client) => client.on('error', () => undefined));
  // An idle client that loses its connection is reported here instead; the pool has removed it.
  pool.on('error', () => undefined);
}
