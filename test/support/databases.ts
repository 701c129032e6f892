// The databases the suite runs on: SQLite always, and PostgreSQL wherever DATABASE_URL names one.
// Each test app gets a database of its own: a fresh folder for SQLite, a fresh database on the
// PostgreSQL server, dropped when the app closes.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

export type DatabaseKind = 'sqlite' | 'postgres';

const postgresUrl = process.env.DATABASE_URL?.startsWith('postgres') ? process.env.DATABASE_URL : undefined;

export const databaseKinds: DatabaseKind[] = postgresUrl ? ['sqlite', 'postgres'] : ['sqlite'];

export interface ScratchDatabase {
  dataDir: string;
  databaseUrl: string | undefined;
  drop(): Promise<void>;
}

async function onServer<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: postgresUrl });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

export async function createScratchDatabase(kind: DatabaseKind): Promise<ScratchDatabase> {
  const dataDir = mkdtempSync(join(tmpdir(), 'agent-platform-test-'));
  const removeDir = () => rmSync(dataDir, { recursive: true, force: true });
  if (kind === 'sqlite') return { dataDir, databaseUrl: undefined, drop: async () => removeDir() };

  const name = `ap_test_${randomBytes(6).toString('hex')}`;
  await onServer((client) => client.query(`create database ${name}`));
  const url = new URL(postgresUrl!);
  url.pathname = `/${name}`;
  return {
    dataDir,
    databaseUrl: url.toString(),
    drop: async () => {
      removeDir();
      await onServer((client) => client.query(`drop database if exists ${name} with (force)`));
    },
  };
}
