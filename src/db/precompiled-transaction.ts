// Writes that belong together (a question's thread, response row and usage event; an answer's outcome,
// usage event and the thread's last activity) run as one transaction of precompiled statements
// (precompiled.ts), written once as a generator that yields each bound statement and receives its
// rows. On SQLite, when no transaction is open on the connection, the whole transaction runs at once,
// synchronously, on the connection: no statement is built or compiled, and none of Kysely's
// connection lock and promises (which cost more than the writes) stand between them; nothing else can
// run between its statements, as better-sqlite3 is synchronous. Otherwise (PostgreSQL, or a
// transaction already open) each statement runs through Kysely in a transaction, prepared on the
// PostgreSQL connection (prepared-statements.ts). Either way it commits whole or not at all.
import { CompiledQuery, type Kysely } from 'kysely';
import { directConnectionOf, type BoundStatement } from './precompiled.js';

/** The statements of a transaction: yields each, receives its rows, returns what the transaction gives. */
export type Statements<T> = Generator<BoundStatement<unknown>, T, unknown[]>;

/** Runs one statement of a transaction being written and gives its rows: `const rows = yield* rowsOf(query.bind(db, …))`. */
export function* rowsOf<Row>(statement: BoundStatement<Row>): Generator<BoundStatement<unknown>, Row[], unknown[]> {
  return (yield statement) as Row[];
}

/** Runs the statements as one transaction: at once on SQLite where it can, else through Kysely (in `db`'s transaction where it is one). */
export async function runTransaction<T>(db: Kysely<any>, statements: () => Statements<T>): Promise<T> {
  const direct = directConnectionOf(db);
  if (direct !== undefined) {
    const ran = direct.transactionNow((run) => {
      const steps = statements();
      for (let step = steps.next(); ; ) {
        if (step.done) return { value: step.value };
        step = steps.next(run(step.value.sql, step.value.parameters));
      }
    });
    if (ran !== undefined) return ran.value;
  }
  const work = async (trx: Kysely<any>) => {
    const steps = statements();
    for (let step = steps.next(); ; ) {
      if (step.done) return step.value;
      const result = await trx.executeQuery(CompiledQuery.raw(step.value.sql, [...step.value.parameters]));
      step = steps.next(result.rows as unknown[]);
    }
  };
  return db.isTransaction ? work(db) : db.transaction().execute(work);
}
