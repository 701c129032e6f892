// Direct access to the server's SQLite file, for seeding large volumes quickly while the server is
// stopped (the schema is the one the server's own migrations made at its first start), and for
// reading it alongside a running server (WAL mode lets a reader in another process).
import { join } from 'node:path';
import type SQLite from 'better-sqlite3';
import { sqliteDriver } from '../../src/db/sqlite-driver.js';
import { SQLITE_FILE_NAME } from '../../src/db/database.js';

export function sqliteFileOf(dataDir: string): string {
  return join(dataDir, SQLITE_FILE_NAME);
}

/**
 * Opens the file for bulk writes. synchronous = OFF skips the fsyncs (a crash of the machine during
 * seeding would only lose the benchmark's made-up data); foreign keys stay checked.
 */
export function openForSeeding(dataDir: string): SQLite.Database {
  const db = new (sqliteDriver())(sqliteFileOf(dataDir), { fileMustExist: true });
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = OFF');
  db.pragma('foreign_keys = ON');
  return db;
}

export function openReadOnly(dataDir: string): SQLite.Database {
  return new (sqliteDriver())(sqliteFileOf(dataDir), { readonly: true, fileMustExist: true });
}

export interface SeedUser {
  id: number;
  organizationId: number;
}

/** The user with this e-mail (the first owner), whose documents the seeded rows will be. */
export function userByEmail(db: SQLite.Database, email: string): SeedUser {
  const row = db.prepare('select id, organization_id from users where email = ?').get(email) as { id: number; organization_id: number } | undefined;
  if (!row) throw new Error(`no user ${email} in the database`);
  return { id: row.id, organizationId: row.organization_id };
}
