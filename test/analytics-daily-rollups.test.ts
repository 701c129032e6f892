// The daily rollups equal the hourly rollups and the events they sum, whatever happens to the events;
// and every figure read through them (a UTC day from its row, a day of another zone from the day
// nearest it corrected by hours) equals the same figure counted from the events, for every scope, in
// zones whose days are not UTC days: 23- and 25-hour days where clocks change, zones a part of an
// hour from UTC, clocks that move by half an hour.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import type { AnalyticsScope } from '../src/modules/analytics/analytics-scope.js';
import { aggregatePerSpanByHour } from '../src/modules/analytics/per-hour.sql.js';
import { planRollupReads } from '../src/modules/analytics/rollup-plan.js';
import { up as addDailyRollups } from '../src/db/migrations/2026_11_24_0019_usage_daily_rollups.js';
import { bucketRange, type Interval } from '../src/modules/analytics/time-buckets.js';
import { startTestApp, type TestApp } from './support/app.js';
import { databaseKinds } from './support/databases.js';
import type { TestUser } from './support/factories.js';
import { recordUsageHistory } from './support/usage-history.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** Four weeks over the clock changes of America (8 March 2026) and Europe (29 March 2026). */
const START = Date.parse('2026-03-05T00:00:00.000Z');
const ZONES = ['UTC', 'Europe/Paris', 'America/New_York', 'Asia/Kathmandu', 'America/St_Johns', 'Australia/Lord_Howe'];
const NOW = START + 40 * DAY;

const numbers = (row: object) => Object.fromEntries(Object.entries(row).map(([key, value]) => [key, Number(value)]));
/** Numbers as numbers (PostgreSQL's bigint arrives as text), the rest as it is. */
const numbersAndText = (row: object) => Object.fromEntries(Object.entries(row).map(([key, value]) => [key, /^-?\d+$/.test(String(value)) ? Number(value) : value]));

describe('reading a range from the rollups', () => {
  it('reads a UTC day as its row, and a day of another zone as the nearest UTC day and at most two hours', () => {
    // to=2026-03-31 takes in the 31st: 31 days.
    const utc = bucketRange({ from: '2026-03-01', to: '2026-03-31', interval: 'day', timezone: 'UTC' }, NOW);
    const utcPlan = planRollupReads(utc.buckets);
    expect([utcPlan.days.size, utcPlan.hours.size, utcPlan.edges.length]).toEqual([31, 0, 0]);
    for (const timezone of ['Europe/Paris', 'America/New_York']) {
      const zoned = bucketRange({ from: '2026-03-01', to: '2026-03-31', interval: 'day', timezone }, NOW);
      // The 23-hour day is there, and each day reads one row of days; the hours are those between midnights.
      expect(zoned.buckets.some((bucket) => Date.parse(bucket.to) - Date.parse(bucket.from) === 23 * HOUR)).toBe(true);
      const plan = planRollupReads(zoned.buckets);
      expect(plan.days.size).toBe(31);
      expect(plan.hours.size).toBeLessThanOrEqual(2 * 6 * 31);
      expect(plan.edges).toEqual([]);
    }
  });
});

describe.each(databaseKinds)('daily usage rollups (%s)', (kind) => {
  let t: TestApp;
  let owner: TestUser;
  let scopes: AnalyticsScope[];

  beforeAll(async () => {
    t = await startTestApp(kind);
    ({ owner, scopes } = await recordUsageHistory(t, {
      seed: 7,
      events: 400,
      start: START,
      spanMs: 28 * DAY,
      movedTo: (id) => START + 3 * DAY + id * 61_000,
    }));
  });
  afterAll(() => t.close());

  it('holds, row by row, the sums of the hourly rollups and of the events of each UTC day', async () => {
    const db = t.app.database.db;
    const organizationId = owner.organizationId;
    const key = (row: { dimension: string; dimension_id: number; kind: string; status: string }, at: string) =>
      [row.dimension, Number(row.dimension_id), new Date(Math.floor(Date.parse(at) / DAY) * DAY).toISOString(), row.kind, row.status].join('|');
    const figures = ['events', 'prompt_tokens', 'completion_tokens', 'cost_nano_usd', 'priced_events', 'latency_ms', 'timed_events'] as const;
    const sumsBy = (rows: Record<string, unknown>[], at: (row: never) => string) => {
      const sums = new Map<string, number[]>();
      for (const row of rows) {
        const k = key(row as never, at(row as never));
        const add = figures.map((figure) => Number(row[figure]));
        sums.set(k, (sums.get(k) ?? figures.map(() => 0)).map((value, i) => value + add[i]!));
      }
      // Rows whose events all went away stay, empty.
      return Object.fromEntries([...sums].filter(([, values]) => values[0] !== 0));
    };
    const daily = await db.selectFrom('usage_daily_rollups').selectAll().where('organization_id', '=', organizationId).execute();
    const hourly = await db.selectFrom('usage_rollups').selectAll().where('organization_id', '=', organizationId).execute();
    const fromDays = sumsBy(daily, (row: { day_on: string }) => row.day_on);
    expect(Object.keys(fromDays).length).toBeGreaterThan(100);
    expect(fromDays).toEqual(sumsBy(hourly, (row: { hour_on: string }) => row.hour_on));

    // And from the events themselves, for the organization's own rows.
    const events = await db.selectFrom('usage_events').selectAll().where('organization_id', '=', organizationId).execute();
    const ofEvents = sumsBy(
      events.map((e) => ({
        dimension: 'all',
        dimension_id: 0,
        kind: e.kind,
        status: e.status ?? '',
        occurred_on: e.occurred_on,
        events: 1,
        prompt_tokens: e.prompt_tokens,
        completion_tokens: e.completion_tokens,
        cost_nano_usd: e.cost_nano_usd ?? 0,
        priced_events: e.cost_nano_usd === null ? 0 : 1,
        latency_ms: e.latency_ms ?? 0,
        timed_events: e.latency_ms === null ? 0 : 1,
      })),
      (row: { occurred_on: string }) => row.occurred_on,
    );
    expect(Object.fromEntries(Object.entries(fromDays).filter(([k]) => k.startsWith('all|')))).toEqual(ofEvents);
  });

  it('gives every scope, zone and interval the figures of its events', async () => {
    const { analytics } = t.app.services.store.repos;
    const ranges: [Interval, string, string][] = [
      ['day', '2026-03-05T07:23:11.500Z', '2026-04-02T15:47:00Z'],
      ['week', '2026-03-02', '2026-04-05'],
      ['hour', '2026-03-28T00:00:00', '2026-03-30T12:30:00'],
    ];
    for (const timezone of ZONES) {
      for (const [interval, from, to] of ranges) {
        const { buckets } = bucketRange({ from, to, interval, timezone }, NOW);
        for (const scope of scopes) {
          const fromRollups = await analytics.usage(owner.organizationId, scope, buckets);
          const fromEvents = (await analytics.usageOfEvents(owner.organizationId, scope, buckets)).map(numbers);
          expect(fromRollups, `${timezone} ${interval} ${JSON.stringify(scope)}`).toEqual(fromEvents);
        }
      }
    }
  });

  it('counts rows per span from one statement grouped by hour as span by span', async () => {
    const { db, dialect } = t.app.database;
    const organizationId = owner.organizationId;
    const countEvents = (from: unknown, to: unknown) =>
      db
        .selectFrom('usage_events as e')
        .where('e.organization_id', '=', organizationId)
        .where('e.occurred_on', '>=', from as string)
        .where('e.occurred_on', '<', to as string)
        .select([sql<number>`count(*)`.as('events'), sql<number>`cast(coalesce(sum(e.prompt_tokens), 0) as bigint)`.as('tokens')]);
    for (const timezone of ZONES) {
      const { buckets } = bucketRange({ from: '2026-03-05T07:23:11.500Z', to: '2026-04-02T15:47:00Z', interval: 'day', timezone }, NOW);
      const byHour = await aggregatePerSpanByHour(db, dialect, buckets, 'e.occurred_on', ['events', 'tokens'], countEvents);
      const spanBySpan = (await dialect.aggregatePerSpan(db, buckets, countEvents)).map(numbers);
      expect(byHour, timezone).toEqual(spanBySpan);
      expect(byHour.reduce((sum, row) => sum + row.events, 0)).toBeGreaterThan(300);
    }
  });

  it('are filled by their migration from the events recorded before it, then kept as before', async () => {
    const { db, dialect } = t.app.database;
    const read = () =>
      db.selectFrom('usage_daily_rollups').selectAll().where('organization_id', '=', owner.organizationId).where('events', '<>', 0).orderBy(['dimension', 'dimension_id', 'day_on', 'kind', 'status']).execute();
    const before = (await read()).map(numbersAndText);
    // As a database upgraded to this version: the events are there, the daily rollups not yet.
    if (dialect.name === 'sqlite') {
      for (const operation of ['insert', 'update', 'delete']) await sql`drop trigger usage_daily_rollups_${sql.raw(operation)}`.execute(db);
    } else {
      await sql`drop trigger usage_daily_rollups_maintain on usage_events`.execute(db);
      await sql`drop function usage_daily_rollups_maintain(), usage_daily_rollups_apply(usage_events, integer)`.execute(db);
    }
    await sql`drop table usage_daily_rollups`.execute(db);
    await addDailyRollups(db, dialect);
    expect((await read()).map(numbersAndText)).toEqual(before);
    // The triggers are back: an event moved from one day to another moves its sums.
    const event = await db.selectFrom('usage_events').select(['id', 'occurred_on']).where('organization_id', '=', owner.organizationId).orderBy('id').executeTakeFirstOrThrow();
    await db.updateTable('usage_events').set({ occurred_on: new Date(Date.parse(event.occurred_on) + 2 * DAY).toISOString() }).where('id', '=', event.id).execute();
    expect((await read()).map(numbersAndText)).not.toEqual(before);
    await db.updateTable('usage_events').set({ occurred_on: event.occurred_on }).where('id', '=', event.id).execute();
    expect((await read()).map(numbersAndText)).toEqual(before);
  });
});
