// Precompiled queries (src/db/precompiled.ts): the same rows as Kysely's own execution, and on
// SQLite, where a read outside a transaction runs at once on the one connection, never a row that
// a transaction open on that connection has not committed. Transactions of precompiled statements
// (src/db/precompiled-transaction.ts): all of their statements commit or none, and on SQLite one run
// at once while another transaction is open waits for it rather than writing into it.
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { precompiled } from '../src/db/precompiled.js';
import { rowsOf, runTransaction } from '../src/db/precompiled-transaction.js';
import type { DB } from '../src/db/schema.js';
import { startTestApp, type TestApp } from './support/app.js';
import { databaseKinds } from './support/databases.js';

const insertOrganization = precompiled(2, (db: Kysely<DB>, name: string, at: string) =>
  db.insertInto('organizations').values({ name, created_on: at, modified_on: at }).returning('id'),
);
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

  it('commit all the statements of a transaction, or none when it fails after some ran', async () => {
    const db = t.app.database.db;
    const at = new Date().toISOString();
    const ids = await runTransaction(db, function* () {
      const [first] = yield* rowsOf(insertOrganization.bind(db, 'Batch 1', at));
      const [second] = yield* rowsOf(insertOrganization.bind(db, 'Batch 2', at));
      return [first!.id, second!.id];
    });
    expect((await organizationsNamed(db, 'Batch 2'))[0]!.id).toBe(ids[1]);
    await expect(
      runTransaction(db, function* () {
        yield* rowsOf(insertOrganization.bind(db, 'Batch undone', at));
        throw new Error('failed after a statement');
      }),
    ).rejects.toThrow('failed after a statement');
    expect(await organizationsNamed(db, 'Batch undone')).toEqual([]);
  });

  it('wait for a transaction open on the connection instead of writing into it', async () => {
    const db = t.app.database.db;
    const at = new Date().toISOString();
    let written: Promise<unknown> | undefined;
    const rolledBack = db.transaction().execute(async (trx) => {
      await insert(trx, 'Open, then undone');
      written = runTransaction(db, function* () {
        yield* rowsOf(insertOrganization.bind(db, 'Written beside it', at));
      });
      await new Promise((resolve) => setImmediate(resolve));
      throw new Error('rolled back');
    });
    await expect(rolledBack).rejects.toThrow('rolled back');
    await written;
    expect(await organizationsNamed(db, 'Open, then undone')).toEqual([]);
    expect(await organizationsNamed(db, 'Written beside it')).toHaveLength(1);
  });
});
