// What the server writes in its data folder (the database and its -wal and -shm files, the secret
// key, stored files) and the backups it takes are its user's alone: files 0600, folders 0700, even
// under a umask that would leave them open to everyone.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../src/app.js';
import { backupSqlite } from '../src/db/backup.js';
import { SQLITE_FILE_NAME } from '../src/db/database.js';
import { testConfig } from './support/app.js';
import { createCorpus, uploadFiles } from './support/corpora.js';
import { createScratchDatabase, type ScratchDatabase } from './support/databases.js';
import { createUser } from './support/factories.js';

const mode = (path: string) => statSync(path).mode & 0o777;

/** Every file and folder under the folder, the folder excluded. */
function everythingUnder(folder: string): { path: string; folder: boolean }[] {
  return readdirSync(folder, { withFileTypes: true, recursive: true }).map((entry) => ({ path: join(entry.parentPath, entry.name), folder: entry.isDirectory() }));
}

describe('modes of the files the server writes', () => {
  let scratch: ScratchDatabase;
  let dataDir: string;
  let app: App;
  let umask: number;

  beforeAll(async () => {
    // Nothing taken away from the modes asked for: what SQLite or a plain write asks for is then what a file gets.
    umask = process.umask(0);
    scratch = await createScratchDatabase('sqlite');
    // A folder the server makes, with a parent it makes too.
    dataDir = join(scratch.dataDir, 'made', 'data');
    app = await buildApp(testConfig(scratch, { DATA_DIR: dataDir }));
  });
  afterAll(async () => {
    await app?.close();
    process.umask(umask);
    await scratch.drop();
  });

  it('after a start and an upload: the database, its -wal and -shm, the key and the stored files are 0600, the folders 0700', async () => {
    const owner = await createUser(app, { role: 'owner' });
    const corpus = await createCorpus(owner);
    const upload = await uploadFiles(app, owner, corpus.id, [{ name: 'notes.md', bytes: Buffer.from('# Notes\n\nKept to the owner.') }]);
    expect(upload.status).toBe(201);

    const database = join(dataDir, SQLITE_FILE_NAME);
    for (const file of [database, `${database}-wal`, `${database}-shm`, join(dataDir, 'secret.key')]) expect(mode(file), file).toBe(0o600);
    for (const folder of [join(scratch.dataDir, 'made'), dataDir, join(dataDir, 'files')]) expect(mode(folder), folder).toBe(0o700);
    const stored = everythingUnder(join(dataDir, 'files'));
    expect(stored.filter((entry) => !entry.folder).length).toBeGreaterThan(0);
    for (const entry of everythingUnder(dataDir)) expect(mode(entry.path), entry.path).toBe(entry.folder ? 0o700 : 0o600);
  });

  it('a backup is 0600', async () => {
    const target = join(scratch.dataDir, 'backup.sqlite');
    await backupSqlite(dataDir, target);
    expect(mode(target)).toBe(0o600);
  });
});
