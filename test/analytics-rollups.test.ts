// The hourly rollups equal the usage events they sum, whatever happens to the events (inserted,
// rewritten as answers end, moved, deleted): row by row, and in every figure analytics reads from
// them, for every scope and for spans that start and end anywhere in an hour.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TimeSpan } from '../src/db/dialect.js';
import type { AnalyticsScope } from '../src/modules/analytics/analytics-scope.js';
import { startTestApp, type TestApp } from './support/app.js';
import { databaseKinds } from './support/databases.js';
import type { TestUser } from './support/factories.js';
import { recordUsageHistory } from './support/usage-history.js';

const HOUR = 3_600_000;
const START = Date.parse('2026-03-28T20:00:00.000Z');

describe.each(databaseKinds)('usage rollups (%s)', (kind) => {
  let t: TestApp;
  let owner: TestUser;
  let member: TestUser;
  let scopes: AnalyticsScope[];

  beforeAll(async () => {
    t = await startTestApp(kind);
    ({ owner, member, scopes } = await recordUsageHistory(t, {
      seed: 11,
      events: 300,
      start: START,
      spanMs: 30 * HOUR,
      movedTo: (id) => START + 31 * HOUR + id * 1000,
    }));
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
