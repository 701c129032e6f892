// A consistent copy of the embedded database while the server keeps running: SQLite's online backup
// API copies the pages through its own connection, restarting where a writer changed them, so the
// copy is one committed state (WAL included) and the server is never stopped or blocked for long.
// PostgreSQL has its own tool for this (pg_dump); see docs/operations.md. The copy is readable by its
// owner only, as the database is.
import { existsSync, rmSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createPrivateFile } from '../storage/private-files.js';
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
  createTarget(target);
  try {
    await copyInto(source, target);
  } catch (error) {
    // No file that looks like a backup and is not one.
    for (const file of [target, `${target}-wal`, `${target}-shm`, `${target}-journal`]) rmSync(file, { force: true });
    throw error;
  }
  return { file: target, bytes: statSync(target).size };
}

/**
 * The copy's file, made here 0600 as the database is (SQLite would make it 0644): a backup holds
 * everything the database does. Made with 'wx', so that an existing file is never overwritten.
 */
function createTarget(target: string): void {
  try {
    createPrivateFile(target);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') throw new BackupRefused(`${target} exists already; name a new file`);
    throw error;
  }
}

async function copyInto(source: string, target: string): Promise<void> {
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
    if (check !== 'ok') throw new Error(`The copy at ${target} failed its integrity check, and was removed: ${String(check)}`);
  } finally {
    copy.close();
  }
}
