// A database with no table yet, for the tests of a migration: built up to the migration before it,
// filled with rows of that schema, then migrated.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase, type Database } from '../../src/db/database.js';
import type { DatabaseKind } from './databases.js';
import { onPostgresServer, postgresUrl } from './postgres-server.js';

/** A database with no table yet (not a copy of the migrated template), dropped by `drop`. */
export async function emptyDatabase(kind: DatabaseKind): Promise<{ database: Database; drop(): Promise<void> }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'agent-platform-migration-'));
  const removeDir = () => rmSync(dataDir, { recursive: true, force: true });
  if (kind === 'sqlite') {
    const database = openDatabase({ dataDir, databaseUrl: undefined });
    return {
      database,
      drop: async () => {
        await database.close();
        removeDir();
      },
    };
  }
  const name = `ap_test_${randomBytes(6).toString('hex')}`;
  await onPostgresServer((client) => client.query(`create database ${name}`));
  const url = new URL(postgresUrl!);
  url.pathname = `/${name}`;
  const database = openDatabase({ dataDir, databaseUrl: url.toString(), poolMax: 2, preparedStatements: false });
  return {
    database,
    drop: async () => {
      await database.close();
      removeDir();
      await onPostgresServer((client) => client.query(`drop database if exists ${name} with (force)`));
    },
  };
}
