// What handles a kind of job (src/jobs/job-types.ts): its run, given the means to end the job in the
// transaction of its work, and what is done when it has failed for good.
import type { Repositories } from '../repositories.js';
import type { Job, JobName } from './job-types.js';

/**
 * Marks the job done inside the transaction that ends its work, and claims the worker's next job
 * there too: the work, the job's end and the next job's lease commit together, one write for three.
 */
export type CompleteJob = (repos: Repositories) => Promise<void>;

export interface JobHandler<N extends JobName> {
  /**
   * A handler that does not call `complete` has its job marked done once `run` returns. `stopping`
   * aborts when the worker stops (the server shuts down): a long job stops there and throws, and
   * the job is put back for the next worker, its attempt not counted.
   */
  run(job: Job<N>, complete: CompleteJob, stopping: AbortSignal): Promise<void>;
  /** Called once when the job has failed for good, with the last error's message. */
  onFailed(job: Job<N>, reason: string): Promise<void>;
}

/** One handler for each kind of job. */
export type JobHandlers = { [N in JobName]: JobHandler<N> };
