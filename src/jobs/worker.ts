// Runs jobs from the jobs table: in the server process by default, or in `agent-platform worker`
// processes against PostgreSQL. Each job is leased; the lease is renewed while the job runs, so
// only a worker that died loses its jobs, and then only until the lease expires.
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { FastifyBaseLogger } from 'fastify';
import type { Repositories, UnitOfWork } from '../repositories.js';
import type { JobHandlers } from './job-handler.js';
import type { Job, JobName } from './job-types.js';
import type { ClaimedJob, JobsRepo, UnreadableJob } from './jobs.repo.js';

/** A failure that trying again cannot mend (a corrupt file, an unsupported format). */
export class PermanentJobError extends Error {}

export interface WorkerOptions {
  concurrency: number;
  leaseMs: number;
  pollMs: number;
  /** Delay before retry n (1-based) is backoffMs * 2^(n-1), doubled at most MAX_BACKOFF_DOUBLINGS times. */
  backoffMs: number;
}

/** Runs one job's handler inside whatever observes it (a span of its own when tracing is on). */
export type JobTracer = <T>(job: { id: number; name: string; attempts: number }, run: () => Promise<T>) => Promise<T>;

/** Retries through a long database outage are not counted against a job, so its backoff is bounded. */
const MAX_BACKOFF_DOUBLINGS = 9;

const iso = (ms: number) => new Date(ms).toISOString();

export class Worker {
  readonly owner = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  private readonly jobs: JobsRepo;
  private readonly inFlight = new Set<Promise<void>>();
  /** The jobs being run now, by id, for the shutdown log. */
  private readonly jobsRunning = new Map<number, string>();
  private running = false;
  private loop: Promise<void> | undefined;
  private wakeUp: (() => void) | undefined;
  /** Set when woken while not asleep, so that the next sleep is skipped and no wake-up is lost. */
  private woken = false;
  /** Aborted by stop(): handlers of long jobs stop there, and their jobs are put back. */
  private stopping = new AbortController();
  private traceJob: JobTracer = (_job, run) => run();

  constructor(
    private readonly store: UnitOfWork,
    private readonly handlers: JobHandlers,
    private readonly options: WorkerOptions,
    private readonly log: FastifyBaseLogger,
  ) {
    this.jobs = store.repos.jobs;
  }

  /** Each job's handler runs inside `tracer` from now on. */
  traceJobsWith(tracer: JobTracer): void {
    this.traceJob = tracer;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    if (this.stopping.signal.aborted) this.stopping = new AbortController();
    this.loop = this.run();
  }

  /** The jobs this worker is running now: what a stop waits for. */
  runningJobs(): { id: number; name: string }[] {
    return [...this.jobsRunning].map(([id, name]) => ({ id, name }));
  }

  /** Looks for work now rather than at the next poll (called when a job is enqueued). */
  wake(): void {
    if (this.wakeUp) this.wakeUp();
    else this.woken = true;
  }

  /** Stops taking jobs and waits for those in flight. */
  async stop(): Promise<void> {
    this.running = false;
    this.stopping.abort();
    this.wake();
    await this.loop;
    // A job ending meanwhile may have started the successor it claimed: wait for those too.
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
  }

  private async run(): Promise<void> {
    while (this.running) {
      const claimed = await this.claimFreeSlots();
      for (const job of claimed) this.launch(job);
      // With nothing claimed (or no free slot), sleep until woken or the next poll.
      if (claimed.length === 0) await this.sleep();
    }
  }

  /** Runs a claimed job in a slot; the job that took its place when it completed (if any) follows in the same slot. */
  private launch(job: ClaimedJob): void {
    let next: ClaimedJob | undefined;
    const execution = this.execute(job)
      .then((successor) => {
        next = successor;
      })
      // execute records its own failures; this only keeps a fault in that bookkeeping from
      // becoming an unhandled rejection. The job's lease expires and it is taken again.
      .catch((error: unknown) => this.log.error({ err: error, job: job.id }, 'job bookkeeping failed'))
      .finally(() => {
        this.inFlight.delete(execution);
        if (next !== undefined) this.launch(next);
        else this.wake();
      });
    this.inFlight.add(execution);
  }

  /** Jobs for the free slots; none while the database is unreachable (the loop tries again at the next poll). */
  private async claimFreeSlots(): Promise<ClaimedJob[]> {
    const free = this.options.concurrency - this.inFlight.size;
    if (free <= 0) return [];
    try {
      const at = Date.now();
      return await this.jobs.claim(this.owner, iso(at), iso(at + this.options.leaseMs), free);
    } catch (error) {
      this.log.error({ err: error }, 'could not claim jobs');
      return [];
    }
  }

  private sleep(): Promise<void> {
    if (this.woken) {
      this.woken = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const timer = setTimeout(done, this.options.pollMs);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.wakeUp = () => {
        this.wakeUp = undefined;
        done();
      };
    });
  }

  /** Runs a job; answers the job claimed in its place when the handler completed it in its transaction. */
  private async execute(job: ClaimedJob): Promise<ClaimedJob | undefined> {
    const renew = setInterval(() => {
      this.jobs.renewLease(job.id, this.owner, iso(Date.now() + this.options.leaseMs)).catch(() => undefined);
    }, Math.max(100, this.options.leaseMs / 3));
    this.jobsRunning.set(job.id, job.name);
    try {
      if ('unreadable' in job) await this.failUnreadable(job);
      else return await this.runWithHandler(job);
    } finally {
      clearInterval(renew);
      this.jobsRunning.delete(job.id);
    }
    return undefined;
  }

  /**
   * `complete` marks the job done in the handler's transaction and claims the next job for the same
   * slot there too: one write ends a job and starts the next.
   */
  private async runWithHandler<N extends JobName>(job: Job<N>): Promise<ClaimedJob | undefined> {
    const handler = this.handlers[job.name];
    let completed = false;
    let successor: ClaimedJob | undefined;
    const complete = async (repos: Repositories) => {
      const at = Date.now();
      if (this.running) successor = await repos.jobs.finishAndClaimNext(job.id, this.owner, iso(at), iso(at + this.options.leaseMs));
      else await repos.jobs.finish(job.id, this.owner, 'done', iso(at));
      completed = true;
    };
    try {
      await this.traceJob(job, () => handler.run(job, complete, this.stopping.signal));
      // A transaction that called `complete` and then failed threw, so `run` did not return, and
      // the claim of the successor was undone with it.
      if (!completed) await this.jobs.finish(job.id, this.owner, 'done', iso(Date.now()));
      return successor;
    } catch (error) {
      if (this.stopping.signal.aborted && !completed) await this.putBack(job);
      else await this.handleFailure(job, error);
      return undefined;
    }
  }

  /** A job its handler stopped because the worker stops: the next worker takes it from where it was left. */
  private async putBack(job: { id: number; name: string }): Promise<void> {
    this.log.info({ job: job.id, kind: job.name }, 'job put back: the worker stops');
    try {
      await this.jobs.release(job.id, this.owner, iso(Date.now()));
    } catch (error) {
      // Its lease expires and it is taken again all the same.
      this.log.error({ err: error, job: job.id }, 'could not put the job back');
    }
  }

  private async failUnreadable(job: UnreadableJob): Promise<void> {
    this.log.error({ job: job.id, kind: job.name, reason: job.unreadable }, 'job cannot be read');
    await this.jobs.finish(job.id, this.owner, 'failed', iso(Date.now()), job.unreadable);
  }

  private async handleFailure<N extends JobName>(job: Job<N>, error: unknown): Promise<void> {
    const reason = error instanceof Error ? error.message : String(error);
    // A database outage says nothing about the job: it is tried again after the outage, however many
    // attempts it has used, rather than failed for good because the outage outlasted its retries.
    const outage = this.store.isUnavailable(error);
    const final = error instanceof PermanentJobError || (job.attempts >= job.maxAttempts && !outage);
    this.log.warn({ job: job.id, kind: job.name, attempt: job.attempts, final, err: error }, 'job failed');
    try {
      if (final) {
        if (await this.jobs.finish(job.id, this.owner, 'failed', iso(Date.now()), reason)) await this.handlers[job.name].onFailed(job, reason);
      } else {
        const delay = this.options.backoffMs * 2 ** Math.min(job.attempts - 1, MAX_BACKOFF_DOUBLINGS);
        await this.jobs.retryLater(job.id, this.owner, iso(Date.now() + delay), reason, iso(Date.now()));
      }
    } catch (bookkeeping) {
      // The lease will expire and the job will be taken again; nothing is lost.
      this.log.error({ err: bookkeeping, job: job.id }, 'could not record the job’s failure');
    }
  }
}
