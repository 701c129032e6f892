// Every kind of job the platform runs, by name, with the payload its handler is given. A new kind
// of job is one entry in JobPayloads and JOB_ATTEMPTS, its storage in jobs.repo.ts, and a handler
// (src/jobs/job-handler.ts): the compiler then asks for the handler wherever the worker is built.

/** Every job belongs to an organization (the jobs table requires it, and deleting one drops its jobs). */
export interface OrganizationJob {
  organizationId: number;
}

export interface JobPayloads {
  /** Takes a document through the pipeline, from the step its row records. */
  'document.process': OrganizationJob & { documentId: number };
  /** Brings a corpus to match its document library (src/modules/sources/adapters/graph-drive.ts). */
  'connector.sync': OrganizationJob & { connectorId: number };
  /** Answers and scores an evaluation's queries not yet answered (src/modules/evaluations/evaluation-runner.ts). */
  'evaluation.run': OrganizationJob & { evaluationId: number };
  /** Brings a mailbox's new messages into its corpus (src/modules/sources/adapters/mailbox.ts). */
  'mailbox.sync': OrganizationJob & { mailboxId: number };
  /** Imports an OpenAPI document's operations as API tools (src/modules/tools/tool-import-job.ts). */
  'tool.import': OrganizationJob & { toolImportId: number };
}

export type JobName = keyof JobPayloads;

/** Attempts of each kind of job, the first run included, before it fails for good. */
export const JOB_ATTEMPTS: { readonly [N in JobName]: number } = {
  'document.process': 3,
  // Graph's refusals end a sync on the connector, not the job: these attempts are for the database's.
  'connector.sync': 3,
  // Each run goes on from the queries answered so far; a failing query is a result, not a failed run.
  'evaluation.run': 5,
  // The provider's refusals end a sync on the mailbox, not the job: these attempts are for the database's.
  'mailbox.sync': 3,
  // Each run goes on after the operations recorded so far; a refused operation is a result, not a failed run.
  'tool.import': 3,
};

export const JOB_NAMES = Object.keys(JOB_ATTEMPTS) as JobName[];

/** A claimed job, its payload decoded. */
export interface Job<N extends JobName = JobName> {
  id: number;
  name: N;
  payload: JobPayloads[N];
  /** Runs so far, this one included. */
  attempts: number;
  maxAttempts: number;
}

/** Any job, narrowed by its name. */
export type AnyJob = { [N in JobName]: Job<N> }[JobName];
