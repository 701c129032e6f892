// What the sources engine (source-sync.ts) asks of a kind of source: which table keeps it, where its
// sync starts, how it brings the corpus to match the source, and what it writes when it ends. The
// engine owns what every source shares: the sync columns (the same on every source's table, written
// through SourceSyncRepo), the counters, the schedule, how a provider's refusal ends a sync, and the
// job around it.
import type { GraphErrorCode } from './graph/graph-errors.js';
import type { Job } from '../../jobs/job-types.js';
import type { Repositories } from '../../repositories.js';
import type { SourceSyncChange, SourceSyncState, SourceTableName } from './source-sync.repo.js';
import type { SyncSubject } from './sync-jobs.repo.js';

/** The job kinds that sync a source. */
export type SourceSyncKind = 'connector.sync' | 'mailbox.sync';

/** The provider refused the sync (its code is what the source's state shows); `revoked`: authorize again. */
export interface SourceRefusal {
  code: GraphErrorCode;
  message: string;
  revoked?: boolean;
}

/** What a sync is given: the signal that stops it, and the wait for a provider's Retry-After. */
export interface SyncContext {
  stopping: AbortSignal;
  wait(ms: number, signal?: AbortSignal): Promise<void>;
}

export interface SourceAdapter<K extends SourceSyncKind, Row extends SourceSyncState> {
  /** The source a job syncs. */
  sourceOf(payload: Job<K>['payload']): { organizationId: number; sourceId: number };
  subject(sourceId: number): SyncSubject;
  /** The table that keeps the kind's sources: the engine writes their sync columns there (SourceSyncColumns). */
  readonly table: SourceTableName;
  /** The source's row, with what its sync reads beside the sync columns. */
  find(repos: Repositories, organizationId: number, sourceId: number): Promise<Row | undefined>;
  /** The source's own part of a sync that starts (where it reads from), beside the engine's counters at zero. */
  started(source: Row): SourceSyncChange;
  /** Brings the corpus to match the source; answers the source's fields of a sync that succeeded (where the next one starts). */
  sync(source: Row, context: SyncContext): Promise<SourceSyncChange>;
  /** The provider's refusal that `error` is, or undefined when it is none (a fault of ours). */
  refusalOf(error: unknown): SourceRefusal | undefined;
  /** The source's own part of a sync that ended, however it ended. */
  ended(): SourceSyncChange;
  /**
   * Writes the end of the sync (and what the refusal, if any, means to the source beside it); false
   * when the source changed under it (the engine then queues a sync of the new state).
   */
  writeEnd(repos: Repositories, source: Row, fields: SourceSyncChange, refusal: SourceRefusal | undefined): Promise<boolean>;
}

/** Item failures that end the sync rather than the item: the whole source is refused or out of reach. */
const FATAL_CODES: ReadonlySet<GraphErrorCode> = new Set(['auth', 'throttled', 'upstream', 'unreachable']);

export const endsTheSync = (code: GraphErrorCode) => FATAL_CODES.has(code);

/** A change to the source came while its sync ran (a re-authorization): it stops without writing over the new state. */
export class SyncSuperseded extends Error {
  constructor() {
    super('The source changed while this sync ran');
  }
}
