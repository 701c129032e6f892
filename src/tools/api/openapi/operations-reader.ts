// The operations of an OpenAPI document read for an import off the event loop: the document is
// fetched here (through the egress client), then parsed, dereferenced and made into tool settings in
// a thread (operations-thread.ts), which hands the results back a few at a time, so that no step on
// the event loop grows with the document. The thread is bounded: a V8 heap limit (a document that
// takes more memory fails with the reason) and a deadline for every answer it owes; a stop of the
// caller (the job's worker stopping) ends it. A thread reads one document at a time; one whose
// reading ended cleanly waits a while for the next (starting one and loading the parser into it
// costs more than reading a small document), then ends. A preview (previewDocument) lists a
// document's operations in such a thread too, within the same bounds, and at most
// PREVIEWS_AT_ONCE at a time: previews are asked for by requests, which nothing else bounds.
import type { Worker } from 'node:worker_threads';
import { AppError, PayloadTooLarge } from '../../../errors.js';
import type { EgressClient } from '../../../net/egress.js';
import { startScriptThread } from '../../../threads/script-thread.js';
import { trustSchemaCheckedElsewhere } from '../../json-schema.js';
import { fetchDocument, requireOneSource, type DocumentLimits, type DocumentSource } from './document.js';
import type { OperationResult } from './import-plan.js';
import type { ImportOptions } from './operations.js';
import type { DocumentSummary, ErrorOnWire, ReadRequest, ResultOnWire, ThreadReply, ThreadRequest } from './operations-thread.js';

const THREAD_SCRIPT = new URL('./operations-thread.js', import.meta.url);
/** Results asked of the thread at a time: each message crosses to the event loop in well under a millisecond. */
const RESULTS_PER_MESSAGE = 16;
const MIB = 1024 * 1024;
/** How long a thread whose reading ended waits for another before it ends. */
const IDLE_MS = 15_000;
/** Previews read at once; the others wait their turn (each thread may take threadHeapMb of the byte limit). */
const PREVIEWS_AT_ONCE = 2;

/**
 * The heap a thread may use for a document of at most `bytes`: a parsed and dereferenced document
 * takes some 8 times its text (GitHub's 13 MB about 100 MB), and the parser's own modules some 30 MB.
 */
export function threadHeapMb(bytes: number): number {
  return Math.min(4096, Math.max(256, Math.ceil((bytes / MIB) * 32)));
}

export interface ReadOptions {
  limits: DocumentLimits;
  /** Deadline of the document's fetch. */
  fetchTimeoutMs: number;
  /** The operations chosen (operationId or `METHOD /path`); all, up to `maxTools`, when undefined. */
  chosen: string[] | undefined;
  maxTools: number;
  importOptions: Omit<ImportOptions, 'sourceUrl'>;
  /** Results already recorded by an earlier run, not read again. */
  skip?: number;
  /** Ends the reading (and its thread); what it waits for rejects with the signal's reason. */
  signal?: AbortSignal;
  /** V8 heap of the thread, in MiB (threadHeapMb of the byte limit unless given). */
  heapMb?: number;
  /** Longest wait for one answer of the thread (the document parsed, or a batch of results). */
  deadlineMs?: number;
}

/** A document being read: its operations' count, then their results in the document's order. */
export interface OperationsReading {
  /** Operations chosen, results skipped included. */
  total: number;
  /** Where relative server URLs are read from. */
  sourceUrl: string | undefined;
  /** The next results; empty once every one was given. Rejects with an AppError (4xx) when the thread ran out of memory or time. */
  next(): Promise<OperationResult[]>;
  /** Ends the thread (at once, whatever it was doing). */
  close(): Promise<void>;
}

const appError = ({ status, code, message, details }: ErrorOnWire) => new AppError(status, code, message, details);

function fromWire({ refusal, parametersChecked, ...result }: ResultOnWire): OperationResult {
  if (parametersChecked) trustSchemaCheckedElsewhere(JSON.stringify(result.imported!.config.parameters));
  return refusal === undefined ? result : { ...result, refusal: appError(refusal) };
}

const duration = (ms: number) => (ms < 1000 ? `${ms} ms` : `${ms / 1000} s`);

/** Threads waiting for a reading, by heap limit. */
const idleThreads = new Map<number, ReadingThread[]>();

/** One thread, the reading it serves and the answer awaited of it. */
class ReadingThread {
  private waiting: { resolve(reply: ThreadReply): void; reject(error: Error): void; timer: NodeJS.Timeout } | undefined;
  private ending: 'deadline' | 'aborted' | 'closed' | 'idle' | undefined;
  private error: Error | undefined;
  private exited = false;
  private deadlineMs = 0;
  private signal: AbortSignal | undefined;
  private idleTimer: NodeJS.Timeout | undefined;
  /** Serving a reading (taken, not yet released). */
  private taken = false;
  private readonly onAbort = () => void this.end('aborted');

  constructor(
    private readonly worker: Worker,
    private readonly heapMb: number,
  ) {
    worker.on('message', (reply: ThreadReply) => this.settle((waiting) => waiting.resolve(reply)));
    worker.on('error', (error) => (this.error = error));
    worker.on('exit', () => {
      this.exited = true;
      clearTimeout(this.idleTimer);
      this.signal?.removeEventListener('abort', this.onAbort);
      const idle = idleThreads.get(this.heapMb) ?? [];
      if (idle.includes(this)) idle.splice(idle.indexOf(this), 1);
      this.settle((waiting) => waiting.reject(this.failure()));
    });
  }

  /** An idle thread of that heap limit, else a new one. */
  static take(heapMb: number, deadlineMs: number, signal: AbortSignal | undefined): ReadingThread {
    const thread = idleThreads.get(heapMb)?.pop() ?? new ReadingThread(startScriptThread(THREAD_SCRIPT, { maxOldGenerationSizeMb: heapMb }), heapMb);
    clearTimeout(thread.idleTimer);
    thread.taken = true;
    thread.worker.ref();
    thread.deadlineMs = deadlineMs;
    thread.signal = signal;
    signal?.addEventListener('abort', thread.onAbort, { once: true });
    if (signal?.aborted) void thread.end('aborted');
    return thread;
  }

  ask(message: ThreadRequest, transfer: ArrayBuffer[] = []): Promise<ThreadReply> {
    if (this.exited) return Promise.reject(this.failure());
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => void this.end('deadline'), this.deadlineMs);
      this.waiting = { resolve, reject, timer };
      this.worker.postMessage(message, transfer);
    });
  }

  /** Ends the reading: the thread waits for another when it owes no answer, and ends otherwise. */
  async release(): Promise<void> {
    if (!this.taken) return;
    this.taken = false;
    this.signal?.removeEventListener('abort', this.onAbort);
    this.signal = undefined;
    if (this.exited || this.ending !== undefined) return;
    if (this.waiting !== undefined) return void (await this.end('closed'));
    this.worker.postMessage({ release: true } satisfies ThreadRequest);
    this.worker.unref(); // an idle thread does not keep the process alive
    this.idleTimer = setTimeout(() => void this.end('idle'), IDLE_MS).unref();
    idleThreads.set(this.heapMb, [...(idleThreads.get(this.heapMb) ?? []), this]);
  }

  private end(reason: NonNullable<ReadingThread['ending']>): Promise<number> {
    this.ending ??= reason;
    return this.worker.terminate();
  }

  private settle(with_: (waiting: NonNullable<ReadingThread['waiting']>) => void): void {
    const waiting = this.waiting;
    if (waiting === undefined) return;
    this.waiting = undefined;
    clearTimeout(waiting.timer);
    with_(waiting);
  }

  private failure(): Error {
    if (this.ending === 'deadline') return new PayloadTooLarge(`Reading the OpenAPI document took longer than ${duration(this.deadlineMs)}, the limit`);
    if (this.ending === 'aborted') return this.signal?.reason instanceof Error ? this.signal.reason : new Error('The reading of the OpenAPI document was stopped');
    if ((this.error as NodeJS.ErrnoException | undefined)?.code === 'ERR_WORKER_OUT_OF_MEMORY') {
      return Object.assign(new PayloadTooLarge(`Reading the OpenAPI document needs more than ${this.heapMb} MB of memory, the limit`), { cause: this.error });
    }
    if (this.ending !== undefined) return new Error('The reading of the OpenAPI document was closed');
    return new Error('The thread reading the OpenAPI document stopped', { cause: this.error });
  }
}

/** The reply's results, or what it says went wrong thrown. */
function unexpected(reply: ThreadReply): Error {
  if ('refused' in reply) return appError(reply.refused);
  if ('fault' in reply) return new Error(`Reading the OpenAPI document failed: ${reply.fault}`);
  return new Error(`Unexpected answer of the OpenAPI reading thread: ${Object.keys(reply).join(', ')}`);
}

/** The document as the thread takes it: fetched from its URL (here, on the event loop, waiting on the network) or as given. */
async function documentOnWire(source: DocumentSource, egress: EgressClient, options: Pick<ReadOptions, 'limits' | 'fetchTimeoutMs'>) {
  const given = source.url !== undefined ? await fetchDocument(egress, source.url, options.fetchTimeoutMs, options.limits.bytes) : source.document;
  if (given instanceof Uint8Array) {
    // One copy, handed over to the thread rather than copied again by postMessage (the fetched bytes stay the caller's).
    const bytes = new Uint8Array(given);
    return { text: bytes, transfer: [bytes.buffer], fetched: source.url !== undefined ? (given as Buffer) : undefined };
  }
  return { ...(typeof given === 'string' ? { text: given } : { document: given }), transfer: [] as ArrayBuffer[], fetched: undefined };
}

/** A thread for one reading, within the heap and deadline of the options. */
function takeThread(options: Pick<ReadOptions, 'limits' | 'signal' | 'heapMb' | 'deadlineMs'>): ReadingThread {
  const heapMb = options.heapMb ?? threadHeapMb(options.limits.bytes);
  const deadlineMs = options.deadlineMs ?? 2 * (options.limits.dereferenceTimeoutMs ?? 5_000) + 10_000;
  return ReadingThread.take(heapMb, deadlineMs, options.signal);
}

/** Previews being read, and those waiting for one of them to end. */
let previewsReading = 0;
const previewsWaiting: (() => void)[] = [];

async function previewTurn(): Promise<() => void> {
  if (previewsReading >= PREVIEWS_AT_ONCE) await new Promise<void>((resolve) => previewsWaiting.push(resolve));
  else previewsReading++;
  // The turn passes straight to the next waiting, if any: the count stays the same.
  return () => {
    const next = previewsWaiting.shift();
    if (next !== undefined) next();
    else previewsReading--;
  };
}

export type PreviewOptions = Pick<ReadOptions, 'limits' | 'fetchTimeoutMs' | 'signal' | 'heapMb' | 'deadlineMs'>;

/**
 * The operations of a document (a URL, its text, or the object a request body held), listed in a
 * thread with its $refs left as they are, and the bytes fetched when it came from a URL; rejects with
 * the reason (a 4xx AppError) when it is not an OpenAPI document within the bounds.
 */
export async function previewDocument(source: DocumentSource, egress: EgressClient, options: PreviewOptions): Promise<{ summary: DocumentSummary; fetched: Buffer | undefined }> {
  requireOneSource(source, '/body/openapi');
  const { transfer, fetched, ...document } = await documentOnWire(source, egress, options);
  const done = await previewTurn();
  const thread = takeThread(options);
  try {
    const reply = await thread.ask({ summarise: { ...document, limits: options.limits } }, transfer);
    if (!('summary' in reply)) throw unexpected(reply);
    return { summary: reply.summary, fetched };
  } finally {
    await thread.release();
    done();
  }
}

/**
 * Starts reading the document (a URL, its text as a string or UTF-8 bytes, or the object a request
 * body held): resolves once the thread parsed it and chose the operations, rejects with the reason
 * (a 4xx AppError) when it cannot be imported from.
 */
export async function readDocumentOperations(source: DocumentSource & { sourceUrl?: string | undefined }, egress: EgressClient, options: ReadOptions): Promise<OperationsReading> {
  requireOneSource(source, '/body/openapi');
  const sourceUrl = source.sourceUrl ?? source.url;
  const { transfer, fetched: _fetched, ...document } = await documentOnWire(source, egress, options);
  const request: ReadRequest = { ...document, limits: options.limits, chosen: options.chosen, maxTools: options.maxTools, options: { ...options.importOptions, sourceUrl }, skip: options.skip ?? 0 };
  const thread = takeThread(options);
  const close = () => thread.release();
  let reply: ThreadReply;
  try {
    reply = await thread.ask(request, transfer);
  } catch (error) {
    await close();
    throw error;
  }
  if (!('loaded' in reply)) {
    await close();
    throw unexpected(reply);
  }

  let done = false;
  let ahead: Promise<ThreadReply> | undefined;
  const askNext = () => thread.ask({ next: RESULTS_PER_MESSAGE });
  return {
    total: reply.loaded.total,
    sourceUrl,
    close,
    async next() {
      if (done) return [];
      const batch = await (ahead ?? askNext());
      if (!('results' in batch)) throw unexpected(batch);
      done = batch.done;
      // The thread makes the next results while the caller works on these.
      ahead = done ? undefined : askNext();
      ahead?.catch(() => undefined); // awaited by the next call, or dropped by close()
      return batch.results.map(fromWire);
    },
  };
}
