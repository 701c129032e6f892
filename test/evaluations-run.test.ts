// Evaluations run end to end on both databases, against fake OpenAI servers on loopback: one agent
// model that answers right, one that answers wrong (two checkpoints of one agent), and a judge. The
// answers come through the runtime (retrieval, citations, prices) without writing threads; scores,
// summaries, usage events and costs agree with what was called; a comparison names the regressions
// first; an agent or judge that fails on some queries leaves those results `error` and the run
// completes; a judge that answers nonsense is `undetermined`; cancel stops the answer in flight; a
// budget stops the run; and every route answers its errors (404 across organizations, 403 by role).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JUDGE_PROMPTS } from '../src/evaluation/judge-prompts.js';
import { startTestApp, type TestApp } from './support/app.js';
import { agentWith, corpusWith, createModelConfiguration } from './support/ask.js';
import { databaseKinds } from './support/databases.js';
import { builtinMetric, createDataset, waitForEvaluation } from './support/evaluations.js';
import { startFakeOpenAi, type FakeLlmServer } from './support/fake-openai.js';
import { createAgent, createOrganization, createUser, type TestUser } from './support/factories.js';

const RIGHT = 'Everyone has 25 days of paid leave a year [1].';
const WRONG = 'I do not know.';
const PRICES = { input_price_per_million: 1, output_price_per_million: 2 };
// The fakes count 11 prompt and 7 completion tokens a call: 11 * 1e-6 + 7 * 2e-6 USD.
const CALL_USD = 0.000025;

describe.each(databaseKinds)('evaluations run (%s)', (kind) => {
  let t: TestApp;
  let right: FakeLlmServer;
  let wrong: FakeLlmServer;
  let judge: FakeLlmServer;
  let owner: TestUser;
  let member: TestUser;
  let viewer: TestUser;
  let stranger: TestUser;
  let agentId: number;
  let rightCheckpoint: number;
  let wrongCheckpoint: number;
  let handbookId: number;
  let datasetId: number;
  let metricIds: { contains: number; hit: number; relevance: number; saysDays: number };

  beforeAll(async () => {
    [right, wrong, judge] = await Promise.all([startFakeOpenAi(), startFakeOpenAi(), startFakeOpenAi()]);
    right.answer = RIGHT;
    wrong.answer = WRONG;
    judge.answer = '{"score": 4, "reason": "Relevant"}';
    t = await startTestApp(kind, { EGRESS_ALLOWED_HOSTS: [right, wrong, judge].map((fake) => fake.host).join(','), LIMIT_LLM_TIMEOUT_MS: '20000' });
    const orgId = await createOrganization(t.app);
    owner = await createUser(t.app, { organizationId: orgId, role: 'owner' });
    member = await createUser(t.app, { organizationId: orgId, role: 'member' });
    viewer = await createUser(t.app, { organizationId: orgId, role: 'viewer' });
    stranger = await createUser(t.app, { organizationId: await createOrganization(t.app), role: 'owner' });

    const answersRight = await createModelConfiguration(owner, right, PRICES);
    const answersWrong = await createModelConfiguration(owner, wrong, PRICES);
    const judges = await createModelConfiguration(owner, judge, { ...PRICES, is_default: true });
    const corpus = await corpusWith(owner, ['# Leave\n\nEveryone has 25 days of paid leave a year.', '# Expenses\n\nKeep receipts of expenses for three months.']);
    handbookId = corpus.documentIds[0]!;
    agentId = (await agentWith(owner, [corpus.corpusId], { llm_configuration_id: answersRight.id })).id;
    rightCheckpoint = (await owner.api.get(`/api/v2/agents/${agentId}/history`)).body.data.items[0].history_id;
    expect((await owner.api.put(`/api/v2/agents/${agentId}`, { llm_configuration_id: answersWrong.id })).status).toBe(200);
    wrongCheckpoint = (await owner.api.get(`/api/v2/agents/${agentId}/history`)).body.data.items[0].history_id;
    expect(judges.id).toBeGreaterThan(0);

    datasetId = (
      await createDataset(owner, [
        { question: 'How many days of paid leave a year?', expected_answer: '25 days', expected_sources: [handbookId], tags: ['leave'] },
        { question: 'How long do we keep receipts of expenses?', expected_answer: 'three months', expected_sources: [corpus.documentIds[1]!] },
        { question: 'Tell me something about leave.' },
      ])
    ).id;
    const saysDays = await owner.api.post('/api/v2/metrics', { name: 'Says 25 days', kind: 'regex', parameters: { pattern: '\\b25 days\\b' }, threshold: 1 });
    metricIds = {
      contains: await builtinMetric(owner, 'contains'),
      hit: await builtinMetric(owner, 'hit_at_k'),
      relevance: await builtinMetric(owner, 'answer_relevance'),
      saysDays: saysDays.body.data.id,
    };
  });
  afterAll(async () => {
    await t?.close();
    await Promise.all([right, wrong, judge].map((fake) => fake?.close()));
  });

  const allMetrics = () => [metricIds.contains, metricIds.hit, metricIds.relevance, metricIds.saysDays];
  const start = async (user: TestUser, body: Record<string, unknown>) => {
    const reply = await user.api.post('/api/v2/evaluations', { agent_id: agentId, dataset_id: datasetId, metric_ids: allMetrics(), concurrency: 1, ...body });
    expect(reply.status, reply.text).toBe(201);
    return reply.body.data as { id: number; status: string; [key: string]: any };
  };
  const summaryOf = (evaluation: any, metricId: number) => evaluation.summary.find((metric: any) => metric.metric_id === metricId);
  const usageOf = (evaluationId: number) =>
    t.app.database.db.selectFrom('usage_events').select(['kind', 'cost_nano_usd', 'model', 'user_id', 'agent_id']).where('evaluation_id', '=', evaluationId).orderBy('id').execute();

  let rightEvaluation: number;
  let wrongEvaluation: number;

  it('answers each query with the checkpoint asked for, scores it, and sums it up', async () => {
    const responsesBefore = await t.app.database.db.selectFrom('agent_responses').select('id').where('agent_id', '=', agentId).execute();
    const judgeCallsBefore = judge.chatRequests().length;
    const created = await start(owner, { history_id: rightCheckpoint, name: 'Right checkpoint', tags: ['nightly', 'v1'] });
    expect(created).toMatchObject({ status: 'queued', history_id: rightCheckpoint, progress: { total: 3 }, tags: ['nightly', 'v1'], concurrency: 1 });
    expect(created.metrics.find((metric: any) => metric.id === metricIds.relevance).llm_configuration_id).not.toBeNull();
    rightEvaluation = created.id;

    const done = await waitForEvaluation(t.app, owner, created.id);
    expect(done).toMatchObject({ status: 'completed', error: null, progress: { total: 3, answered: 3, completed: 3, pending: 0, percent: 100 } });
    expect(done.started_on).not.toBeNull();
    expect(done.finished_on).not.toBeNull();
    // contains: 25 days (1), three months (0), no expected answer (undetermined)
    expect(summaryOf(done, metricIds.contains)).toMatchObject({ n: 2, mean: 0.5, passed: 1, pass_rate: 0.5, undetermined: 1, errors: 0 });
    expect(summaryOf(done, metricIds.contains).ci_low).toBeCloseTo(0.5 - (12.706 * Math.SQRT1_2) / Math.SQRT2, 4);
    expect(summaryOf(done, metricIds.hit)).toMatchObject({ n: 2, mean: 1, pass_rate: 1, undetermined: 1 });
    expect(summaryOf(done, metricIds.relevance)).toMatchObject({ n: 3, mean: 0.75, pass_rate: 1, std_dev: 0 });
    expect(summaryOf(done, metricIds.saysDays)).toMatchObject({ n: 3, mean: 1, pass_rate: 1 });
    // 3 answers and 3 judge calls, priced alike
    expect(done.cost_usd).toBeCloseTo(6 * CALL_USD, 10);

    const results = (await viewer.api.get(`/api/v2/evaluations/${created.id}/query-results`)).body.data;
    expect(results.total).toBe(3);
    const leave = results.items[0];
    expect(leave).toMatchObject({ position: 1, question: 'How many days of paid leave a year?', status: 'completed', answer: RIGHT, model: 'fake-model', tokens: { prompt: 11, completion: 7, total: 18 } });
    expect(leave.cost).toBeCloseTo(CALL_USD, 10);
    expect(leave.judge_cost).toBeCloseTo(CALL_USD, 10);
    expect(leave.citations[0]).toMatchObject({ number: 1, document_id: handbookId });
    expect(leave.retrieved[0].document_id).toBe(handbookId);
    expect(leave.scores.find((score: any) => score.metric_id === metricIds.relevance)).toEqual({ metric_id: metricIds.relevance, name: 'Answer relevance', status: 'ok', score: 0.75, passed: true, reason: 'Relevant' });
    const one = await viewer.api.get(`/api/v2/evaluations/${created.id}/query-results/${leave.id}`);
    expect(one.body.data).toEqual(leave);

    // The judge was asked at temperature 0 with the pinned prompt, the answer inside it.
    const judged = judge.chatRequests().slice(judgeCallsBefore);
    expect(judged).toHaveLength(3);
    expect(judged[0]!.body.temperature).toBe(0);
    expect(judged[0]!.body.messages[0]).toMatchObject({ role: 'system', content: JUDGE_PROMPTS.answer_relevance.system });
    expect(judged[0]!.body.messages[1].content).toContain(`<answer>\n${RIGHT}\n</answer>`);

    // Every model call is one usage event of the evaluation, and they add up to its cost; no thread or response was written.
    const usage = await usageOf(created.id);
    expect(usage.map((event) => event.kind).sort()).toEqual(['answer', 'answer', 'answer', 'judge', 'judge', 'judge']);
    expect(usage.every((event) => event.user_id === owner.id && event.agent_id === agentId)).toBe(true);
    expect(usage.reduce((sum, event) => sum + Number(event.cost_nano_usd), 0)).toBe(Math.round(6 * CALL_USD * 1e9));
    expect(await t.app.database.db.selectFrom('agent_responses').select('id').where('agent_id', '=', agentId).execute()).toEqual(responsesBefore);
  });

  it('lists per-metric results with their summaries, filtered by metric and status', async () => {
    const all = (await viewer.api.get(`/api/v2/evaluations/${rightEvaluation}/metric-results?page_size=100`)).body.data;
    expect(all.total).toBe(12);
    expect(all.summary).toHaveLength(4);
    const contains = (await viewer.api.get(`/api/v2/evaluations/${rightEvaluation}/metric-results?metric_id=${metricIds.contains}`)).body.data;
    expect(contains.items.map((item: any) => [item.position, item.status, item.score, item.passed])).toEqual([
      [1, 'ok', 1, true],
      [2, 'ok', 0, false],
      [3, 'undetermined', null, null],
    ]);
    expect(contains.items[2].reason).toBe('The query has no expected answer');
    expect(contains.summary.map((summary: any) => summary.metric_id)).toEqual([metricIds.contains]);
    const undetermined = (await viewer.api.get(`/api/v2/evaluations/${rightEvaluation}/metric-results?status=undetermined`)).body.data;
    expect(undetermined.total).toBe(2);
    expect((await viewer.api.get(`/api/v2/evaluations/${rightEvaluation}/metric-results?metric_id=999999`)).status).toBe(400);
  });

  it('compares two checkpoints: per metric side by side, the queries that went from pass to fail first', async () => {
    const created = await start(owner, { history_id: wrongCheckpoint, name: 'Wrong checkpoint', tags: ['nightly'] });
    wrongEvaluation = created.id;
    const done = await waitForEvaluation(t.app, owner, created.id);
    expect(summaryOf(done, metricIds.contains)).toMatchObject({ n: 2, mean: 0, pass_rate: 0 });

    const reply = await viewer.api.get(`/api/v2/evaluations/compare?ids=${rightEvaluation},${wrongEvaluation}`);
    expect(reply.status, reply.text).toBe(200);
    const comparison = reply.body.data;
    expect(comparison.evaluations.map((evaluation: any) => [evaluation.id, evaluation.history_id])).toEqual([
      [rightEvaluation, rightCheckpoint],
      [wrongEvaluation, wrongCheckpoint],
    ]);
    const contains = comparison.metrics.find((metric: any) => metric.metric_id === metricIds.contains);
    expect(contains.summaries.map((summary: any) => summary.mean)).toEqual([0.5, 0]);
    expect(contains.mean_deltas).toEqual([0, -0.5]);
    const [first, ...rest] = comparison.queries.items;
    expect(first).toMatchObject({ question: 'How many days of paid leave a year?', change: 'regression' });
    // Retrieval is the same in both: only the answer's metrics moved.
    expect(first.regressions.sort()).toEqual(['Contains the expected answer', 'Says 25 days']);
    expect(first.results.map((result: any) => result.evaluation_id)).toEqual([rightEvaluation, wrongEvaluation]);
    expect(rest.every((query: any) => query.change !== 'improvement')).toBe(true);
    expect(comparison.queries.total).toBe(3);
    // The other way round, the same query is an improvement.
    const reversed = (await viewer.api.get(`/api/v2/evaluations/compare?ids=${wrongEvaluation},${rightEvaluation}`)).body.data;
    expect(reversed.queries.items[0]).toMatchObject({ question: 'How many days of paid leave a year?', change: 'improvement' });
  });

  it('lists by tag, agent and dataset, tells the tags in use, renames, retags and deletes', async () => {
    const byTag = (await viewer.api.get('/api/v2/evaluations?tag=v1')).body.data;
    expect(byTag.items.map((item: any) => item.id)).toEqual([rightEvaluation]);
    expect(byTag.items[0].summary).toBeUndefined();
    expect((await viewer.api.get(`/api/v2/evaluations?agent_id=${agentId}&dataset_id=${datasetId}&status=completed`)).body.data.total).toBeGreaterThanOrEqual(2);
    expect((await viewer.api.get('/api/v2/evaluations?dataset_id=999999')).body.data.items).toEqual([]);
    expect((await viewer.api.get('/api/v2/evaluations/tags')).body.data.items).toEqual([
      { tag: 'nightly', evaluations: 2 },
      { tag: 'v1', evaluations: 1 },
    ]);
    const renamed = await owner.api.put(`/api/v2/evaluations/${rightEvaluation}`, { name: 'Baseline', tags: ['baseline'] });
    expect(renamed.body.data).toMatchObject({ name: 'Baseline', tags: ['baseline'] });
    expect((await member.api.put(`/api/v2/evaluations/${rightEvaluation}`, { name: 'Mine' })).status).toBe(403);
    expect((await viewer.api.delete(`/api/v2/evaluations/${wrongEvaluation}`)).status).toBe(403);
    expect((await member.api.delete(`/api/v2/evaluations/${wrongEvaluation}`)).status).toBe(403);
    expect((await owner.api.delete(`/api/v2/evaluations/${wrongEvaluation}`)).status).toBe(200);
    expect((await owner.api.get(`/api/v2/evaluations/${wrongEvaluation}`)).status).toBe(404);
    expect(await usageOf(wrongEvaluation)).toHaveLength(6);
  });

  it('finishes when the agent fails on a query and the judge on another: those results are errors, never averaged in', async () => {
    // The first answer is refused (401 is not retried), then the second query's judge call.
    right.failNext(401);
    const before = judge.chatRequests().length;
    const created = await start(owner, { history_id: rightCheckpoint, metric_ids: [metricIds.contains, metricIds.hit, metricIds.relevance] });
    // The judge's second call is the second query's: the first query had no answer to judge.
    judge.failNext(401);
    const done = await waitForEvaluation(t.app, owner, created.id);
    expect(done.status).toBe('completed');
    expect(done.progress).toMatchObject({ completed: 2, failed: 1 });
    const results = (await owner.api.get(`/api/v2/evaluations/${created.id}/query-results`)).body.data.items;
    expect(results[0]).toMatchObject({ status: 'failed', answer: '' });
    expect(results[0].error).toContain('refused the credentials');
    const scoreOf = (result: any, metricId: number) => result.scores.find((score: any) => score.metric_id === metricId);
    expect(scoreOf(results[0], metricIds.contains)).toMatchObject({ status: 'error', score: null });
    expect(scoreOf(results[0], metricIds.contains).reason).toContain('The agent failed');
    // Retrieval ran before the model failed: hit@5 still reads what it found.
    expect(scoreOf(results[0], metricIds.hit)).toMatchObject({ status: 'ok', score: 1 });
    expect(scoreOf(results[0], metricIds.relevance).status).toBe('error');
    expect(scoreOf(results[1], metricIds.relevance)).toMatchObject({ status: 'error' });
    expect(scoreOf(results[1], metricIds.relevance).reason).toContain('The judge model failed');
    expect(scoreOf(results[2], metricIds.relevance)).toMatchObject({ status: 'ok', score: 0.75 });
    expect(summaryOf(done, metricIds.relevance)).toMatchObject({ n: 1, mean: 0.75, errors: 2 });
    expect(summaryOf(done, metricIds.contains)).toMatchObject({ n: 1, mean: 0, errors: 1, undetermined: 1 });
    expect(judge.chatRequests().length - before).toBe(2);
  });

  it('marks a judge that answers nonsense undetermined', async () => {
    judge.answer = 'It looks relevant to me, I would say a 4.';
    try {
      const created = await start(owner, { metric_ids: [metricIds.relevance], history_id: rightCheckpoint });
      const done = await waitForEvaluation(t.app, owner, created.id);
      expect(summaryOf(done, metricIds.relevance)).toMatchObject({ n: 0, mean: null, undetermined: 3, errors: 0 });
      const score = (await owner.api.get(`/api/v2/evaluations/${created.id}/query-results`)).body.data.items[0].scores[0];
      expect(score).toMatchObject({ status: 'undetermined', reason: 'The judge did not answer with the JSON object asked for' });
    } finally {
      judge.answer = '{"score": 4, "reason": "Relevant"}';
    }
  });

  it('answers as the person who started it: a member who may not read the corpus gets no passages', async () => {
    const created = await start(member, { history_id: rightCheckpoint, metric_ids: [metricIds.hit] });
    const done = await waitForEvaluation(t.app, member, created.id);
    expect(summaryOf(done, metricIds.hit)).toMatchObject({ n: 2, mean: 0 });
    const result = (await member.api.get(`/api/v2/evaluations/${created.id}/query-results`)).body.data.items[0];
    expect(result.retrieved).toEqual([]);
  });

  it('cancels: the answer in flight is stopped, nothing more is asked, and cancelling again is a conflict', async () => {
    const stall = right.stallNext();
    const created = await start(member, { history_id: rightCheckpoint, metric_ids: [metricIds.contains] });
    await stall.arrived;
    expect((await viewer.api.post(`/api/v2/evaluations/${created.id}/cancel`)).status).toBe(403);
    const cancelled = await member.api.post(`/api/v2/evaluations/${created.id}/cancel`);
    expect(cancelled.status, cancelled.text).toBe(200);
    expect(cancelled.body.data).toMatchObject({ status: 'cancelled', progress: { answered: 0, pending: 3 } });
    await stall.disconnected;
    const again = await owner.api.post(`/api/v2/evaluations/${created.id}/cancel`);
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('conflict');
    // The run has let go of its job: it ends done, and no result was written.
    await expect.poll(async () => (await t.app.database.db.selectFrom('jobs').select('status').where('evaluation_id', '=', created.id).executeTakeFirst())?.status).toBe('done');
    expect((await owner.api.get(`/api/v2/evaluations/${created.id}`)).body.data.progress.answered).toBe(0);
  });

  it('stops starting queries once its cost budget is spent', async () => {
    // Each answer costs 0.000025 USD: the budget is spent after two.
    const created = await start(owner, { history_id: rightCheckpoint, metric_ids: [metricIds.contains], cost_budget_usd: 0.00004 });
    const done = await waitForEvaluation(t.app, owner, created.id);
    expect(done).toMatchObject({ status: 'budget_exhausted', progress: { answered: 2, pending: 1 } });
    expect(done.cost_usd).toBeCloseTo(2 * CALL_USD, 10);
    expect(done.error).toContain('1 query was not asked');
  });

  it('refuses what cannot be evaluated, each with its status', async () => {
    const base = { agent_id: agentId, dataset_id: datasetId, metric_ids: [metricIds.contains] };
    const post = (user: TestUser, body: Record<string, unknown>) => user.api.post('/api/v2/evaluations', body);
    expect((await post(viewer, base)).status).toBe(403);
    expect((await post(owner, { ...base, agent_id: 999999 })).status).toBe(404);
    expect((await post(owner, { ...base, history_id: 999999 })).status).toBe(404);
    const otherAgent = await createAgent(owner);
    const otherHistory = (await owner.api.get(`/api/v2/agents/${otherAgent.id}/history`)).body.data.items[0].history_id;
    expect((await post(owner, { ...base, history_id: otherHistory })).status).toBe(404);
    expect((await post(owner, { ...base, dataset_id: 999999 })).status).toBe(404);
    expect((await post(owner, { ...base, metric_ids: [999999] })).status).toBe(404);
    expect((await post(owner, { ...base, judge_llm_configuration_id: 999999 })).status).toBe(404);
    expect((await post(owner, { ...base, metric_ids: [] })).status).toBe(400);
    expect((await post(owner, { ...base, concurrency: 17 })).status).toBe(400);
    const empty = await createDataset(owner);
    expect((await post(owner, { ...base, dataset_id: empty.id })).body.error.details[0].pointer).toBe('/body/dataset_id');
    const similarity = await post(owner, { ...base, metric_ids: [await builtinMetric(owner, 'semantic_similarity')] });
    expect(similarity.status).toBe(400);
    expect(similarity.body.error.details[0]).toMatchObject({ pointer: '/body/metric_ids/0' });
    const inactive = await createAgent(owner);
    await owner.api.post(`/api/v2/agents/${inactive.id}/deactivate`);
    expect((await post(owner, { ...base, agent_id: inactive.id })).status).toBe(409);

    // An organization without any LLM configuration has no judge for judge metrics.
    const judgeless = await createUser(t.app, { organizationId: await createOrganization(t.app), role: 'owner' });
    const theirAgent = await createAgent(judgeless);
    const theirDataset = await createDataset(judgeless, [{ question: 'Hi?' }]);
    const noJudge = await post(judgeless, { agent_id: theirAgent.id, dataset_id: theirDataset.id, metric_ids: [metricIds.relevance] });
    expect(noJudge.status).toBe(400);
    expect(noJudge.body.error.details[0].message).toContain('needs a judge model');
    // …and cannot use this organization's agent, dataset or metric.
    expect((await post(judgeless, { ...base, dataset_id: theirDataset.id })).status).toBe(404);
    expect((await post(judgeless, { agent_id: theirAgent.id, dataset_id: datasetId, metric_ids: [metricIds.contains] })).status).toBe(404);
    expect((await post(judgeless, { agent_id: theirAgent.id, dataset_id: theirDataset.id, metric_ids: [metricIds.saysDays] })).status).toBe(404);
  });

  it('answers 404 for another organization’s evaluation on every route', async () => {
    const resultId = (await owner.api.get(`/api/v2/evaluations/${rightEvaluation}/query-results`)).body.data.items[0].id;
    for (const reply of [
      await stranger.api.get(`/api/v2/evaluations/${rightEvaluation}`),
      await stranger.api.put(`/api/v2/evaluations/${rightEvaluation}`, { name: 'Mine' }),
      await stranger.api.delete(`/api/v2/evaluations/${rightEvaluation}`),
      await stranger.api.post(`/api/v2/evaluations/${rightEvaluation}/cancel`),
      await stranger.api.get(`/api/v2/evaluations/${rightEvaluation}/query-results`),
      await stranger.api.get(`/api/v2/evaluations/${rightEvaluation}/query-results/${resultId}`),
      await stranger.api.get(`/api/v2/evaluations/${rightEvaluation}/metric-results`),
      await stranger.api.get(`/api/v2/evaluations/compare?ids=${rightEvaluation},${rightEvaluation + 1}`),
    ]) {
      expect(reply.status).toBe(404);
      expect(reply.body.error.code).toBe('not_found');
    }
    expect((await stranger.api.get('/api/v2/evaluations')).body.data.items).toEqual([]);
    expect((await stranger.api.get('/api/v2/evaluations/tags')).body.data.items).toEqual([]);
    // A result of another evaluation is not found under this one.
    expect((await owner.api.get(`/api/v2/evaluations/${rightEvaluation}/query-results/999999`)).status).toBe(404);
    expect((await owner.api.get(`/api/v2/evaluations/compare?ids=${rightEvaluation}`)).status).toBe(400);
    expect((await owner.api.get(`/api/v2/evaluations/compare?ids=${rightEvaluation},${rightEvaluation}`)).status).toBe(400);
  });
});
