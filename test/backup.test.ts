// The SQLite backup taken while the app is running and has written data: the copy opens on its
// own and holds that data. (PostgreSQL is backed up with pg_dump; the command line refuses it.)
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sqliteDriver } from '../src/db/sqlite-driver.js';
import { afterAll, describe, expect, it } from 'vitest';
import { BackupRefused, backupSqlite } from '../src/db/backup.js';
import { startTestApp } from './support/app.js';
import { createAgent, createUser } from './support/factories.js';

const folder = mkdtempSync(join(tmpdir(), 'agent-platform-backup-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

describe('backup of the embedded database', () => {
  it('copies what the running app has written, and refuses to overwrite a file', async () => {
    const running = await startTestApp('sqlite');
    try {
      const owner = await createUser(running.app, { role: 'owner' });
      const agent = await createAgent(owner, { name: 'Backed-up agent' });
      const target = join(folder, 'copy.sqlite');

      const copy = await backupSqlite(running.scratch.dataDir, target);
      expect(copy.file).toBe(target);
      expect(copy.bytes).toBeGreaterThan(0);
      expect(existsSync(`${target}-wal`)).toBe(false);
      // The app goes on answering while and after the copy is taken.
      expect((await owner.api.get(`/api/v2/agents/${agent.id}`)).status).toBe(200);

      const opened = new (sqliteDriver())(target, { readonly: true });
      try {
        const row = opened.prepare('select name from agents where id = ?').get(agent.id) as { name: string } | undefined;
        expect(row?.name).toBe('Backed-up agent');
      } finally {
        opened.close();
      }

      await expect(backupSqlite(running.scratch.dataDir, target)).rejects.toBeInstanceOf(BackupRefused);
    } finally {
      await running.close();
    }
  });

  it('says so when DATA_DIR holds no database', async () => {
    const empty = join(folder, 'empty');
    await expect(backupSqlite(empty, join(folder, 'none.sqlite'))).rejects.toThrow(/No database/);
    expect(existsSync(join(folder, 'none.sqlite'))).toBe(false);
  });
});
