import { sql, type RawBuilder } from 'kysely';
import type { Dialect } from '../dialect.js';
import { postgresFullText } from '../full-text.js';
import { escapeLike } from '../dialect.js';
import { postgresJsonText } from '../json-text.js';
import { postgresVectorStore } from '../vector-store.js';

// Class 08 (connection exception), 53 (insufficient resources), 57P0x (server shutting down).
const UNAVAILABLE_SQLSTATE = /^(08|53|57P0)/;
const UNAVAILABLE_NODE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN']);

function errorCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/**
 * Takes the transaction's advisory lock of each id of the scope (an array), in the order of the ids,
 * so that none waits for another in a cycle: transactions that take them for the same id then commit
 * in the order they took them, each waiting, from there to its end, for those before it. Two 32-bit
 * keys, a space apart from single-key locks: the scope's hash, and the id folded into 32 bits; two
 * ids that fold alike only wait for each other.
 */
export const locksInOrder = (scope: string, ids: RawBuilder<unknown>) =>
  sql`select pg_advisory_xact_lock(hashtext(${scope}), (id % 2147483647)::int) from (select distinct unnest(${ids}) as id) as ids order by id`;

export const postgresDialect: Dialect = {
  name: 'postgres',
  idType: 'bigint',
  idColumn: (column) => column.primaryKey().generatedByDefaultAsIdentity(),
  timestampType: 'timestamptz',
  floatType: 'double precision',
  containsIgnoringCase: (column, text) => sql<boolean>`${column} ilike ${`%${escapeLike(text)}%`} escape '\\'`,
  skipLocked: (query) => query.forUpdate().skipLocked(),
  oneWriterAtATime: false,
  sharedByProcesses: true,
  writesInWith: true,
  sharedLock: (query) => query.forShare(),
  fullText: postgresFullText,
  vectorStore: postgresVectorStore,
  json: postgresJsonText,
  aggregatePerSpan: async (db, spans, aggregate) => {
    if (spans.length === 0) return [];
    const each = aggregate(sql.ref('span.span_from'), sql.ref('span.span_to'));
    const { rows } = await sql<Awaited<ReturnType<typeof each.executeTakeFirstOrThrow>>>`
      select figures.* from unnest(${spans.map((span) => span.from)}::timestamptz[], ${spans.map((span) => span.to)}::timestamptz[])
        with ordinality as span(span_from, span_to, position)
      cross join lateral (${each}) as figures
      order by span.position`.execute(db);
    return rows;
  },
  utcHourOf: (column) => sql<string>`date_trunc('hour', ${column} at time zone 'UTC') at time zone 'UTC'`,
  instantIn: (column, instants) => sql<boolean>`${column} = any(cast(${instants} as timestamptz[]))`,
  isUniqueViolation: (error) => errorCode(error) === '23505',
  isUnavailable: (error) => {
    const code = errorCode(error);
    if (code !== undefined && (UNAVAILABLE_SQLSTATE.test(code) || UNAVAILABLE_NODE_CODES.has(code))) return true;
    // node-postgres reports a pool that cannot connect, or a dropped connection, without a code.
    const message = error instanceof Error ? error.message : '';
    return /Connection terminated|connection timeout|Client has encountered a connection error/i.test(message);
  },
};
