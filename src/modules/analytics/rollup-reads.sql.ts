// Reading the hourly or daily rollups of a scope: one statement, each of the scope's rollup rows (the
// organization's, an agent's, a corpus's connected agents' and its own) read by a range of the
// primary key (organization, dimension, id, time), the legs added together and summed per hour or
// day. Written as separate legs rather than `dimension_id in (…)` so that no planner can turn a
// corpus's few keys into a scan of every agent's rows.
import { sql, type Kysely } from 'kysely';
import type { Dialect, TimeSpan } from '../../db/dialect.js';
import type { DB } from '../../db/schema.js';
import { planRollupReads, DAY_MS, HOUR_MS } from './rollup-plan.js';
import { addUsage, noUsage, total, USAGE_FIGURES, type UsageFigures } from './usage-figures.sql.js';

/** One dimension's rows of the rollups: `all` (id 0), or an agent's, user's, project's, team's or corpus's. */
export interface RollupKey {
  dimension: 'all' | 'agent' | 'user' | 'project' | 'team' | 'corpus';
  id: number;
}

export type RollupTable = 'usage_rollups' | 'usage_daily_rollups';
const TIME_COLUMN: Record<RollupTable, string> = { usage_rollups: 'hour_on', usage_daily_rollups: 'day_on' };

/** A range [from, to), or the instants themselves (a few scattered hours). */
export type RollupTimes = TimeSpan | string[];

type TimedUsage = UsageFigures & { time_on: string };

/** The usage figures of the keys' rows, per hour or day (in order), over the times given. */
export async function sumRollups(
  db: Kysely<DB>,
  dialect: Dialect,
  table: RollupTable,
  organizationId: number,
  keys: RollupKey[],
  times: RollupTimes,
): Promise<TimedUsage[]> {
  const time = sql.ref<string>(TIME_COLUMN[table]);
  const when = Array.isArray(times) ? dialect.instantIn(time, times) : sql`${time} >= ${times.from} and ${time} < ${times.to}`;
  const legs = keys.map(
    ({ dimension, id }) => sql`select ${time} as time_on, kind, status, events, prompt_tokens, completion_tokens, cost_nano_usd, priced_events, latency_ms, timed_events
      from ${sql.table(table)} where organization_id = ${organizationId} and dimension = ${dimension} and dimension_id = ${id} and ${when}`,
  );
  const figures = USAGE_FIGURES.map(([name, , ofRollup]) => sql`${total(ofRollup)} as ${sql.ref(name)}`);
  const { rows } = await sql<TimedUsage>`select r.time_on, ${sql.join(figures)}
    from (${sql.join(legs, sql` union all `)}) r
    group by r.time_on order by r.time_on`.execute(db);
  return rows;
}

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * The usage figures of each span from the rollups (see rollup-plan.ts): days from the daily rows,
 * hours from the hourly ones (a range when they are close together, else the list), and what is not
 * whole hours from the events (`ofEvents`, one row per span given).
 */
export async function usageFromRollups(
  db: Kysely<DB>,
  dialect: Dialect,
  organizationId: number,
  keys: RollupKey[],
  spans: TimeSpan[],
  ofEvents: (spans: TimeSpan[]) => Promise<object[]>,
): Promise<UsageFigures[]> {
  const plan = planRollupReads(spans);
  const days = [...plan.days.keys()].sort((a, b) => a - b);
  const hours = [...plan.hours.keys()].sort((a, b) => a - b);
  const hoursTimes = (): RollupTimes => {
    const first = hours[0]!;
    const last = hours.at(-1)!;
    // Reading a few hours more in one range beats looking each one up.
    return (last - first) / HOUR_MS + 1 <= 2 * hours.length ? { from: iso(first), to: iso(last + HOUR_MS) } : hours.map(iso);
  };
  const [daily, hourly, counted] = await Promise.all([
    days.length === 0 ? [] : sumRollups(db, dialect, 'usage_daily_rollups', organizationId, keys, { from: iso(days[0]!), to: iso(days.at(-1)! + DAY_MS) }),
    hours.length === 0 ? [] : sumRollups(db, dialect, 'usage_rollups', organizationId, keys, hoursTimes()),
    plan.edges.length === 0 ? [] : ofEvents(plan.edges.map((edge) => edge.span)),
  ]);
  const sums = spans.map(noUsage);
  for (const row of daily) {
    const position = plan.days.get(Date.parse(row.time_on));
    if (position !== undefined) addUsage(sums[position]!, row);
  }
  for (const row of hourly) {
    for (const use of plan.hours.get(Date.parse(row.time_on)) ?? []) addUsage(sums[use.position]!, row, use.sign);
  }
  plan.edges.forEach((edge, i) => addUsage(sums[edge.position]!, counted[i]!));
  return sums;
}
