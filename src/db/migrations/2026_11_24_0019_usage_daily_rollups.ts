// Daily rollups of usage events: the hourly rollups' rows summed by UTC day, so that a range of many
// days reads a row per day instead of twenty-four (rankings of the most active over 90 days read
// 20 times fewer rows, and a day of any zone is a UTC day give or take a few hours read by the hour).
// Same key and sums as usage_rollups, with `day_on` (the UTC midnight) for `hour_on`. Kept by their
// own triggers on usage_events, beside the hourly ones, on insert, update and delete alike; filled
// from the hourly rollups (already the events' sums), a statement per database, without reading an
// event. Frozen: change the schema in a new migration.
import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../dialect.js';

const COLUMNS = sql.raw(
  'organization_id, dimension, dimension_id, day_on, kind, status, events, prompt_tokens, completion_tokens, cost_nano_usd, priced_events, latency_ms, timed_events',
);
const ADD_UP = sql.raw(`events = usage_daily_rollups.events + excluded.events,
  prompt_tokens = usage_daily_rollups.prompt_tokens + excluded.prompt_tokens,
  completion_tokens = usage_daily_rollups.completion_tokens + excluded.completion_tokens,
  cost_nano_usd = usage_daily_rollups.cost_nano_usd + excluded.cost_nano_usd,
  priced_events = usage_daily_rollups.priced_events + excluded.priced_events,
  latency_ms = usage_daily_rollups.latency_ms + excluded.latency_ms,
  timed_events = usage_daily_rollups.timed_events + excluded.timed_events`);
const KEY = sql.raw('organization_id, dimension, dimension_id, day_on, kind, status');

/** The UTC midnight starting the instant's day, in the form the dialect stores instants. */
const dayOf = (d: Dialect, instant: string) =>
  d.name === 'sqlite' ? sql.raw(`substr(${instant}, 1, 10) || 'T00:00:00.000Z'`) : sql.raw(`date_trunc('day', ${instant} at time zone 'UTC') at time zone 'UTC'`);

/** SQLite: the rows one event (new or old) adds to or takes from, as the hourly triggers do. */
function applyEventSqlite(d: Dialect, e: 'new' | 'old', sign: '' | '-') {
  const dimensions = sql.raw(`select 'all' as dimension, 0 as dimension_id
      union all select 'agent', ${e}.agent_id where ${e}.agent_id is not null
      union all select 'user', ${e}.user_id where ${e}.user_id is not null
      union all select 'project', ${e}.project_id where ${e}.project_id is not null
      union all select 'team', ${e}.team_id where ${e}.team_id is not null
      union all select 'corpus', ${e}.corpus_id where ${e}.corpus_id is not null and ${e}.agent_id is null`);
  const figures = sql.raw(`${sign}1, ${sign}${e}.prompt_tokens, ${sign}${e}.completion_tokens, ${sign}coalesce(${e}.cost_nano_usd, 0),
      ${sign}(case when ${e}.cost_nano_usd is null then 0 else 1 end), ${sign}coalesce(${e}.latency_ms, 0), ${sign}(case when ${e}.latency_ms is null then 0 else 1 end)`);
  // "where true" keeps SQLite from reading the upsert's ON as a join's.
  return sql`insert into usage_daily_rollups (${COLUMNS})
    select ${sql.raw(`${e}.organization_id`)}, d.dimension, d.dimension_id, ${dayOf(d, `${e}.occurred_on`)}, ${sql.raw(`${e}.kind, coalesce(${e}.status, '')`)}, ${figures}
    from (${dimensions}) d
    where true
    on conflict (${KEY}) do update set ${ADD_UP}`;
}

export async function up(db: Kysely<any>, d: Dialect): Promise<void> {
  const sum = d.idType;
  let table = db.schema
    .createTable('usage_daily_rollups')
    // No foreign key: the rows follow the events, which go with their organization.
    .addColumn('organization_id', d.idType, (c) => c.notNull())
    .addColumn('dimension', 'text', (c) => c.notNull())
    .addColumn('dimension_id', d.idType, (c) => c.notNull())
    .addColumn('day_on', d.timestampType, (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('events', sum, (c) => c.notNull())
    .addColumn('prompt_tokens', sum, (c) => c.notNull())
    .addColumn('completion_tokens', sum, (c) => c.notNull())
    .addColumn('cost_nano_usd', sum, (c) => c.notNull())
    .addColumn('priced_events', sum, (c) => c.notNull())
    .addColumn('latency_ms', sum, (c) => c.notNull())
    .addColumn('timed_events', sum, (c) => c.notNull())
    .addPrimaryKeyConstraint('usage_daily_rollups_pk', ['organization_id', 'dimension', 'dimension_id', 'day_on', 'kind', 'status']);
  // SQLite: the rows stored in key order, so that a range of days is one read of the table itself.
  if (d.name === 'sqlite') table = table.modifyEnd(sql`without rowid`);
  await table.execute();

  // The events so far, from their hourly sums.
  await sql`insert into usage_daily_rollups (${COLUMNS})
    select organization_id, dimension, dimension_id, ${dayOf(d, 'hour_on')}, kind, status, sum(events), sum(prompt_tokens), sum(completion_tokens),
      sum(cost_nano_usd), sum(priced_events), sum(latency_ms), sum(timed_events)
    from usage_rollups
    group by organization_id, dimension, dimension_id, ${dayOf(d, 'hour_on')}, kind, status`.execute(db);

  if (d.name === 'sqlite') {
    await sql`create trigger usage_daily_rollups_insert after insert on usage_events begin ${applyEventSqlite(d, 'new', '')}; end`.execute(db);
    await sql`create trigger usage_daily_rollups_delete after delete on usage_events begin ${applyEventSqlite(d, 'old', '-')}; end`.execute(db);
    await sql`create trigger usage_daily_rollups_update after update on usage_events begin ${applyEventSqlite(d, 'old', '-')}; ${applyEventSqlite(d, 'new', '')}; end`.execute(db);
    return;
  }
  await sql`create function usage_daily_rollups_apply(e usage_events, sign integer) returns void language plpgsql as $$
    begin
      insert into usage_daily_rollups (${COLUMNS})
      select e.organization_id, d.dimension, d.dimension_id, date_trunc('day', e.occurred_on at time zone 'UTC') at time zone 'UTC', e.kind, coalesce(e.status, ''),
        sign, sign * e.prompt_tokens, sign * e.completion_tokens, sign * coalesce(e.cost_nano_usd, 0),
        sign * (case when e.cost_nano_usd is null then 0 else 1 end), sign * coalesce(e.latency_ms, 0), sign * (case when e.latency_ms is null then 0 else 1 end)
      from (values ('all', 0::bigint), ('agent', e.agent_id), ('user', e.user_id), ('project', e.project_id), ('team', e.team_id),
                   ('corpus', case when e.agent_id is null then e.corpus_id end)) as d(dimension, dimension_id)
      where d.dimension_id is not null
      on conflict (${KEY}) do update set ${ADD_UP};
    end $$`.execute(db);
  await sql`create function usage_daily_rollups_maintain() returns trigger language plpgsql as $$
    begin
      if tg_op in ('UPDATE', 'DELETE') then perform usage_daily_rollups_apply(old, -1); end if;
      if tg_op in ('INSERT', 'UPDATE') then perform usage_daily_rollups_apply(new, 1); end if;
      return null;
    end $$`.execute(db);
  await sql`create trigger usage_daily_rollups_maintain after insert or update or delete on usage_events for each row execute function usage_daily_rollups_maintain()`.execute(db);
}
