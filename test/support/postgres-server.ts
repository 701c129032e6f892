// The PostgreSQL server the suite runs on, when DATABASE_URL names one, and the migrated databases
// scratch databases are copied from. Without Vitest's own imports: the global setup uses it too.
import type pg from 'pg';
import { withPostgres } from '../../bench/lib/scratch-postgres.js';

export const postgresUrl = process.env.DATABASE_URL?.startsWith('postgres') ? process.env.DATABASE_URL : undefined;

/** Where the migrated databases every scratch database is copied from are. */
export interface DatabaseTemplates {
  sqliteDir: string;
  postgresName?: string;
}

/** Runs `work` on a connection of its own to the server's maintenance database. */
export function onPostgresServer<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  return withPostgres(postgresUrl!, work);
}
