// A server stopped in the middle of an evaluation: the queries answered stay answered, the one in
// flight is stopped and left pending, the job is put back, and a server started on the same
// database goes on from there to the end — each query answered and counted once. No sleeps: the
// test waits for the runner's progress events and for the model call it holds.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { restartTestApp, startTestApp, type TestApp } from './support/app.js';
import { agentWith, createModelConfiguration } from './support/ask.js';
import { databaseKinds } from './support/databases.js';
import { builtinMetric, createDataset, waitForEvaluation } from './support/evaluations.js';
import { startFakeOpenAi, type FakeLlmServer, type Stall } from './support/fake-openai.js';
import { createOrganization, createUser, type TestUser } from './support/factories.js';
import { client } from './support/http.js';

const QUERIES = 6;

describe.each(databaseKinds)('an evaluation across a restart (%s)', (kind) => {
  let t: TestApp;
  let fake: FakeLlmServer;
  let owner: TestUser;

  beforeAll(async () => {
    fake = await startFakeOpenAi();
    fake.answer = 'Twenty-five days.';
    t = await startTestApp(kind, { EGRESS_ALLOWED_HOSTS: fake.host });
    owner = await createUser(t.app, { organizationId: await createOrganization(t.app), role: 'owner' });
  });
  afterAll(async () => {
    await t?.close();
    await fake?.close();
  });

  it('resumes after the server stops mid-run, answering each query once', async () => {
    const configuration = await createModelConfiguration(owner, fake, { input_price_per_million: 1, output_price_per_million: 1 });
    const agent = await agentWith(owner, [], { llm_configuration_id: configuration.id });
    const dataset = await createDataset(
      owner,
      Array.from({ length: QUERIES }, (_, index) => ({ question: `Question ${index + 1}?`, expected_answer: 'twenty-five days' })),
    );
    const metric = await builtinMetric(owner, 'contains');

    // Hold the third answer: registered from the progress event of the second, before the third is asked.
    let stall: Stall | undefined;
    const held = new Promise<Stall>((resolve) => {
      const stop = t.app.services.evaluationProgress.listen((update) => {
        if (update.answered === 2 && stall === undefined) {
          stall = fake.stallNext();
          stop();
          resolve(stall);
        }
      });
    });
    const created = await owner.api.post('/api/v2/evaluations', { agent_id: agent.id, dataset_id: dataset.id, metric_ids: [metric], concurrency: 1 });
    expect(created.status, created.text).toBe(201);
    const evaluationId = created.body.data.id as number;
    const third = await held;
    await third.arrived;

    // The server stops while the third answer is in flight: the answer is stopped, the job put back.
    t = await restartTestApp(t, { EGRESS_ALLOWED_HOSTS: fake.host });
    await third.disconnected;
    const api = client(t.app, owner.token);
    const resumed = { ...owner, api };
    const done = await waitForEvaluation(t.app, resumed, evaluationId);
    expect(done).toMatchObject({ status: 'completed', progress: { total: QUERIES, answered: QUERIES, completed: QUERIES, pending: 0 } });
    expect(done.summary[0]).toMatchObject({ n: QUERIES, mean: 1, errors: 0 });

    const results = (await api.get(`/api/v2/evaluations/${evaluationId}/query-results`)).body.data.items;
    expect(results.map((result: { position: number }) => result.position)).toEqual([1, 2, 3, 4, 5, 6]);
    const db = t.app.database.db;
    const scores = await db.selectFrom('evaluation_scores').select('result_id').where('evaluation_id', '=', evaluationId).execute();
    expect(scores).toHaveLength(QUERIES);
    // One usage event an answer written, the stopped one not counted; the cost agrees with them.
    const usage = await db.selectFrom('usage_events').select(['kind', 'cost_nano_usd']).where('evaluation_id', '=', evaluationId).execute();
    expect(usage).toHaveLength(QUERIES);
    expect(done.cost_usd).toBeCloseTo((QUERIES * 18) / 1e6, 10);
    // The job ended done; its attempt at the stop was not counted against it.
    const job = await db.selectFrom('jobs').select(['status', 'attempts']).where('evaluation_id', '=', evaluationId).executeTakeFirstOrThrow();
    expect(job).toEqual({ status: 'done', attempts: 1 });
  });
});
