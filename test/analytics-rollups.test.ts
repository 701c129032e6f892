// The hourly rollups equal the usage events they sum, whatever happens to the events (inserted,
// rewritten as answers end, moved, deleted): row by row, and in every figure analytics reads from
// them, for every scope and for spans that start and end anywhere in an hour.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TimeSpan } from '../src/db/dialect.js';
import type { AnalyticsScope } from '../src/modules/analytics/analytics-scope.js';
import { recordUsage } from '../src/modules/analytics/usage-events.js';
import { startTestApp, type TestApp } from './support/app.js';
import { databaseKinds } from './support/databases.js';
import { createAgent, createOrganization, createUser, type TestUser } from './support/factories.js';
import { createCorpus } from './support/corpora.js';
import { createProject, createTeam } from './support/people.js';

const HOUR = 3_600_000;
const START = Date.parse('2026-03-28T20:00:00.000Z');

/** A repeatable sequence of numbers in [0, 1). */
function seeded(seed: number) {
  let state = seed;
  return () => ((state = (state * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);
}

describe.each(databaseKinds)('usage rollups (%s)', (kind) => {
  let t: TestApp;
  let owner: TestUser;
  let member: TestUser;
  let scopes: AnalyticsScope[];
  const random = seeded(11);

  beforeAll(async () => {
    t = await startTestApp(kind);
    const organizationId = await createOrganization(t.app);
    owner = await createUser(t.app, { organizationId, role: 'owner' });
    member = await createUser(t.app, { organizationId, role: 'member' });
    const team = await createTeam(owner);
    const project = await createProject(owner);
    const teamAgent = await createAgent(owner, { team_id: team.id, project_id: project.id });
    const loneAgent = await createAgent(owner);
    const corpus = await createCorpus(owner);
    expect((await owner.api.post(`/api/v2/corpora/${corpus.id}/agents`, { agent_id: teamAgent.id })).status).toBe(200);
    scopes = [
      { kind: 'overall' },
      { kind: 'agent', id: teamAgent.id },
      { kind: 'agent', id: loneAgent.id },
      { kind: 'user', id: member.id },
      { kind: 'team', id: team.id },
      { kind: 'project', id: project.id },
      { kind: 'corpus', id: corpus.id },
    ];

    const { repos } = t.app.services.store;
    const pick = <T>(values: T[]) => values[Math.floor(random() * values.length)]!;
    for (let i = 0; i < 300; i++) {
      const kindOf = pick(['answer', 'answer', 'judge', 'embedding'] as const);
      const agent = kindOf === 'embedding' ? null : pick([teamAgent.id, loneAgent.id]);
      await recordUsage(repos, {
        kind: kindOf,
        status: kindOf === 'answer' ? pick(['completed', 'failed', 'blocked'] as const) : null,
        organization_id: organizationId,
        agent_id: agent,
        corpus_id: kindOf === 'embedding' ? corpus.id : null,
        user_id: pick([owner.id, member.id]),
        model: 'm',
        prompt_tokens: Math.floor(random() * 1000),
        completion_tokens: Math.floor(random() * 100),
        cost: random() < 0.2 ? null : Math.floor(random() * 1e6) / 1e9,
        latency_ms: kindOf === 'answer' && random() < 0.9 ? Math.floor(random() * 5000) : null,
        occurred_on: new Date(START + Math.floor(random() * 30 * HOUR)).toISOString(),
      });
    }
    // Events change after they are written: answers end (status, tokens, cost), move in time, go away.
    const db = t.app.database.db;
    const ids = (await db.selectFrom('usage_events').select('id').where('organization_id', '=', organizationId).orderBy('id').execute()).map((row) => row.id);
    for (const id of ids.filter((_, i) => i % 7 === 0)) {
      await db.updateTable('usage_events').set({ status: 'completed', prompt_tokens: 42, cost_nano_usd: null, latency_ms: 1234 }).where('id', '=', id).where('kind', '=', 'answer').execute();
    }
    for (const id of ids.filter((_, i) => i % 11 === 0)) {
      await db.updateTable('usage_events').set({ occurred_on: new Date(START + 31 * HOUR + id * 1000).toISOString(), user_id: member.id }).where('id', '=', id).execute();
    }
    await db.deleteFrom('usage_events').where('id', 'in', ids.filter((_, i) => i % 13 === 0)).execute();
  });
  afterAll(() => t.close());

  it('holds, row by row, the sums of the events of each dimension and hour', async () => {
    const db = t.app.database.db;
    const events = await db.selectFrom('usage_events').selectAll().where('organization_id', '=', owner.organizationId).execute();
    const expected = new Map<string, number[]>();
    for (const event of events) {
      const hour = new Date(Math.floor(Date.parse(event.occurred_on) / HOUR) * HOUR).toISOString();
      const dimensions: [string, number | null][] = [
        ['all', 0],
        ['agent', event.agent_id],
        ['user', event.user_id],
        ['project', event.project_id],
        ['team', event.team_id],
        ['corpus', event.agent_id === null ? event.corpus_id : null],
      ];
      for (const [dimension, id] of dimensions) {
        if (id === null) continue;
        const key = [dimension, id, hour, event.kind, event.status ?? ''].join('|');
        const sums = expected.get(key) ?? [0, 0, 0, 0, 0, 0, 0];
        const add = [1, event.prompt_tokens, event.completion_tokens, event.cost_nano_usd ?? 0, event.cost_nano_usd === null ? 0 : 1, event.latency_ms ?? 0, event.latency_ms === null ? 0 : 1];
        expected.set(key, sums.map((value, i) => value + add[i]!));
      }
    }
    const rows = await db.selectFrom('usage_rollups').selectAll().where('organization_id', '=', owner.organizationId).execute();
    const actual = new Map<string, number[]>();
    for (const row of rows) {
      const sums = [row.events, row.prompt_tokens, row.completion_tokens, row.cost_nano_usd, row.priced_events, row.latency_ms, row.timed_events].map(Number);
      // Rows whose events all went away stay, empty.
      if (sums[0] === 0) expect(sums).toEqual([0, 0, 0, 0, 0, 0, 0]);
      else actual.set([row.dimension, Number(row.dimension_id), new Date(row.hour_on).toISOString(), row.kind, row.status].join('|'), sums);
    }
    expect(actual.size).toBeGreaterThan(100);
    expect(Object.fromEntries(actual)).toEqual(Object.fromEntries(expected));
  });

  it('gives every scope the figures of its events, for spans cut anywhere in an hour', async () => {
    const { analytics } = t.app.services.store.repos;
    // In order and apart, as the buckets of a range are: on the hour, inside one hour, across hours.
    const at = (ms: number) => new Date(START + ms).toISOString();
    const cuts = [0, 3 * HOUR + 1, 3 * HOUR + 59 * 60_000, 12 * HOUR + 45 * 60_000, 31 * HOUR + 15 * 60_000, 40 * HOUR];
    const spans: TimeSpan[] = cuts.slice(1).map((to, i) => ({ from: at(cuts[i]!), to: at(to) }));
    for (const scope of scopes) {
      const fromRollups = await analytics.usage(owner.organizationId, scope, spans);
      const fromEvents = (await analytics.usageOfEvents(owner.organizationId, scope, spans)).map((row) =>
        Object.fromEntries(Object.entries(row).map(([key, value]) => [key, Number(value)])),
      );
      expect(fromRollups, JSON.stringify(scope)).toEqual(fromEvents);
      expect(fromRollups[0]!.queries + fromRollups[0]!.judge_calls + fromRollups[0]!.embedding_calls).toBeGreaterThan(0);
    }
  });

  it('ranks the most active from the rollups as from the events', async () => {
    const { analytics } = t.app.services.store.repos;
    const range = { from: new Date(START + 30 * 60_000).toISOString(), to: new Date(START + 35 * HOUR + 10 * 60_000).toISOString() };
    for (const entity of ['agents', 'users', 'corpora', 'projects'] as const) {
      const fromRollups = await analytics.mostActive(owner.organizationId, { kind: 'overall' }, entity, range, 10);
      expect(fromRollups.length).toBeGreaterThan(0);
      // A scope that holds every event of the organization reads the events themselves.
      const everyUser = await Promise.all(
        [owner.id, member.id].map((id) => analytics.mostActive(owner.organizationId, { kind: 'user', id }, entity, range, 10)),
      );
      const fromEvents = new Map<number, number[]>();
      for (const row of everyUser.flat()) {
        const sums = fromEvents.get(Number(row.id)) ?? [0, 0, 0, 0];
        fromEvents.set(Number(row.id), [row.queries, row.prompt_tokens, row.completion_tokens, row.cost_nano_usd].map((value, i) => sums[i]! + Number(value)));
      }
      expect(
        Object.fromEntries(fromRollups.map((row) => [row.id, [row.queries, row.prompt_tokens, row.completion_tokens, row.cost_nano_usd].map(Number)])),
        entity,
      ).toEqual(Object.fromEntries(fromEvents));
    }
  });
});
