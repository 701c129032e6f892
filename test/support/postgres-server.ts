// The PostgreSQL server the suite runs on, when DATABASE_URL names one, and the migrated databases
// scratch databases are copied from. Without Vitest's own imports: the global setup uses it too.
import pg from 'pg';

export const postgresUrl = process.env.DATABASE_URL?.startsWith('postgres') ? process.env.DATABASE_URL : undefined;

/** Where the migrated databases every scratch database is copied from are. */
export interface DatabaseTemplates {
  sqliteDir: string;
  postgresName?: string;
}

/** Runs `work` on a connection of its own to the server's maintenance database. */
export async function onPostgresServer<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: postgresUrl });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}
