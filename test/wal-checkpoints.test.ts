// The server's SQLite checkpoints in a thread of their own (src/db/wal-checkpoints.ts): the log is
// copied into the database file by the thread's connection, the server's connection keeps its own
// checkpoints only as a bound, and closing the database ends the thread and leaves no log behind.
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, SQLITE_FILE_NAME, type Database } from '../src/db/database.js';

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

function scratchSqlite(): { database: Database; file: string } {
  const dataDir = mkdtempSync(join(tmpdir(), 'wal-checkpoints-'));
  folders.push(dataDir);
  return { database: openDatabase({ dataDir, databaseUrl: undefined }), file: join(dataDir, SQLITE_FILE_NAME) };
}

const ownMark = async (database: Database) => (await sql<{ wal_autocheckpoint: number }>`pragma wal_autocheckpoint`.execute(database.db)).rows[0]?.wal_autocheckpoint;

async function writePages(database: Database, rows: number): Promise<void> {
  await sql`create table if not exists filler (id integer primary key, text text not null)`.execute(database.db);
  for (let i = 0; i < rows; i++) await sql`insert into filler (text) values (${'x'.repeat(3000)})`.execute(database.db);
}

describe('SQLite checkpoints in a thread', () => {
  it('copies the log into the database file from its own connection, the server connection keeping its checkpoints as a bound only', async () => {
    const { database, file } = scratchSqlite();
    try {
      expect(await ownMark(database)).toBe(1000);
      const thread = await database.checkpointInThread!();
      expect(await ownMark(database)).toBe(10_000);
      const before = statSync(file).size;
      await writePages(database, 200);
      const { logPages, checkpointedPages } = await thread.checkpointNow();
      expect(logPages).toBeGreaterThan(100);
      expect(checkpointedPages).toBe(logPages);
      expect(statSync(file).size).toBeGreaterThan(before + 100 * 3000);
    } finally {
      await database.close();
    }
  });

  it('ends with the database: the thread stops first, and the last connection leaves no log behind', async () => {
    const { database, file } = scratchSqlite();
    const thread = await database.checkpointInThread!();
    await writePages(database, 20);
    await database.close();
    expect(existsSync(`${file}-wal`)).toBe(false);
    await expect(thread.stop()).resolves.toBeUndefined();
  });

  it('is started once however often it is asked for', async () => {
    const { database } = scratchSqlite();
    try {
      const [first, second] = await Promise.all([database.checkpointInThread!(), database.checkpointInThread!()]);
      expect(second).toBe(first);
    } finally {
      await database.close();
    }
  });
});
