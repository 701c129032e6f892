// Vitest's global setup: one database of each kind migrated once, before any test file runs, that
// every scratch database is then copied from (a file copy on SQLite, `create database … template` on
// PostgreSQL) instead of running every migration again for each app a test builds. Apps still run
// the migrator at start, which finds nothing left to do; dropped when the run ends.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { onPostgresServer, postgresUrl, type DatabaseTemplates } from './postgres-server.js';

async function migrated(dataDir: string, databaseUrl: string | undefined): Promise<void> {
  const database = openDatabase({ dataDir, databaseUrl, poolMax: 1, preparedStatements: false });
  try {
    await migrateToLatest(database);
  } finally {
    await database.close();
  }
}

export default async function prepareDatabaseTemplates(project: TestProject): Promise<() => Promise<void>> {
  const sqliteDir = mkdtempSync(join(tmpdir(), 'agent-platform-template-'));
  await migrated(sqliteDir, undefined);
  const templates: DatabaseTemplates = { sqliteDir };
  if (postgresUrl) {
    const name = `ap_template_${randomBytes(6).toString('hex')}`;
    await onPostgresServer((client) => client.query(`create database ${name}`));
    const url = new URL(postgresUrl);
    url.pathname = `/${name}`;
    await migrated(sqliteDir, url.toString());
    templates.postgresName = name;
  }
  project.provide('databaseTemplates', templates);
  return async () => {
    rmSync(sqliteDir, { recursive: true, force: true });
    if (templates.postgresName) await onPostgresServer((client) => client.query(`drop database if exists ${templates.postgresName} with (force)`));
  };
}
