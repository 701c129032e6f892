// Recording usage events, and the figures made of them at fixed instants: the recorder fills the
// agent's project and team and keeps cost exact; an answer is recorded once however often it is
// asked to; responses that existed before events are backfilled; embeddings are recorded where the
// provider reports usage; and events bucketed by days and hours of a clock that changes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backfillAnswerEvents } from '../src/db/migrations/2026_11_23_0015_usage_events.js';
import { fromNanoUsd, recordUsage, toNanoUsd, type UsageEvent } from '../src/modules/analytics/usage-events.js';
import { startTestApp, type TestApp } from './support/app.js';
import { createThread, createResponse } from './support/chat.js';
import { createCorpus, uploadText, waitForProcessing } from './support/corpora.js';
import { databaseKinds } from './support/databases.js';
import { createAgent, createOrganization, createUser, type TestUser } from './support/factories.js';
import { startFakeEmbeddingServer, type FakeEmbeddingServer } from './support/fake-embeddings.js';
import { createProject, createTeam } from './support/people.js';

describe('nano-dollars', () => {
  it('turn USD at a millionth of a cent into whole numbers and back', () => {
    expect(toNanoUsd(0.00000123)).toBe(1230);
    expect(fromNanoUsd(1230)).toBe(0.00000123);
    expect(fromNanoUsd(toNanoUsd(12.34567891))).toBe(12.34567891);
  });
});

describe.each(databaseKinds)('usage events on %s', (kind) => {
  let test: TestApp;
  let fake: FakeEmbeddingServer;
  let owner: TestUser;

  beforeAll(async () => {
    fake = await startFakeEmbeddingServer();
    test = await startTestApp(kind, fake.env());
    owner = await createUser(test.app, { role: 'owner' });
  });
  afterAll(async () => {
    await test.close();
    await fake.close();
  });

  const repos = () => test.app.services.store.repos;
  const eventsWhere = (column: 'evaluation_id' | 'response_id' | 'corpus_id' | 'organization_id', value: number) =>
    test.app.database.db.selectFrom('usage_events').selectAll().where(column, '=', value).orderBy('id').execute();

  it('records a judge call with the agent’s project and team looked up, its cost in nano-dollars', async () => {
    const team = await createTeam(owner);
    const project = await createProject(owner);
    const agent = await createAgent(owner, { team_id: team.id, project_id: project.id });
    await recordUsage(repos(), {
      kind: 'judge',
      organization_id: owner.organizationId,
      agent_id: agent.id,
      user_id: owner.id,
      evaluation_id: 7,
      model: 'judge-model',
      prompt_tokens: 120,
      completion_tokens: 8,
      cost: 0.00012345,
      occurred_on: '2026-11-23T11:00:00+01:00',
    });
    const [row] = await eventsWhere('evaluation_id', 7);
    expect(row).toMatchObject({ kind: 'judge', status: null, agent_id: agent.id, project_id: project.id, team_id: team.id, cost_nano_usd: 123450, prompt_tokens: 120 });
    // Written as every other instant, so that times compare as text on SQLite.
    expect(row!.occurred_on).toBe('2026-11-23T10:00:00.000Z');
    await expect(
      recordUsage(repos(), { kind: 'answer', organization_id: owner.organizationId, response_id: 1, model: 'm', prompt_tokens: 1, completion_tokens: 1, cost: 0, occurred_on: '2026-11-23T10:00:00Z' }),
    ).rejects.toThrow(/recorded by the runtime/);
  });

  it('makes one answer event a response, kept in step with it; responses older than events are backfilled', async () => {
    const agent = await createAgent(owner);
    const thread = await createThread(owner, agent.id);
    // Written as tests write responses, without the runtime: no event yet.
    const id = await createResponse(test.app, thread, { prompt_tokens: 300, completion_tokens: 40, cost: 0.00123456, status: 'failed' });
    expect(await eventsWhere('response_id', id)).toEqual([]);
    await backfillAnswerEvents(test.app.database.db);
    await backfillAnswerEvents(test.app.database.db);
    expect(await eventsWhere('response_id', id)).toEqual([
      expect.objectContaining({ kind: 'answer', status: 'failed', agent_id: agent.id, user_id: owner.id, prompt_tokens: 300, completion_tokens: 40, cost_nano_usd: 1234560 }),
    ]);
    // The runtime rewrites the event as the response ends.
    await test.app.database.db.updateTable('agent_responses').set({ status: 'completed', completion_tokens: 90, cost: null }).where('id', '=', id).execute();
    await repos().usageEvents.recordAnswer(owner.organizationId, id);
    await repos().usageEvents.recordAnswer(owner.organizationId, id);
    expect(await eventsWhere('response_id', id)).toEqual([expect.objectContaining({ status: 'completed', completion_tokens: 90, cost_nano_usd: null })]);
  });

  it('records the usage an embedding provider reports, for the document’s corpus', async (context) => {
    if (test.app.services.vectors.status.mode !== 'hybrid') context.skip();
    const corpus = await createCorpus(owner);
    const document = await uploadText(owner, corpus.id, 'Our garage repairs every car brought in before noon.');
    await waitForProcessing(owner, corpus.id, [document.id]);
    const events = await eventsWhere('corpus_id', corpus.id);
    // The fake provider reports one token a request.
    expect(events).toEqual([expect.objectContaining({ kind: 'embedding', document_id: document.id, user_id: owner.id, prompt_tokens: 1, cost_nano_usd: null })]);
    const query = `scope=corpus&scope_id=${corpus.id}&interval=hour`;
    const cost = (await owner.api.get(`/api/v2/analytics/cost?${query}`)).body.data;
    expect(cost.totals).toEqual({ cost: 0, answer_cost: 0, judge_cost: 0, embedding_cost: 0, unpriced_calls: 1 });
    expect((await owner.api.get(`/api/v2/analytics/tokens?${query}`)).body.data.totals).toEqual({ prompt_tokens: 1, completion_tokens: 0, total_tokens: 1 });
  });

  describe('bucketed where clocks change', () => {
    let chronicler: TestUser;
    const judge = (occurredOn: string, cost: number): UsageEvent => ({
      kind: 'judge',
      organization_id: chronicler.organizationId,
      model: 'judge',
      prompt_tokens: 10,
      completion_tokens: 1,
      cost,
      occurred_on: occurredOn,
    });

    beforeAll(async () => {
      chronicler = await createUser(test.app, { organizationId: await createOrganization(test.app), role: 'owner' });
      for (const [at, cost] of [
        ['2026-03-28T22:59:59.999Z', 0.000000001], // Paris: 23:59 on the 28th
        ['2026-03-28T23:30:00.000Z', 0.000000002], // 00:30 on the 29th
        ['2026-03-29T21:59:00.000Z', 0.000000003], // 23:59 on the 29th, a day of 23 hours
        ['2026-03-29T22:00:00.000Z', 0.000000004], // 00:00 on the 30th
        ['2026-10-25T00:30:00.000Z', 0.000000005], // 02:30, the first time
        ['2026-10-25T01:30:00.000Z', 0.000000006], // 02:30, the second time
      ] as const) {
        await recordUsage(repos(), judge(at, cost));
      }
    });

    const figures = async (query: string) => {
      const reply = await chronicler.api.get(`/api/v2/analytics/cost?${query}`);
      expect(reply.status, reply.text).toBe(200);
      return reply.body.data as { points: { start: string; judge_cost: number }[]; totals: { judge_cost: number } };
    };
    const nano = (usd: number) => Math.round(usd * 1e9);

    it('counts each event in the day of Paris it happened on, and the same events in UTC days', async () => {
      const paris = await figures('from=2026-03-28&to=2026-03-30&interval=day&timezone=Europe/Paris');
      expect(paris.points.map((point) => [point.start, nano(point.judge_cost)])).toEqual([
        ['2026-03-27T23:00:00.000Z', 1],
        ['2026-03-28T23:00:00.000Z', 2 + 3],
        ['2026-03-29T22:00:00.000Z', 4],
      ]);
      const utc = await figures('from=2026-03-28&to=2026-03-30&interval=day&timezone=UTC');
      expect(utc.points.map((point) => nano(point.judge_cost))).toEqual([1 + 2, 3 + 4, 0]);
      expect(nano(paris.totals.judge_cost)).toBe(10);
      expect(nano(utc.totals.judge_cost)).toBe(10);
    });

    it('gives the hour that happens twice two points, each with its own events', async () => {
      const hours = await figures('from=2026-10-25&to=2026-10-25&interval=hour&timezone=Europe/Paris');
      expect(hours.points).toHaveLength(25);
      const twice = hours.points.filter((point) => new Date(point.start).toLocaleString('sv-SE', { timeZone: 'Europe/Paris' }).endsWith('02:00:00'));
      expect(twice.map((point) => nano(point.judge_cost))).toEqual([5, 6]);
      const spring = await figures('from=2026-03-29&to=2026-03-29&interval=hour&timezone=Europe/Paris');
      expect(spring.points).toHaveLength(23);
      expect(nano(spring.totals.judge_cost)).toBe(2 + 3);
    });

    it('cuts a week and a month at the range, counting only what is inside it', async () => {
      const week = await figures('from=2026-03-29T00:00:00.000%2B01:00&to=2026-03-29T23:59:30%2B02:00&interval=week&timezone=Europe/Paris');
      expect(week.points.map((point) => point.start)).toEqual(['2026-03-22T23:00:00.000Z']);
      expect(nano(week.totals.judge_cost)).toBe(2 + 3);
      const months = await figures('from=2026-03-01&to=2026-10-31&interval=month&timezone=America/New_York');
      expect(months.points.map((point) => nano(point.judge_cost))).toEqual([1 + 2 + 3 + 4, 0, 0, 0, 0, 0, 0, 5 + 6]);
    });
  });
});
