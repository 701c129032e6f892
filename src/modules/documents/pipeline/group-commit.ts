// Documents that finish preparing while another's chunks are being stored are stored together, in
// the next transaction (UnitOfWork.transactionInParts: when one fails, each is stored again alone).
// Most of what storing costs is paid once a transaction whatever it holds: SQLite writes every page
// it changed (the full text index flushes a segment and merges) and PostgreSQL flushes its log at
// each commit. A document that arrives while nothing is being stored waits only for the event
// loop's current turn to end, so that those whose extraction threads answered in the same turn join
// it: on SQLite a transaction runs to its end without yielding to the event loop, so nothing else
// could queue behind it. On PostgreSQL two transactions run at once (AT_ONCE).
import type { Repositories, UnitOfWork } from '../../../repositories.js';

/** Pieces of work in one transaction at most, so that none holds the database for long. */
const MOST_PER_TRANSACTION = 16;
/**
 * Transactions at once where the database takes several writers (PostgreSQL): while one waits for a
 * statement, the other's goes (docs/performance.md, "two storing transactions at once").
 */
const AT_ONCE = 2;

interface Waiting {
  work: (repos: Repositories) => Promise<void>;
  order: number;
  resolve(): void;
  reject(error: unknown): void;
}

export class GroupCommit {
  private readonly waiting: Waiting[] = [];
  private storing = 0;
  private readonly atOnce: number;

  constructor(
    private readonly store: UnitOfWork,
    private readonly most = MOST_PER_TRANSACTION,
    atOnce = AT_ONCE,
  ) {
    this.atOnce = store.oneWriterAtATime ? 1 : atOnce;
  }

  /**
   * Runs the work in a transaction, perhaps with others' work: it commits with them, or is undone
   * alone when it throws (its error is thrown here); when the transaction fails, all of it does.
   * The pieces of a transaction run in the order of `order` (a corpus's id: transactions then take
   * the corpora's locks in one order, and none waits for another in a cycle).
   */
  run(work: (repos: Repositories) => Promise<void>, order = 0): Promise<void> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ work, order, resolve, reject });
      if (this.storing < this.atOnce) {
        this.storing++;
        setImmediate(() => void this.storeWaiting());
      }
    });
  }

  private async storeWaiting(): Promise<void> {
    while (this.waiting.length > 0) {
      const group = this.waiting.splice(0, this.most).sort((a, b) => a.order - b.order);
      try {
        const settled = await this.store.transactionInParts(group.map((waiting) => waiting.work));
        settled.forEach((outcome, index) => (outcome.status === 'fulfilled' ? group[index]!.resolve() : group[index]!.reject(outcome.reason)));
      } catch (error) {
        for (const waiting of group) waiting.reject(error);
      }
    }
    this.storing--;
  }
}
