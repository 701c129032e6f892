// Fixtures for evaluations: datasets with queries, and waiting for an evaluation to reach a state
// through the runner's progress events (subscribed before the row is read, so none is missed).
import type { App } from '../../src/app.js';
import type { ProgressUpdate } from '../../src/modules/evaluations/evaluation-progress.js';
import type { TestUser } from './factories.js';

let sequence = 0;

export interface QueryFixture {
  question: string;
  expected_answer?: string | null;
  expected_sources?: (number | string)[];
  tags?: string[];
}

export async function createDataset(user: TestUser, queries: QueryFixture[] = [], overrides: Record<string, unknown> = {}) {
  const reply = await user.api.post('/api/v2/datasets', { name: `Dataset ${++sequence}`, ...overrides });
  if (reply.status !== 201) throw new Error(`createDataset: ${reply.status} ${reply.text}`);
  const dataset = reply.body.data as { id: number; name: string };
  if (queries.length > 0) {
    const added = await user.api.post(`/api/v2/datasets/${dataset.id}/queries`, { queries });
    if (added.status !== 201) throw new Error(`addQueries: ${added.status} ${added.text}`);
  }
  return dataset;
}

/** The built-in metric of a kind. */
export async function builtinMetric(user: TestUser, kind: string): Promise<number> {
  const reply = await user.api.get(`/api/v2/metrics?builtin=true&kind=${kind}`);
  if (reply.status !== 200 || reply.body.data.items.length !== 1) throw new Error(`builtinMetric ${kind}: ${reply.status} ${reply.text}`);
  return reply.body.data.items[0].id as number;
}

const ENDED = new Set(['completed', 'cancelled', 'budget_exhausted', 'failed']);

/** Resolves with the evaluation once `done` holds of it (by default: it has ended). */
export async function waitForEvaluation(
  app: App,
  user: TestUser,
  evaluationId: number,
  done: (evaluation: { status: string; progress: { answered: number; total: number } }) => boolean = (evaluation) => ENDED.has(evaluation.status),
) {
  const read = async () => {
    const reply = await user.api.get(`/api/v2/evaluations/${evaluationId}`);
    if (reply.status !== 200) throw new Error(`waitForEvaluation: ${reply.status} ${reply.text}`);
    return reply.body.data;
  };
  for (;;) {
    // Listening before reading: an update between the read and the wait is not missed.
    let stop!: () => void;
    const told = new Promise<ProgressUpdate>((resolve) => {
      stop = app.services.evaluationProgress.listen((update) => {
        if (update.evaluation_id === evaluationId && done({ status: update.status, progress: { answered: update.answered, total: update.total } })) resolve(update);
      });
    });
    const evaluation = await read();
    if (done(evaluation)) {
      stop();
      return evaluation;
    }
    await told;
    stop();
  }
}
