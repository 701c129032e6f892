// A consistent copy of the embedded database while the server keeps running: SQLite's online backup
// API copies the pages through its own connection, restarting where a writer changed them, so the
// copy is one committed state (WAL included) and the server is never stopped or blocked for long.
// PostgreSQL has its own tool for this (pg_dump); see docs/operations.md.
import { existsSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { SQLITE_FILE_NAME } from './database.js';
import { sqliteDriver } from './sqlite-driver.js';

export interface BackupResult {
  file: string;
  bytes: number;
}

export class BackupRefused extends Error {}

export async function backupSqlite(dataDir: string, destination: string): Promise<BackupResult> {
  const source = join(dataDir, SQLITE_FILE_NAME);
  const target = resolve(destination);
  if (!existsSync(source)) throw new BackupRefused(`No database at ${source}: check DATA_DIR`);
  if (existsSync(target)) throw new BackupRefused(`${target} exists already; name a new file`);
  const SQLite = sqliteDriver();
  const connection = new SQLite(source, { fileMustExist: true });
  try {
    connection.pragma('busy_timeout = 5000');
    await connection.backup(target);
  } finally {
    connection.close();
  }
  const copy = new SQLite(target, { fileMustExist: true });
  try {
    // One self-contained file (no -wal beside it) that any SQLite opens, even read-only.
    copy.pragma('journal_mode = DELETE');
    const check = copy.pragma('quick_check', { simple: true });
    if (check !== 'ok') throw new Error(`The copy at ${target} failed its integrity check: ${String(check)}`);
  } finally {
    copy.close();
  }
  return { file: target, bytes: statSync(target).size };
}
