// The databases the suite runs on: SQLite always, and PostgreSQL wherever DATABASE_URL names one.
// Each test app gets a database of its own: a fresh folder for SQLite, a fresh database on the
// PostgreSQL server, dropped when the app closes. Both are copies of a database migrated once for the
// whole run (database-templates.global.ts).
import { randomBytes } from 'node:crypto';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SQLITE_FILE_NAME } from '../../src/db/database.js';
import { onPostgresServer, postgresUrl, type DatabaseTemplates } from './postgres-server.js';

export type DatabaseKind = 'sqlite' | 'postgres';

export const databaseKinds: DatabaseKind[] = postgresUrl ? ['sqlite', 'postgres'] : ['sqlite'];

export interface ScratchDatabase {
  dataDir: string;
  databaseUrl: string | undefined;
  drop(): Promise<void>;
}

declare module 'vitest' {
  export interface ProvidedContext {
    databaseTemplates: DatabaseTemplates;
  }
}

export async function createScratchDatabase(kind: DatabaseKind): Promise<ScratchDatabase> {
  const dataDir = mkdtempSync(join(tmpdir(), 'agent-platform-test-'));
  const removeDir = () => rmSync(dataDir, { recursive: true, force: true });
  // Outside Vitest (the console's screenshot scripts), where importing it throws: an empty SQLite
  // folder, which the app migrates as it starts.
  if (process.env.VITEST === undefined && kind === 'sqlite') return { dataDir, databaseUrl: undefined, drop: async () => removeDir() };
  const { inject } = await import('vitest');
  const templates = inject('databaseTemplates');
  if (kind === 'sqlite') {
    copyFileSync(join(templates.sqliteDir, SQLITE_FILE_NAME), join(dataDir, SQLITE_FILE_NAME));
    return { dataDir, databaseUrl: undefined, drop: async () => removeDir() };
  }

  const name = `ap_test_${randomBytes(6).toString('hex')}`;
  // PostgreSQL copies a template for one `create database` at a time, and a `drop database … with
  // (force)` waits on every backend of the server: the processes of the run take turns at both, under
  // one lock held by the statement's session.
  const inTurn = (statement: string) =>
    onPostgresServer(async (client) => {
      await client.query('select pg_advisory_lock(hashtext($1))', [templates.postgresName]);
      await client.query(statement);
    });
  await inTurn(`create database ${name} template ${templates.postgresName}`);
  const url = new URL(postgresUrl!);
  url.pathname = `/${name}`;
  return {
    dataDir,
    databaseUrl: url.toString(),
    drop: async () => {
      removeDir();
      await inTurn(`drop database if exists ${name} with (force)`);
    },
  };
}
