// Precompiled queries (src/db/precompiled.ts): the same rows as Kysely's own execution, and on
// SQLite, where a read outside a transaction runs at once on the one connection, never a row that
// a transaction open on that connection has not committed.
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { precompiled } from '../src/db/precompiled.js';
import type { DB } from '../src/db/schema.js';
import { startTestApp, type TestApp } from './support/app.js';
import { databaseKinds } from './support/databases.js';

const organizationsNamed = precompiled(1, (db: Kysely<DB>, name: string) => db.selectFrom('organizations').select(['id', 'name']).where('name', '=', name));

describe.each(databaseKinds)('precompiled queries (%s)', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(kind);
  });
  afterAll(() => t.close());

  const insert = (db: Kysely<DB>, name: string) => {
    const at = new Date().toISOString();
    return db.insertInto('organizations').values({ name, created_on: at, modified_on: at }).execute();
  };

  it('read what Kysely reads, with the arguments bound', async () => {
    const db = t.app.database.db;
    await insert(db, 'Precompiled A');
    await insert(db, 'Precompiled B');
    const expected = await db.selectFrom('organizations').select(['id', 'name']).where('name', '=', 'Precompiled B').execute();
    expect(await organizationsNamed(db, 'Precompiled B')).toEqual(expected);
    expect(await organizationsNamed(db, 'Nobody')).toEqual([]);
  });

  it('read inside a transaction what the transaction wrote', async () => {
    await t.app.database.db.transaction().execute(async (trx) => {
      await insert(trx, 'Precompiled in a transaction');
      expect(await organizationsNamed(trx, 'Precompiled in a transaction')).toHaveLength(1);
    });
  });

  it('are built once for a database and the transactions on it', async () => {
    let builds = 0;
    const named = precompiled(1, (db: Kysely<DB>, name: string) => {
      builds++;
      return db.selectFrom('organizations').select('id').where('name', '=', name);
    });
    const db = t.app.database.db;
    await named(db, 'Built once');
    for (let i = 0; i < 3; i++) {
      await db.transaction().execute(async (trx) => {
        await insert(trx, `Built once ${i}`);
        expect(await named(trx, `Built once ${i}`)).toHaveLength(1);
      });
    }
    expect(builds).toBe(1);
  });

  it('never read what an open transaction has not committed', async () => {
    const db = t.app.database.db;
    let readMeanwhile: Promise<unknown[]> | undefined;
    const rolledBack = db.transaction().execute(async (trx) => {
      await insert(trx, 'Never committed');
      readMeanwhile = organizationsNamed(db, 'Never committed');
      // Lets the read go as far as it can while the transaction is still open.
      await new Promise((resolve) => setImmediate(resolve));
      throw new Error('rolled back');
    });
    await expect(rolledBack).rejects.toThrow('rolled back');
    expect(await readMeanwhile).toEqual([]);
  });
});
