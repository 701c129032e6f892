// Writes a transaction's repositories keep for its end, run just before it commits. A write that
// takes a lock held until the commit (a corpus's events, which commit in the order of their ids) then
// holds it for the last statement only, not for the rest of the transaction; and what several pieces
// of one transaction append goes in one statement.

export class AtCommit {
  private readonly writes = new Map<string, () => Promise<void>>();
  private readonly afterwards: (() => void)[] = [];

  /** Registers the write under its name; registered again before it ran, it runs once. */
  once(name: string, write: () => Promise<void>): void {
    if (!this.writes.has(name)) this.writes.set(name, write);
  }

  /** Runs the writes in the order they were first registered (one registered meanwhile runs too). */
  async run(): Promise<void> {
    for (const [name, write] of this.writes) {
      this.writes.delete(name);
      await write();
    }
  }

  /** Runs the action once the transaction has committed; not at all when it rolls back. */
  afterCommit(action: () => void): void {
    this.afterwards.push(action);
  }

  /** The transaction has committed: runs what waited for it. */
  committed(): void {
    for (const action of this.afterwards.splice(0)) action();
  }
}
