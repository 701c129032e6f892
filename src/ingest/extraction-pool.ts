// A few threads that extract documents off the event loop, each bounded three ways, so that no file
// can take the process's memory or stall its requests whatever it claims about itself:
// - a V8 heap limit per thread: a thread that exceeds it dies (ERR_WORKER_OUT_OF_MEMORY);
// - a watch on the process's resident memory, for what the heap limit does not count (typed arrays
//   and native buffers, where inflated streams live): past the budget the running threads are ended;
// - a deadline per document: terminate() interrupts even a synchronous loop.
// A thread that ends is replaced on demand; the document fails with a reason for the user.
import { availableParallelism } from 'node:os';
import type { Worker } from 'node:worker_threads';
import { DOCUMENT_LABELS, ExtractionFailed } from './document.js';
import type { ExtractionReply, ExtractionRequest, ExtractionResult } from './extraction-thread.js';
import { startExtractionThread } from './extraction-thread-start.js';

export interface ExtractionThreadLimits {
  /** Documents extracted at once, one per thread. */
  threads: number;
  /** V8 heap (old generation) of each thread, in MiB. */
  heapMb: number;
  /** Growth of the process's resident memory allowed per running extraction, in MiB. */
  memoryMb: number;
  /** Time one document may take once its thread has started on it. */
  deadlineMs: number;
  /** A thread left idle this long ends (the next document starts a new one). */
  idleMs: number;
}

export const DEFAULT_EXTRACTION_THREADS: ExtractionThreadLimits = {
  threads: Math.min(2, availableParallelism()),
  heapMb: 1024,
  memoryMb: 1536,
  deadlineMs: 120_000,
  idleMs: 30_000,
};

const MEMORY_WATCH_MS = 20;

/** The process's resident memory, or undefined where the system will not tell (no /proc mounted). */
function residentMemory(): number | undefined {
  try {
    return process.memoryUsage.rss();
  } catch {
    return undefined;
  }
}

/**
 * The resident memory as last read, read again when older than half the watch's interval: reading
 * it costs a system call and a parse, and small documents start by the hundred a second. A start
 * measured from a reading 10 ms old is as good a baseline for a budget of hundreds of MB.
 */
class ResidentMemory {
  private value: number | undefined;
  private readAt = -Infinity;

  now(): number | undefined {
    const at = performance.now();
    if (at - this.readAt >= MEMORY_WATCH_MS / 2) {
      this.value = residentMemory();
      this.readAt = at;
    }
    return this.value;
  }
}

const duration = (ms: number) => (ms < 1000 ? `${ms} ms` : `${ms / 1000} s`);
const MIB = 1024 * 1024;

interface Task {
  request: ExtractionRequest;
  resolve(result: ExtractionResult): void;
  reject(error: Error): void;
  /** Runs with no other extraction beside it, once the memory watch stopped it while others ran. */
  alone: boolean;
}

interface Thread {
  worker: Worker;
  ready: boolean;
  task?: Task;
  /** The process's resident memory when the task started. */
  startRss: number;
  timer?: NodeJS.Timeout;
  /** Why the pool ended the thread; with a task, what the task fails with. */
  ending?: 'deadline' | 'memory' | 'idle' | 'closed';
  /** The memory watch ended it while other extractions ran, so the excess may not be its task's. */
  endedWithOthers?: boolean;
  error?: Error;
}

export class ExtractionPool {
  private readonly threads = new Set<Thread>();
  private readonly queue: Task[] = [];
  private readonly resident = new ResidentMemory();
  private watch: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(private readonly limits: ExtractionThreadLimits) {}

  extract(request: ExtractionRequest): Promise<ExtractionResult> {
    if (this.closed) return Promise.reject(new Error('The extraction threads are closed'));
    return new Promise((resolve, reject) => {
      this.queue.push({ request, resolve, reject, alone: false });
      this.dispatch();
    });
  }

  /** Ends every thread; documents in progress or waiting are rejected (not failed: they can be retried). */
  async close(): Promise<void> {
    this.closed = true;
    for (const task of this.queue.splice(0)) task.reject(new Error('The extraction threads were closed'));
    await Promise.all([...this.threads].map((thread) => this.end(thread, 'closed')));
  }

  private dispatch(): void {
    const all = [...this.threads];
    const busy = all.filter((thread) => thread.task !== undefined);
    const idle = all.filter((thread) => thread.ready && thread.task === undefined && thread.ending === undefined);
    while (this.queue.length > 0 && !busy.some((thread) => thread.task!.alone)) {
      if (this.queue[0]!.alone && busy.length > 0) return;
      const thread = idle.shift();
      if (thread === undefined) break;
      this.begin(thread, this.queue.shift()!);
      busy.push(thread);
    }
    let starting = all.filter((thread) => !thread.ready).length;
    while (starting < this.queue.length && this.threads.size < this.limits.threads) {
      this.spawn();
      starting++;
    }
  }

  private spawn(): void {
    const worker = startExtractionThread({ maxOldGenerationSizeMb: this.limits.heapMb });
    const thread: Thread = { worker, ready: false, startRss: 0 };
    this.threads.add(thread);
    worker.on('message', (reply: ExtractionReply) => this.received(thread, reply));
    worker.on('error', (error) => (thread.error = error));
    worker.on('exit', () => this.exited(thread));
  }

  private begin(thread: Thread, task: Task): void {
    clearTimeout(thread.timer);
    thread.task = task;
    thread.startRss = this.resident.now() ?? 0;
    thread.worker.ref();
    // One copy, handed over to the thread rather than copied again by postMessage.
    const bytes = new Uint8Array(task.request.bytes);
    thread.worker.postMessage({ ...task.request, bytes } satisfies ExtractionRequest, [bytes.buffer]);
    thread.timer = setTimeout(() => void this.end(thread, 'deadline'), this.limits.deadlineMs);
    this.watch ??= setInterval(() => this.checkMemory(), MEMORY_WATCH_MS).unref();
  }

  private received(thread: Thread, reply: ExtractionReply): void {
    if (!('ready' in reply)) {
      const task = thread.task;
      thread.task = undefined;
      clearTimeout(thread.timer);
      if ('failure' in reply) task?.reject(Object.assign(new ExtractionFailed(reply.failure.kind, reply.failure.message), { cause: reply.failure.cause }));
      else task?.resolve(reply);
    }
    thread.ready = true;
    thread.worker.unref(); // an idle thread does not keep the process alive
    thread.timer = setTimeout(() => void this.end(thread, 'idle'), this.limits.idleMs).unref();
    this.dispatch();
  }

  private end(thread: Thread, reason: NonNullable<Thread['ending']>): Promise<number> {
    thread.ending ??= reason;
    clearTimeout(thread.timer);
    return thread.worker.terminate();
  }

  private exited(thread: Thread): void {
    this.threads.delete(thread);
    clearTimeout(thread.timer);
    const task = thread.task;
    if (task !== undefined && thread.ending === 'memory' && thread.endedWithOthers && !task.alone) {
      task.alone = true; // run again by itself: the excess is then its own
      this.queue.unshift(task);
    } else if (task !== undefined) {
      task.reject(this.failure(thread, task));
    } else if (!thread.ready && thread.ending === undefined) {
      // The thread could not even start: every waiting document would meet the same fate.
      for (const waiting of this.queue.splice(0)) waiting.reject(new Error('An extraction thread could not start', { cause: thread.error }));
    }
    if (!this.closed) this.dispatch();
  }

  private failure(thread: Thread, task: Task): Error {
    const label = DOCUMENT_LABELS[task.request.type];
    if (thread.ending === 'deadline') {
      return new ExtractionFailed('too_large', `Reading the ${label} took longer than ${duration(this.limits.deadlineMs)}, the limit`);
    }
    if (thread.ending === 'memory') {
      return new ExtractionFailed('too_large', `Reading the ${label} needs more than ${this.limits.memoryMb} MB of memory, the limit`);
    }
    if ((thread.error as NodeJS.ErrnoException | undefined)?.code === 'ERR_WORKER_OUT_OF_MEMORY') {
      const failed = new ExtractionFailed('too_large', `Reading the ${label} needs more than ${this.limits.heapMb} MB of memory, the limit`);
      return Object.assign(failed, { cause: thread.error });
    }
    if (thread.ending === 'closed') return new Error('The extraction threads were closed');
    return new Error('The extraction thread stopped', { cause: thread.error });
  }

  /** Ends the running threads when the process has grown past their budget since they started. */
  private checkMemory(): void {
    const running = [...this.threads].filter((thread) => thread.task !== undefined && thread.ending === undefined);
    if (running.length === 0) {
      clearInterval(this.watch);
      this.watch = undefined;
      return;
    }
    const resident = this.resident.now();
    // Unreadable (no /proc, as in some sandboxes): the heap limit and the deadline still bound the thread.
    if (resident === undefined) return;
    const growth = resident - Math.min(...running.map((thread) => thread.startRss));
    if (growth <= this.limits.memoryMb * MIB * running.length) return;
    for (const thread of running) {
      thread.endedWithOthers = running.length > 1;
      void this.end(thread, 'memory');
    }
  }
}
