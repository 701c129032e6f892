// The writer of a run's answered queries: the outcomes that arrive while a write is under way are
// written together in the next transaction (their scores in one insert, what they spent added
// once), each caller told whether its own result was written, and the state the write read passed on.
import { describe, expect, it } from 'vitest';
import { EvaluationWriter } from '../src/modules/evaluations/evaluation-writer.js';
import type { QueryOutcome } from '../src/modules/evaluations/query-evaluation.js';
import type { RunState } from '../src/modules/evaluations/evaluations.repo.js';
import type { UnitOfWork } from '../src/repositories.js';

interface Transaction {
  saved: number[];
  scoreRows: number;
  spent: number[];
  usage: number;
}

/** A store whose transactions record what they wrote; the first waits for `release` before it runs. */
function fakeStore(alreadyWritten: Set<number>, state: RunState | undefined) {
  const transactions: Transaction[] = [];
  let release!: () => void;
  const firstHeld = new Promise<void>((resolve) => (release = resolve));
  const store = {
    async transaction(work: (repos: unknown) => Promise<unknown>) {
      const index = transactions.length;
      const record: Transaction = { saved: [], scoreRows: 0, spent: [], usage: 0 };
      transactions.push(record);
      if (index === 0) await firstHeld;
      return work({
        evaluationResults: {
          saveAnswered: async (_evaluationId: number, resultId: number) => {
            if (alreadyWritten.has(resultId)) return false;
            record.saved.push(resultId);
            return true;
          },
          insertScores: async (rows: unknown[]) => void (record.scoreRows += rows.length),
        },
        evaluations: { addSpent: async (_evaluationId: number, nano: number) => (record.spent.push(nano), state) },
        usageEvents: { insert: async () => void record.usage++, agentOwner: async () => undefined },
      });
    },
  } as unknown as UnitOfWork;
  return { store, transactions, release };
}

const outcome = (spentNanoUsd: number): QueryOutcome => ({
  result: { status: 'completed', answer: 'An answer' },
  scores: [
    { metric_id: 1, status: 'ok', score: 1, passed: 1, reason: null },
    { metric_id: 2, status: 'ok', score: 0.5, passed: null, reason: null },
  ],
  usage: [{ kind: 'judge', organization_id: 1, agent_id: 1, project_id: null, team_id: null, model: 'judge', prompt_tokens: 10, completion_tokens: 2, tokens_estimated: false, cost: 1e-6, occurred_on: '2026-11-24T00:00:00.000Z' }],
  spentNanoUsd,
});

const query = (id: number) => ({ id, question: `Question ${id}`, expected_answer: null, expected_sources: '[]' });

describe('evaluation writer', () => {
  it('writes the outcomes that wait during a write together in the next transaction', async () => {
    const { store, transactions, release } = fakeStore(new Set(), { status: 'running', spent_nano_usd: 7 });
    const states: (RunState | undefined)[] = [];
    const writer = new EvaluationWriter(store, 9, (state) => states.push(state));
    const first = writer.save(query(1), outcome(100));
    // While the first write is held, three more arrive: one transaction for the three of them.
    const rest = [writer.save(query(2), outcome(10)), writer.save(query(3), outcome(20)), writer.save(query(4), outcome(0))];
    release();
    expect(await Promise.all([first, ...rest])).toEqual([true, true, true, true]);
    expect(transactions).toEqual([
      { saved: [1], scoreRows: 2, spent: [100], usage: 1 },
      { saved: [2, 3, 4], scoreRows: 6, spent: [30], usage: 3 },
    ]);
    expect(states).toEqual([
      { status: 'running', spent_nano_usd: 7 },
      { status: 'running', spent_nano_usd: 7 },
    ]);
  });

  it('tells a caller whose result was written already, and counts neither its scores nor its cost', async () => {
    const { store, transactions, release } = fakeStore(new Set([2]), undefined);
    const states: (RunState | undefined)[] = [];
    const writer = new EvaluationWriter(store, 9, (state) => states.push(state));
    release();
    expect(await Promise.all([writer.save(query(1), outcome(5)), writer.save(query(2), outcome(50))])).toEqual([true, false]);
    const written = transactions.flatMap((transaction) => transaction.saved);
    expect(written).toEqual([1]);
    expect(transactions.reduce((sum, transaction) => sum + transaction.scoreRows, 0)).toBe(2);
    expect(transactions.flatMap((transaction) => transaction.spent).reduce((sum, nano) => sum + nano, 0)).toBe(5);
    // The evaluation is gone: the runner is told so (undefined) after each write.
    expect(states.every((state) => state === undefined)).toBe(true);
  });

  it('fails every caller of a write that fails, and goes on with the next', async () => {
    let calls = 0;
    const store = {
      async transaction(work: (repos: unknown) => Promise<unknown>) {
        if (calls++ === 0) throw new Error('database is locked');
        return work({
          evaluationResults: { saveAnswered: async () => true, insertScores: async () => undefined },
          evaluations: { addSpent: async () => ({ status: 'running', spent_nano_usd: 0 }) },
          usageEvents: { insert: async () => undefined, agentOwner: async () => undefined },
        });
      },
    } as unknown as UnitOfWork;
    const writer = new EvaluationWriter(store, 9, () => undefined);
    await expect(writer.save(query(1), outcome(1))).rejects.toThrow('database is locked');
    expect(await writer.save(query(2), outcome(1))).toBe(true);
  });
});
