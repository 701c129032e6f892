// Writes a run's answered queries: each query's result, its scores, the usage events of its model
// calls and what it cost. The queries answered while a write is under way are written together in
// the next transaction (one multi-row insert of their scores, one update of what was spent), so
// that `concurrency` queries finishing at once cost one transaction, not one each. Every query's
// caller still waits for its own write: a query is answered once its row is committed, and a
// server that stops leaves the others pending for the next run.
import { recordUsage } from '../analytics/usage-events.js';
import type { UnitOfWork } from '../../repositories.js';
import type { RunState } from './evaluations.repo.js';
import type { PendingQuery, QueryOutcome } from './query-evaluation.js';

interface Waiting {
  query: PendingQuery;
  outcome: QueryOutcome;
  /** Whether the result was written (false: it was written already, or is gone). */
  settle: (saved: boolean) => void;
  fail: (error: unknown) => void;
}

export class EvaluationWriter {
  private waiting: Waiting[] = [];
  private writing = false;

  /**
   * @param onState told the evaluation's state after each write (undefined: the evaluation is
   * gone), read in the statement that adds what the write spent.
   */
  constructor(
    private readonly store: UnitOfWork,
    private readonly evaluationId: number,
    private readonly onState: (state: RunState | undefined) => void,
  ) {}

  /** Resolves once the query's outcome is committed: true, or false when it had been written already. */
  save(query: PendingQuery, outcome: QueryOutcome): Promise<boolean> {
    return new Promise((settle, fail) => {
      this.waiting.push({ query, outcome, settle, fail });
      if (!this.writing) void this.writeWaiting();
    });
  }

  /** Writes what waits, batch after batch, until nothing does. */
  private async writeWaiting(): Promise<void> {
    this.writing = true;
    try {
      while (this.waiting.length > 0) {
        const batch = this.waiting;
        this.waiting = [];
        try {
          const saved = await this.write(batch);
          batch.forEach((entry, index) => entry.settle(saved[index]!));
        } catch (error) {
          for (const entry of batch) entry.fail(error);
        }
      }
    } finally {
      this.writing = false;
    }
  }

  private write(batch: Waiting[]): Promise<boolean[]> {
    return this.store.transaction(async (repos) => {
      const saved: boolean[] = [];
      let spent = 0;
      const scores = [];
      for (const { query, outcome } of batch) {
        const written = await repos.evaluationResults.saveAnswered(this.evaluationId, query.id, outcome.result);
        saved.push(written);
        if (!written) continue;
        spent += outcome.spentNanoUsd;
        for (const score of outcome.scores) scores.push({ ...score, result_id: query.id, evaluation_id: this.evaluationId });
        for (const event of outcome.usage) await recordUsage(repos, event);
      }
      await repos.evaluationResults.insertScores(scores);
      this.onState(await repos.evaluations.addSpent(this.evaluationId, spent));
      return saved;
    });
  }
}
