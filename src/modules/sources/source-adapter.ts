// What the sources engine (source-sync.ts) asks of a kind of source: where its state is kept, how
// its sync starts, how it brings the corpus to match the source, and what it writes when it ends.
// The engine owns what every source shares: the sync's state and counters, its schedule, how a
// provider's refusal ends it, and the job around it.
import type { ConnectorSyncStatus } from '../../db/schema.js';
import type { GraphErrorCode } from './graph/graph-errors.js';
import type { Job } from '../../jobs/job-types.js';
import type { Repositories } from '../../repositories.js';
import type { SyncSubject } from './sync-jobs.repo.js';

/** The job kinds that sync a source. */
export type SourceSyncKind = 'connector.sync' | 'mailbox.sync';

/** The columns every source's row has for its sync. */
export interface SourceState {
  id: number;
  organization_id: number;
  corpus_id: number;
  created_by: number;
  sync_number: number;
  sync_status: ConnectorSyncStatus;
  schedule_minutes: number | null;
}

/** What the engine writes of a sync on every source's row. */
export interface SyncStateChange {
  sync_status?: ConnectorSyncStatus;
  sync_number?: number;
  sync_started_on?: string | null;
  sync_finished_on?: string | null;
  sync_added?: number;
  sync_removed?: number;
  sync_failed?: number;
  sync_error_code?: string | null;
  sync_error?: string | null;
  next_sync_on?: string | null;
}

/** A source's table, as the engine reads and writes it. */
export interface SourceTable<Row extends SourceState, Change> {
  find(organizationId: number, sourceId: number): Promise<Row | undefined>;
  update(organizationId: number, sourceId: number, fields: Change): Promise<void>;
}

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

export interface SourceAdapter<K extends SourceSyncKind, Row extends SourceState, Change extends SyncStateChange> {
  /** The source a job syncs. */
  sourceOf(payload: Job<K>['payload']): { organizationId: number; sourceId: number };
  subject(sourceId: number): SyncSubject;
  table(repos: Repositories): SourceTable<Row, Change>;
  /** Whether the sync found running on the row is this job's, stopped midway: it goes on as it was. */
  resumes(source: Row, jobId: number): boolean;
  /** Starts the job's sync with the engine's fields and the source's own; false when another job's sync runs. */
  start(repos: Repositories, source: Row, jobId: number, fields: SyncStateChange): Promise<boolean>;
  /** Brings the corpus to match the source; answers the source's fields of a sync that succeeded (where the next one starts). */
  sync(source: Row, context: SyncContext): Promise<Change>;
  /** The provider's refusal that `error` is, or undefined when it is none (a fault of ours). */
  refusalOf(error: unknown): SourceRefusal | undefined;
  /** The source's own fields of a sync that ended, and of one that failed. */
  ended(outcome: { refusal?: SourceRefusal }): Change;
  /** Writes the end of the sync; false when the source changed under it (the engine then queues a sync of the new state). */
  writeEnd(repos: Repositories, source: Row, fields: Change): Promise<boolean>;
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
