// The steps a document goes through while a job works on it, written when they are worth seeing.
// Most documents are extracted and chunked in a few milliseconds: their steps (`extracting`,
// `chunking`) are written with the step that ends the work, in its transaction, each with its own
// time, so the event log and the row end up exactly as if each had been written when it began. A
// step still running after ANNOUNCE_AFTER_MS is written then, in a transaction of its own, so that
// whoever watches a large PDF sees `extracting` while it lasts; and before a failure is recorded,
// the steps are written, so that the failure names the step that failed.
import type { UnitOfWork } from '../../../repositories.js';
import type { DocumentChange } from '../documents.repo.js';
import { recordSteps, type StepChange } from './document-steps.js';

/** How long a step may run before it is written on its own. */
export const ANNOUNCE_AFTER_MS = 200;

export class StepProgress {
  private pending: StepChange[] = [];
  private pendingFields: DocumentChange = {};
  private timer: NodeJS.Timeout | undefined;
  /** The write started by the timer, if any: the next write waits for it, so events keep their order. */
  private writing: Promise<void> = Promise.resolve();
  /** A write found the document deleted. */
  gone = false;

  constructor(
    private readonly store: UnitOfWork,
    private readonly announceAfterMs = ANNOUNCE_AFTER_MS,
  ) {}

  /** The document entered a step (with fields the step has already produced); written later. */
  enter(change: StepChange, fields: DocumentChange = {}): void {
    this.pending.push(change);
    Object.assign(this.pendingFields, fields);
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      // A failed write leaves its steps pending: the next write carries them.
      this.writing = this.writing.then(() => this.writePending()).catch(() => undefined);
    }, this.announceAfterMs);
  }

  /** Writes the pending steps now, in a transaction of their own (before a failure is recorded). */
  async flush(): Promise<void> {
    await this.settled();
    await this.writePending();
  }

  /** Waits for a write the timer started, and stops the timer: the caller writes what is pending. */
  async settled(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.writing;
  }

  /** The pending changes followed by `last`, for the caller's transaction; `fields` adds the pending fields. */
  through(last: StepChange): StepChange[] {
    return [...this.pending, last];
  }

  get fields(): DocumentChange {
    return this.pendingFields;
  }

  /** The caller's transaction that wrote the pending steps has committed. */
  written(): void {
    this.pending = [];
    this.pendingFields = {};
  }

  private async writePending(): Promise<void> {
    if (this.pending.length === 0 || this.gone) return;
    const changes = this.pending;
    const fields = this.pendingFields;
    this.written();
    try {
      if (!(await this.store.transaction((repos) => recordSteps(repos, changes, fields)))) this.gone = true;
    } catch (error) {
      this.pending = [...changes, ...this.pending];
      this.pendingFields = { ...fields, ...this.pendingFields };
      throw error;
    }
  }
}
