// The most active agents, users, corpora or projects over a range: most queries first, then most
// cost. The organization's own ranking reads its whole UTC days from the daily rollups (a row per one
// and day), the hours around them from the hourly rollups, and what is not whole hours from the
// events; a ranking within a scope (the users of one agent) reads the scope's events.
import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { TimeSpan } from '../../db/dialect.js';
import type { DB } from '../../db/schema.js';
import type { AnalyticsScope } from './analytics-scope.js';
import { eventsOfScope } from './scope-conditions.sql.js';
import { cutAtHours } from './hour-spans.js';
import { cutAtDays } from './rollup-plan.js';

export const ACTIVE_ENTITIES = ['agents', 'users', 'corpora', 'projects'] as const;
export type ActiveEntity = (typeof ACTIVE_ENTITIES)[number];

export interface ActiveRow {
  id: number;
  queries: number;
  prompt_tokens: number;
  completion_tokens: number;
  cost_nano_usd: number;
}

type Source = 'usage_events' | 'usage_rollups' | 'usage_daily_rollups';
const TIME_OF: Record<Source, string> = { usage_events: 'e.occurred_on', usage_rollups: 'r.hour_on', usage_daily_rollups: 'r.day_on' };

export async function rankMostActive(
  db: Kysely<DB>,
  organizationId: number,
  scope: AnalyticsScope,
  entity: ActiveEntity,
  range: TimeSpan,
  limit: number,
): Promise<ActiveRow[]> {
  if (scope.kind !== 'overall') return rank(db, organizationId, entity, eventsOfScope(scope), 'usage_events', range, limit);
  const everything = sql`1 = 1`;
  const cut = cutAtHours(range);
  const byDay = cut.hours ? cutAtDays(cut.hours) : { days: null, hours: [] };
  const parts = await Promise.all([
    ...(byDay.days ? [rank(db, organizationId, entity, everything, 'usage_daily_rollups', byDay.days, null)] : []),
    ...byDay.hours.map((hours) => rank(db, organizationId, entity, everything, 'usage_rollups', hours, null)),
    ...cut.edges.map((edge) => rank(db, organizationId, entity, everything, 'usage_events', edge, null)),
  ]);
  const byId = new Map<number, ActiveRow>();
  for (const row of parts.flat()) {
    const id = Number(row.id);
    const sum = byId.get(id) ?? { id, queries: 0, prompt_tokens: 0, completion_tokens: 0, cost_nano_usd: 0 };
    sum.queries += Number(row.queries);
    sum.prompt_tokens += Number(row.prompt_tokens);
    sum.completion_tokens += Number(row.completion_tokens);
    sum.cost_nano_usd += Number(row.cost_nano_usd);
    byId.set(id, sum);
  }
  return [...byId.values()].sort((a, b) => b.queries - a.queries || b.cost_nano_usd - a.cost_nano_usd || a.id - b.id).slice(0, limit);
}

/**
 * A ranking over events (alias e) or hourly or daily rollup rows (alias r). Written from the
 * organization's agents (users, corpora, projects) to their rows, as cross joins that SQLite keeps in that order: each
 * one's rows are then a range of an index on (organization, it, time), and arrive together, grouped
 * without sorting. `limit` null: every one, unsorted, to be added to another part.
 */
async function rank(
  db: Kysely<DB>,
  organizationId: number,
  entity: ActiveEntity,
  scope: RawBuilder<unknown>,
  source: Source,
  range: TimeSpan,
  limit: number | null,
): Promise<ActiveRow[]> {
  const alias = source === 'usage_events' ? 'e' : 'r';
  const t = sql.raw(alias);
  const time = sql.raw(TIME_OF[source]);
  const events = sql.raw(alias === 'e' ? '1' : 'r.events');
  const inRange = sql`${t}.organization_id = ${organizationId} and ${scope} and ${time} >= ${range.from} and ${time} < ${range.to}`;
  const figures = sql`cast(coalesce(sum(case when ${t}.kind = 'answer' then ${events} else 0 end), 0) as bigint) as queries,
    cast(coalesce(sum(${t}.prompt_tokens), 0) as bigint) as prompt_tokens,
    cast(coalesce(sum(${t}.completion_tokens), 0) as bigint) as completion_tokens,
    cast(coalesce(sum(${t}.cost_nano_usd), 0) as bigint) as cost_nano_usd`;
  const rowsOf = (column: string) => (alias === 'e' ? sql`e.${sql.ref(column)}` : sql`r.dimension = ${column.replace(/_id$/, '')} and r.dimension_id`);
  const order = (id: RawBuilder<unknown>) => (limit === null ? sql`` : sql`order by queries desc, cost_nano_usd desc, ${id} limit ${limit}`);
  if (entity !== 'corpora') {
    const [table, column] = ({ agents: ['agents', 'agent_id'], users: ['users', 'user_id'], projects: ['projects', 'project_id'] } as const)[entity];
    const { rows } = await sql<ActiveRow>`select x.id, ${figures}
      from ${sql.table(table)} x cross join ${sql.table(source)} ${t}
      where x.organization_id = ${organizationId} and ${rowsOf(column)} = x.id and ${inRange}
      group by x.id ${order(sql`x.id`)}`.execute(db);
    return rows;
  }
  // A corpus counts the events of the agents connected to it now, and its own of no agent.
  const own = alias === 'e' ? sql`e.corpus_id = c.id and e.agent_id is null` : sql`r.dimension = 'corpus' and r.dimension_id = c.id`;
  const { rows } = await sql<ActiveRow>`select id, cast(sum(queries) as bigint) as queries, cast(sum(prompt_tokens) as bigint) as prompt_tokens,
      cast(sum(completion_tokens) as bigint) as completion_tokens, cast(sum(cost_nano_usd) as bigint) as cost_nano_usd
    from (
      select c.id, ${figures} from corpora c cross join corpus_agents ca cross join ${sql.table(source)} ${t}
      where c.organization_id = ${organizationId} and ca.corpus_id = c.id and ${rowsOf('agent_id')} = ca.agent_id and ${inRange}
      group by c.id
      union all
      select c.id, ${figures} from corpora c cross join ${sql.table(source)} ${t}
      where c.organization_id = ${organizationId} and ${own} and ${inRange}
      group by c.id
    ) x group by id ${order(sql`id`)}`.execute(db);
  return rows;
}
