// The jobs table: durable work with leases. A job is claimed by setting a lease; a worker that dies
// leaves a lease that expires, and the job is claimed again. Payloads are written to and read from
// the table here, so that handlers see only their typed payload.
import type { Kysely, QueryCreator } from 'kysely';
import { precompiled, precompiledPer } from '../db/precompiled.js';
import type { Dialect } from '../db/dialect.js';
import type { DB, JobRow } from '../db/schema.js';
import { JOB_ATTEMPTS, JOB_NAMES, type AnyJob, type Job, type JobName, type JobPayloads } from './job-types.js';

/** A claimed row whose payload cannot be read (written by hand, or damaged): the worker fails it for good. */
export interface UnreadableJob {
  id: number;
  name: string;
  attempts: number;
  maxAttempts: number;
  unreadable: string;
}

export type ClaimedJob = AnyJob | UnreadableJob;

/** How a kind of job keeps its payload in the columns of the jobs table. */
interface PayloadColumns<N extends JobName> {
  write(payload: JobPayloads[N]): { organization_id: number; document_id?: number | null; evaluation_id?: number | null; connector_id?: number | null; mailbox_id?: number | null; tool_import_id?: number | null };
  /** The payload, or undefined when the row holds none. */
  read(row: JobRow): JobPayloads[N] | undefined;
}

// The jobs table has no payload column: each kind of job keeps what it works on in a column whose
// foreign key drops the job with it (document_id, connector_id, evaluation_id, mailbox_id). A kind whose payload fits no
// column comes with a migration adding a JSON payload column, encoded and decoded here.
const PAYLOAD_COLUMNS: { [N in JobName]: PayloadColumns<N> } = {
  'document.process': {
    write: (payload) => ({ organization_id: payload.organizationId, document_id: payload.documentId }),
    read: (row) => (row.document_id === null ? undefined : { organizationId: row.organization_id, documentId: row.document_id }),
  },
  'connector.sync': {
    write: (payload) => ({ organization_id: payload.organizationId, connector_id: payload.connectorId }),
    read: (row) => (row.connector_id === null ? undefined : { organizationId: row.organization_id, connectorId: row.connector_id }),
  },
  'evaluation.run': {
    write: (payload) => ({ organization_id: payload.organizationId, evaluation_id: payload.evaluationId }),
    read: (row) => (row.evaluation_id === null ? undefined : { organizationId: row.organization_id, evaluationId: row.evaluation_id }),
  },
  'mailbox.sync': {
    write: (payload) => ({ organization_id: payload.organizationId, mailbox_id: payload.mailboxId }),
    read: (row) => (row.mailbox_id === null ? undefined : { organizationId: row.organization_id, mailboxId: row.mailbox_id }),
  },
  'tool.import': {
    write: (payload) => ({ organization_id: payload.organizationId, tool_import_id: payload.toolImportId }),
    read: (row) => (row.tool_import_id === null ? undefined : { organizationId: row.organization_id, toolImportId: row.tool_import_id }),
  },
};

function decodeAs<N extends JobName>(name: N, row: JobRow): Job<N> | UnreadableJob {
  const base = { id: row.id, attempts: row.attempts, maxAttempts: row.max_attempts };
  const payload = PAYLOAD_COLUMNS[name].read(row);
  return payload === undefined ? { ...base, name, unreadable: `The ${name} job holds no payload` } : { ...base, name, payload };
}

function decode(row: JobRow): ClaimedJob {
  const name = row.kind as JobName;
  // Only known names are claimed (see claim); the check keeps a row written by hand from passing.
  if (!JOB_NAMES.includes(name)) return { id: row.id, name: row.kind, attempts: row.attempts, maxAttempts: row.max_attempts, unreadable: `No job is named ${row.kind}` };
  // A Job<N> of a given name is one member of AnyJob; the compiler cannot follow the name through the union.
  return decodeAs(name, row) as ClaimedJob;
}

/**
 * The update that claims up to `limit` jobs (see JobsRepo.claim), leaving out the job `except` when
 * given: the one a worker ends in the same statement, whose lease may have expired meanwhile.
 */
function claimUpdate(db: QueryCreator<DB>, dialect: Dialect, owner: string, at: string, leaseUntil: string, limit: number, except?: number) {
  return db
    .updateTable('jobs')
    .set((eb) => ({
      status: 'running',
      lease_owner: owner,
      lease_expires_on: leaseUntil,
      attempts: eb('attempts', '+', 1),
      modified_on: at,
    }))
    .where('id', 'in', (eb) => {
      const claimable = eb
        .selectFrom('jobs')
        .where('kind', 'in', JOB_NAMES)
        .$if(except !== undefined, (query) => query.where('id', '<>', except!));
      const due = dialect.skipLocked(
        claimable.select(['id', 'run_after as since']).where('status', '=', 'queued').where('run_after', '<=', at).orderBy('run_after').orderBy('id').limit(limit),
      );
      const expired = dialect.skipLocked(
        claimable
          .select(['id', 'lease_expires_on as since'])
          .where('status', '=', 'running')
          .where('lease_expires_on', '<', at)
          .$narrowType<{ since: string }>()
          .orderBy('lease_expires_on')
          .orderBy('id')
          .limit(limit),
      );
      const first = eb
        .selectFrom(due.as('due'))
        .select(['due.id', 'due.since'])
        .unionAll(eb.selectFrom(expired.as('expired')).select(['expired.id', 'expired.since']))
        .orderBy('since')
        .orderBy('id')
        .limit(limit);
      return eb.selectFrom(first.as('first')).select('first.id');
    })
    .returningAll();
}

/**
 * The claim's statement, built and compiled once per database (src/db/precompiled.ts): a job ends and
 * the next is claimed in every document's transaction, and building this statement cost more than
 * running it. Per dialect, since the row locks it takes are the dialect's.
 */
const claimQueryOf = precompiledPer((dialect: Dialect) =>
  precompiled(4, (db: Kysely<DB>, owner: string, at: string, leaseUntil: string, limit: number) => claimUpdate(db, dialect, owner, at, leaseUntil, limit)),
);

/**
 * A job's end and the claim of the next, in one statement where the database allows a write in WITH
 * (PostgreSQL): one round trip fewer in every document's transaction.
 */
const finishAndClaimQueryOf = precompiledPer((dialect: Dialect) =>
  precompiled(4, (db: Kysely<DB>, jobId: number, owner: string, at: string, leaseUntil: string) =>
    claimUpdate(
      // The claim does not read `finished`: it runs all the same, as any write in WITH does.
      db.with('finished', (db) => finishUpdate(db, jobId, owner, 'done', at, null)) as unknown as QueryCreator<DB>,
      dialect,
      owner,
      at,
      leaseUntil,
      1,
      jobId,
    ),
  ),
);

/** Ends a job its owner still holds; the ids it answers say whether it did. */
function finishUpdate(db: QueryCreator<DB>, jobId: number, owner: string, status: 'done' | 'failed', at: string, error: string | null) {
  return db
    .updateTable('jobs')
    .set({ status, lease_owner: null, lease_expires_on: null, last_error: error, modified_on: at })
    .where('id', '=', jobId)
    .where('lease_owner', '=', owner)
    .returning('id');
}

/** Precompiled, as the claim: every document runs it. */
const finishQuery = precompiled(5, finishUpdate);

export class JobsRepo {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly dialect: Dialect,
  ) {}

  async enqueue<N extends JobName>(name: N, payload: JobPayloads[N], at: string, runAfter = at): Promise<void> {
    await this.enqueueMany(name, [payload], at, runAfter);
  }

  /** Jobs of one kind, in one statement (an upload's documents). */
  async enqueueMany<N extends JobName>(name: N, payloads: readonly JobPayloads[N][], at: string, runAfter = at): Promise<void> {
    if (payloads.length === 0) return;
    const row = { kind: name, max_attempts: JOB_ATTEMPTS[name], run_after: runAfter, status: 'queued' as const, created_on: at, modified_on: at };
    // Batches bound the statement's parameters (9 a row) well under both databases' limits.
    for (let start = 0; start < payloads.length; start += 1000) {
      const batch = payloads.slice(start, start + 1000);
      await this.db
        .insertInto('jobs')
        .values(batch.map((payload) => ({ ...PAYLOAD_COLUMNS[name].write(payload), ...row })))
        .execute();
    }
  }

  /**
   * Claims up to `limit` jobs that are due, or whose lease has expired, for `owner` until `leaseUntil`.
   * Only jobs this version knows are taken: one named by a newer version waits for a worker of it.
   * Jobs go in the order they became claimable (fell due, or their lease expired). Each kind of
   * claimable row is read in the order of the index jobs_ready (status, run_after, id), stopping at
   * `limit`: with one condition ORed over both, the database gathered every due job and sorted them
   * for each claim (on SQLite with 600 queued, 37 µs against 14).
   */
  async claim(owner: string, at: string, leaseUntil: string, limit: number): Promise<ClaimedJob[]> {
    const rows = await claimQueryOf(this.dialect)(this.db, owner, at, leaseUntil, limit);
    return rows.map(decode);
  }

  /**
   * Ends a job this owner holds as done, and claims the next for it (none: undefined): in one
   * statement where the database allows a write in WITH, else in two.
   */
  async finishAndClaimNext(jobId: number, owner: string, at: string, leaseUntil: string): Promise<ClaimedJob | undefined> {
    if (this.dialect.writesInWith) return (await finishAndClaimQueryOf(this.dialect)(this.db, jobId, owner, at, leaseUntil)).map(decode)[0];
    await this.finish(jobId, owner, 'done', at);
    return (await this.claim(owner, at, leaseUntil, 1))[0];
  }

  async renewLease(jobId: number, owner: string, leaseUntil: string): Promise<void> {
    await this.db.updateTable('jobs').set({ lease_expires_on: leaseUntil }).where('id', '=', jobId).where('lease_owner', '=', owner).execute();
  }

  /** Ends a job this owner still holds; false when the lease was lost to another worker meanwhile. */
  async finish(jobId: number, owner: string, status: 'done' | 'failed', at: string, error: string | null = null): Promise<boolean> {
    return (await finishQuery(this.db, jobId, owner, status, at, error)).length > 0;
  }

  async retryLater(jobId: number, owner: string, runAfter: string, error: string, at: string): Promise<void> {
    await this.db
      .updateTable('jobs')
      .set({ status: 'queued', run_after: runAfter, lease_owner: null, lease_expires_on: null, last_error: error, modified_on: at })
      .where('id', '=', jobId)
      .where('lease_owner', '=', owner)
      .execute();
  }

  /** Puts back a job its worker stopped before it ended (a shutdown): claimable at once, the attempt not counted. */
  async release(jobId: number, owner: string, at: string): Promise<void> {
    await this.db
      .updateTable('jobs')
      .set((eb) => ({ status: 'queued', run_after: at, lease_owner: null, lease_expires_on: null, attempts: eb('attempts', '-', 1), modified_on: at }))
      .where('id', '=', jobId)
      .where('lease_owner', '=', owner)
      .execute();
  }

  /** Makes every running job claimable at once: for a start on SQLite, where no other process can hold one. */
  async releaseAllLeases(at: string): Promise<number> {
    const result = await this.db
      .updateTable('jobs')
      .set({ lease_expires_on: at })
      .where('status', '=', 'running')
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  }

  /**
   * Unfinished and failed jobs of the whole deployment by name and status, with the creation time of
   * the oldest of each: for the metrics endpoint. Done jobs are left out so that the count walks only
   * the few rows the jobs_ready index holds under these statuses.
   */
  async countOpenJobs(): Promise<{ name: string; status: 'queued' | 'running' | 'failed'; jobs: number; oldestCreatedOn: string }[]> {
    const rows = await this.db
      .selectFrom('jobs')
      .select((eb) => ['kind', 'status', eb.fn.countAll<number>().as('jobs'), eb.fn.min('created_on').as('oldest')])
      .where('status', 'in', ['queued', 'running', 'failed'])
      .groupBy(['kind', 'status'])
      .execute();
    return rows.map((row) => ({
      name: row.kind,
      status: row.status as 'queued' | 'running' | 'failed',
      jobs: Number(row.jobs),
      oldestCreatedOn: row.oldest,
    }));
  }
}
