// Storing documents' chunks together: pieces of work in one transaction, each undone alone when it
// throws (UnitOfWork.transactionInParts), and the work that queued while a transaction ran stored
// in the next one (GroupCommit), on both databases.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GroupCommit } from '../src/modules/documents/pipeline/group-commit.js';
import type { Repositories, UnitOfWork } from '../src/repositories.js';
import { startTestApp, type TestApp } from './support/app.js';
import { databaseKinds } from './support/databases.js';
import { createUser, type TestUser } from './support/factories.js';

/** Work that says it has started (`entered`), then waits at `pass` until released. */
function gate() {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  let started!: () => void;
  const entered = new Promise<void>((resolve) => (started = resolve));
  return {
    entered,
    release,
    pass: () => {
      started();
      return held;
    },
  };
}

describe.each(databaseKinds)('group commit (%s)', (kind) => {
  let t: TestApp;
  let store: UnitOfWork;
  let user: TestUser;
  const at = '2026-11-24T10:00:00.000Z';

  /** A piece of work that leaves a mark (a feature flag's row) to find afterwards. */
  const mark = (flag: string) => (repos: Repositories) => repos.flags.set(user.organizationId, flag, true, at, user.id);
  const marks = async () => (await store.repos.flags.list(user.organizationId)).map((row) => row.flag).sort();
  /** The store, recording how many pieces each transaction took. */
  const countingGroups = () => {
    const groups: number[] = [];
    const counting: UnitOfWork = {
      ...store,
      transactionInParts: (parts) => {
        groups.push(parts.length);
        return store.transactionInParts(parts);
      },
    };
    return { counting, groups };
  };

  beforeAll(async () => {
    t = await startTestApp(kind);
    store = t.app.services.store;
    user = await createUser(t.app, { role: 'owner' });
  });
  afterAll(() => t.close());

  it('undoes only the part that throws, and commits the others', async () => {
    const refused = new Error('refused');
    const settled = await store.transactionInParts([
      mark('part-one'),
      async (repos) => {
        await mark('part-two')(repos);
        throw refused;
      },
      mark('part-three'),
    ]);
    expect(settled.map((outcome) => outcome.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((settled[1] as PromiseRejectedResult).reason).toBe(refused);
    expect(await marks()).toEqual(['part-one', 'part-three']);
  });

  it('runs each piece once when none throws, and each again alone when one does', async () => {
    const runs: string[] = [];
    const counted = (flag: string, fails = false) => async (repos: Repositories) => {
      runs.push(flag);
      await mark(flag)(repos);
      if (fails) throw new Error(`${flag} refused`);
    };
    await store.transactionInParts([counted('once-a'), counted('once-b')]);
    expect(runs).toEqual(['once-a', 'once-b']);

    runs.length = 0;
    const settled = await store.transactionInParts([counted('again-a'), counted('again-b', true), counted('again-c')]);
    expect(settled.map((outcome) => outcome.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    // The group ran as far as the piece that threw, then each piece alone.
    expect(runs).toEqual(['again-a', 'again-b', 'again-a', 'again-b', 'again-c']);
    expect((await marks()).filter((flag) => flag.startsWith('again'))).toEqual(['again-a', 'again-c']);
  });

  it('stores the work that queued while a transaction ran in one next transaction, and answers each its outcome', async () => {
    const { counting, groups } = countingGroups();
    const grouped = new GroupCommit(counting, 16, 1);
    const first = gate();
    const outcomes = [
      grouped.run(async (repos) => {
        await first.pass();
        await mark('queued-first')(repos);
      }),
    ];
    await first.entered;
    outcomes.push(
      grouped.run(mark('queued-second')),
      grouped.run(async () => {
        throw new Error('gone');
      }),
      grouped.run(mark('queued-fourth')),
    );
    first.release();
    const settled = await Promise.allSettled(outcomes);
    expect(settled.map((outcome) => outcome.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
    expect(groups).toEqual([1, 3]);
    expect((await marks()).filter((flag) => flag.startsWith('queued'))).toEqual(['queued-first', 'queued-fourth', 'queued-second']);
  });

  it('stores in a second transaction while the first waits, where the database takes several writers; one at a time on SQLite', async () => {
    const { counting, groups } = countingGroups();
    const grouped = new GroupCommit(counting, 16, 2);
    const first = gate();
    const slow = grouped.run(async (repos) => {
      await first.pass();
      await mark('at-once-slow')(repos);
    });
    await first.entered;
    const quick = grouped.run(mark('at-once-quick'));
    if (kind === 'postgres') {
      // Stored and committed while the first transaction still waits.
      await quick;
      expect((await marks()).filter((flag) => flag.startsWith('at-once'))).toEqual(['at-once-quick']);
      first.release();
      await slow;
      expect(groups).toEqual([1, 1]);
    } else {
      first.release();
      await Promise.all([slow, quick]);
      expect(groups).toEqual([1, 1]);
    }
    expect((await marks()).filter((flag) => flag.startsWith('at-once'))).toEqual(['at-once-quick', 'at-once-slow']);
  });

  it('runs the pieces of a transaction in their order', async () => {
    const ran: number[] = [];
    const grouped = new GroupCommit(store, 16, 1);
    await Promise.all([3, 1, 2].map((order) => grouped.run(async () => void ran.push(order), order)));
    expect(ran).toEqual([1, 2, 3]);
  });

  it('fails every piece when the transaction fails', async () => {
    const failing: UnitOfWork = { ...store, transactionInParts: () => Promise.reject(new Error('the database is gone')) };
    const grouped = new GroupCommit(failing);
    const settled = await Promise.allSettled([grouped.run(mark('lost-one')), grouped.run(mark('lost-two'))]);
    expect(settled.map((outcome) => outcome.status)).toEqual(['rejected', 'rejected']);
    expect((await marks()).filter((flag) => flag.startsWith('lost'))).toEqual([]);
  });

  it('takes at most the given number of pieces in one transaction', async () => {
    const { counting, groups } = countingGroups();
    const grouped = new GroupCommit(counting, 2, 1);
    await Promise.all(['a', 'b', 'c', 'd', 'e'].map((name) => grouped.run(mark(`most-${name}`))));
    // All five asked in one turn of the event loop: stored two, two, then one.
    expect(groups).toEqual([2, 2, 1]);
    expect((await marks()).filter((flag) => flag.startsWith('most'))).toHaveLength(5);
  });
});
