// Hourly rollups of usage events, so that analytics read an hour's sums instead of its events: one
// row per organization, dimension (all, agent, user, project, team, corpus), hour of UTC, kind and
// status. Triggers on usage_events keep them, on insert, update and delete alike, so they equal the
// events whatever writes them. A corpus's row counts only events of no agent (its embeddings): the
// events of its agents are counted through theirs. Counts of events, tokens, cost (nano-dollars) and
// latency are summed; how many events had a price and a latency are counted beside them.
// Frozen: change the schema in a new migration.
import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Dialect } from '../dialect.js';

const COLUMNS = sql.raw(
  'organization_id, dimension, dimension_id, hour_on, kind, status, events, prompt_tokens, completion_tokens, cost_nano_usd, priced_events, latency_ms, timed_events',
);
const ADD_UP = sql.raw(`events = usage_rollups.events + excluded.events,
  prompt_tokens = usage_rollups.prompt_tokens + excluded.prompt_tokens,
  completion_tokens = usage_rollups.completion_tokens + excluded.completion_tokens,
  cost_nano_usd = usage_rollups.cost_nano_usd + excluded.cost_nano_usd,
  priced_events = usage_rollups.priced_events + excluded.priced_events,
  latency_ms = usage_rollups.latency_ms + excluded.latency_ms,
  timed_events = usage_rollups.timed_events + excluded.timed_events`);
const KEY = sql.raw('organization_id, dimension, dimension_id, hour_on, kind, status');

/** The start of the event's UTC hour, in the form the dialect stores instants. */
const hourOf = (d: Dialect, instant: string) =>
  d.name === 'sqlite' ? sql.raw(`substr(${instant}, 1, 13) || ':00:00.000Z'`) : sql.raw(`date_trunc('hour', ${instant} at time zone 'UTC') at time zone 'UTC'`);

/** 1 when the expression is not null, else 0. */
const present = (expression: string) => sql.raw(`case when ${expression} is null then 0 else 1 end`);

/**
 * The rows one event adds to (sign 1) or takes from (sign -1): the organization's, and its agent's,
 * user's, project's, team's, and (for an event of no agent) its corpus's.
 */
function applyEvent(d: Dialect, e: string, sign: '' | '-'): RawBuilder<unknown> {
  const dimensions = sql.raw(`select 'all' as dimension, 0 as dimension_id
      union all select 'agent', ${e}.agent_id where ${e}.agent_id is not null
      union all select 'user', ${e}.user_id where ${e}.user_id is not null
      union all select 'project', ${e}.project_id where ${e}.project_id is not null
      union all select 'team', ${e}.team_id where ${e}.team_id is not null
      union all select 'corpus', ${e}.corpus_id where ${e}.corpus_id is not null and ${e}.agent_id is null`);
  return sql`insert into usage_rollups (${COLUMNS})
    select ${sql.raw(`${e}.organization_id`)}, d.dimension, d.dimension_id, ${hourOf(d, `${e}.occurred_on`)}, ${sql.raw(`${e}.kind, coalesce(${e}.status, '')`)},
      ${sql.raw(`${sign}1, ${sign}${e}.prompt_tokens, ${sign}${e}.completion_tokens, ${sign}coalesce(${e}.cost_nano_usd, 0)`)},
      ${sql.raw(sign)}${present(`${e}.cost_nano_usd`)}, ${sql.raw(`${sign}coalesce(${e}.latency_ms, 0)`)}, ${sql.raw(sign)}${present(`${e}.latency_ms`)}
    from (${dimensions}) d
    where true
    on conflict (${KEY}) do update set ${ADD_UP}`;
}

export async function up(db: Kysely<any>, d: Dialect): Promise<void> {
  const sum = d.idType;
  await db.schema
    .createTable('usage_rollups')
    // No foreign key: the rows follow the events, which go with their organization.
    .addColumn('organization_id', d.idType, (c) => c.notNull())
    .addColumn('dimension', 'text', (c) => c.notNull())
    // 0 for the organization's own row.
    .addColumn('dimension_id', d.idType, (c) => c.notNull())
    .addColumn('hour_on', d.timestampType, (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    // '' for judges and embeddings.
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('events', sum, (c) => c.notNull())
    .addColumn('prompt_tokens', sum, (c) => c.notNull())
    .addColumn('completion_tokens', sum, (c) => c.notNull())
    .addColumn('cost_nano_usd', sum, (c) => c.notNull())
    .addColumn('priced_events', sum, (c) => c.notNull())
    .addColumn('latency_ms', sum, (c) => c.notNull())
    .addColumn('timed_events', sum, (c) => c.notNull())
    .addPrimaryKeyConstraint('usage_rollups_pk', ['organization_id', 'dimension', 'dimension_id', 'hour_on', 'kind', 'status'])
    .execute();

  // The events recorded so far, each counted as the triggers below will count the next ones.
  await backfill(db, d);

  if (d.name === 'sqlite') {
    await sql`create trigger usage_rollups_insert after insert on usage_events begin ${applyEvent(d, 'new', '')}; end`.execute(db);
    await sql`create trigger usage_rollups_delete after delete on usage_events begin ${applyEvent(d, 'old', '-')}; end`.execute(db);
    await sql`create trigger usage_rollups_update after update on usage_events begin ${applyEvent(d, 'old', '-')}; ${applyEvent(d, 'new', '')}; end`.execute(db);
    return;
  }
  await sql`create function usage_rollups_apply(e usage_events, sign integer) returns void language plpgsql as $$
    begin
      insert into usage_rollups (${COLUMNS})
      select e.organization_id, d.dimension, d.dimension_id, date_trunc('hour', e.occurred_on at time zone 'UTC') at time zone 'UTC', e.kind, coalesce(e.status, ''),
        sign, sign * e.prompt_tokens, sign * e.completion_tokens, sign * coalesce(e.cost_nano_usd, 0),
        sign * (case when e.cost_nano_usd is null then 0 else 1 end), sign * coalesce(e.latency_ms, 0), sign * (case when e.latency_ms is null then 0 else 1 end)
      from (values ('all', 0::bigint), ('agent', e.agent_id), ('user', e.user_id), ('project', e.project_id), ('team', e.team_id),
                   ('corpus', case when e.agent_id is null then e.corpus_id end)) as d(dimension, dimension_id)
      where d.dimension_id is not null
      on conflict (${KEY}) do update set ${ADD_UP};
    end $$`.execute(db);
  await sql`create function usage_rollups_maintain() returns trigger language plpgsql as $$
    begin
      if tg_op in ('UPDATE', 'DELETE') then perform usage_rollups_apply(old, -1); end if;
      if tg_op in ('INSERT', 'UPDATE') then perform usage_rollups_apply(new, 1); end if;
      return null;
    end $$`.execute(db);
  await sql`create trigger usage_rollups_maintain after insert or update or delete on usage_events for each row execute function usage_rollups_maintain()`.execute(db);
}

/** Rolls up the events recorded before the triggers, one dimension at a time. */
async function backfill(db: Kysely<any>, d: Dialect): Promise<void> {
  const dimensions: [string, string, string][] = [
    ['all', '0', '1 = 1'],
    ['agent', 'agent_id', 'agent_id is not null'],
    ['user', 'user_id', 'user_id is not null'],
    ['project', 'project_id', 'project_id is not null'],
    ['team', 'team_id', 'team_id is not null'],
    ['corpus', 'corpus_id', 'corpus_id is not null and agent_id is null'],
  ];
  for (const [dimension, column, condition] of dimensions) {
    const hour = hourOf(d, 'occurred_on');
    await sql`insert into usage_rollups (${COLUMNS})
      select organization_id, ${sql.lit(dimension)}, ${sql.raw(column)}, ${hour}, kind, coalesce(status, ''), count(*), sum(prompt_tokens), sum(completion_tokens),
        coalesce(sum(cost_nano_usd), 0), count(cost_nano_usd), coalesce(sum(latency_ms), 0), count(latency_ms)
      from usage_events where ${sql.raw(condition)}
      group by organization_id, ${sql.raw(column === '0' ? '' : `${column}, `)}${hour}, kind, coalesce(status, '')`.execute(db);
  }
}
