// PostgreSQL: the statements precompiled for every document and request (src/db/precompiled.ts) are
// prepared once on each connection; others stay unnamed, and DATABASE_PREPARED_STATEMENTS=false
// prepares none (for a pooler that cannot keep them).
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JobsRepo } from '../src/jobs/jobs.repo.js';
import type { TestApp } from './support/app.js';
import { startTestApp } from './support/app.js';
import { databaseKinds } from './support/databases.js';

const onPostgres = databaseKinds.includes('postgres');

/** The statements prepared on the connection of one transaction, after a job claim and another statement ran twice on it. */
async function preparedAfterClaims(t: TestApp): Promise<string[]> {
  return t.app.database.db.transaction().execute(async (trx) => {
    const jobs = new JobsRepo(trx, t.app.database.dialect);
    const at = new Date().toISOString();
    for (let run = 0; run < 2; run++) {
      await jobs.claim('test-worker', at, at, 1);
      await trx.selectFrom('feature_flags').selectAll().where('organization_id', '=', 1).execute();
    }
    const { rows } = await sql<{ statement: string }>`select statement from pg_prepared_statements`.execute(trx);
    return rows.map((row) => row.statement);
  });
}

describe.runIf(onPostgres)('prepared statements (postgres)', () => {
  let prepared: TestApp;
  let unprepared: TestApp;

  beforeAll(async () => {
    prepared = await startTestApp('postgres', { WORKER_IN_PROCESS: 'false' });
    unprepared = await startTestApp('postgres', { WORKER_IN_PROCESS: 'false', DATABASE_PREPARED_STATEMENTS: 'false' });
  });
  afterAll(async () => {
    await prepared?.close();
    await unprepared?.close();
  });

  it('prepares the job claim on the connection that runs it, once, and not a statement built each time', async () => {
    const statements = await preparedAfterClaims(prepared);
    expect(statements.filter((statement) => statement.startsWith('update "jobs"'))).toHaveLength(1);
    expect(statements.filter((statement) => statement.includes('"feature_flags"'))).toEqual([]);
  });

  it('prepares nothing with DATABASE_PREPARED_STATEMENTS=false', async () => {
    expect(await preparedAfterClaims(unprepared)).toEqual([]);
  });
});
