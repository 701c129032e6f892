// A PostgreSQL database of its own for one benchmark run, on the server DATABASE_URL names: created
// fresh, dropped at cleanup, so that runs (and the test suite) never share tables.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { CleanupStack } from './cleanup.js';

/** Runs `use` on a connection of its own to the database at `url`, closed afterwards. */
export async function withPostgres<T>(url: string, use: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await use(client);
  } finally {
    await client.end();
  }
}

const onServer = (serverUrl: string, statement: string) => withPostgres(serverUrl, async (client) => void (await client.query(statement)));

/** Creates the database and answers its URL; the database is dropped when `cleanup` runs. */
export async function createScratchPostgres(serverUrl: string, prefix: string, cleanup: CleanupStack): Promise<string> {
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  await onServer(serverUrl, `create database ${name}`);
  cleanup.defer(`drop database ${name}`, () => onServer(serverUrl, `drop database if exists ${name} with (force)`));
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** DATABASE_URL when it names a PostgreSQL server, else undefined. */
export function postgresServerUrl(env: Record<string, string | undefined> = process.env): string | undefined {
  const url = env.DATABASE_URL;
  return url !== undefined && /^postgres(ql)?:\/\//.test(url) ? url : undefined;
}
