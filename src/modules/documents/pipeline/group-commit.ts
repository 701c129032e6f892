// Documents that finish preparing while another's chunks are being stored are stored together, in
// the next transaction (UnitOfWork.transactionInParts: when one fails, each is stored again alone).
// Most of what storing costs is paid once a transaction whatever it holds: SQLite writes every page
// it changed (the full text index flushes a segment and merges) and PostgreSQL flushes its log at
// each commit. A document that arrives while nothing is being stored waits only for the event
// loop's current turn to end, so that those whose extraction threads answered in the same turn join
// it: on SQLite a transaction runs to its end without yielding to the event loop, so nothing else
// could queue behind it.
import type { Repositories, UnitOfWork } from '../../../repositories.js';

/** Pieces of work in one transaction at most, so that none holds the database for long. */
const MOST_PER_TRANSACTION = 16;

interface Waiting {
  work: (repos: Repositories) => Promise<void>;
  resolve(): void;
  reject(error: unknown): void;
}

export class GroupCommit {
  private readonly waiting: Waiting[] = [];
  private storing = false;

  constructor(
    private readonly store: UnitOfWork,
    private readonly most = MOST_PER_TRANSACTION,
  ) {}

  /**
   * Runs the work in a transaction, perhaps with others' work: it commits with them, or is undone
   * alone when it throws (its error is thrown here); when the transaction fails, all of it does.
   */
  run(work: (repos: Repositories) => Promise<void>): Promise<void> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ work, resolve, reject });
      if (!this.storing) {
        this.storing = true;
        setImmediate(() => void this.storeWaiting());
      }
    });
  }

  private async storeWaiting(): Promise<void> {
    while (this.waiting.length > 0) {
      const group = this.waiting.splice(0, this.most);
      try {
        const settled = await this.store.transactionInParts(group.map((waiting) => waiting.work));
        settled.forEach((outcome, index) => (outcome.status === 'fulfilled' ? group[index]!.resolve() : group[index]!.reject(outcome.reason)));
      } catch (error) {
        for (const waiting of group) waiting.reject(error);
      }
    }
    this.storing = false;
  }
}
