// The figures of analytics, read from usage events, votes and ratings, and documents. Every figure is
// a count or a sum (integers, cost in nano-dollars), one row per time span through the dialect's date
// bucketing, so that the service adds points up to totals exactly.
import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Dialect, TimeSpan } from '../../db/dialect.js';
import type { DB } from '../../db/schema.js';
import { documentsOfScope, eventsOfScope, rollupsOfScope, type AnalyticsScope } from './analytics-scope.js';
import { cutAtHours } from './hour-spans.js';

/** Sum of an integer expression, 0 over no rows; cast so that PostgreSQL answers bigint, not numeric. */
const total = (expression: RawBuilder<unknown>) => sql<number>`cast(coalesce(sum(${expression}), 0) as bigint)`;
/** Rows where the condition holds. */
const countWhere = (condition: RawBuilder<unknown>) => total(sql`case when ${condition} then 1 else 0 end`);

/** Each usage figure: its name, what one event adds (alias e), what one rollup row adds (alias r). */
const USAGE_FIGURES: [keyof UsageFigures, RawBuilder<unknown>, RawBuilder<unknown>][] = [
  ...(
    [
      ['queries', "kind = 'answer'"],
      ['completed', "kind = 'answer' and {}.status = 'completed'"],
      ['blocked', "kind = 'answer' and {}.status = 'blocked'"],
      ['failed', "kind = 'answer' and {}.status = 'failed'"],
      ['judge_calls', "kind = 'judge'"],
      ['embedding_calls', "kind = 'embedding'"],
    ] as const
  ).map(([name, condition]): [keyof UsageFigures, RawBuilder<unknown>, RawBuilder<unknown>] => [
    name,
    sql.raw(`case when e.${condition.replaceAll('{}', 'e')} then 1 else 0 end`),
    sql.raw(`case when r.${condition.replaceAll('{}', 'r')} then r.events else 0 end`),
  ]),
  ['prompt_tokens', sql`e.prompt_tokens`, sql`r.prompt_tokens`],
  ['completion_tokens', sql`e.completion_tokens`, sql`r.completion_tokens`],
  ['cost_nano_usd', sql`e.cost_nano_usd`, sql`r.cost_nano_usd`],
  ...(['answer', 'judge', 'embedding'] as const).map((kind): [keyof UsageFigures, RawBuilder<unknown>, RawBuilder<unknown>] => [
    `${kind}_cost_nano_usd`,
    sql.raw(`case when e.kind = '${kind}' then e.cost_nano_usd else 0 end`),
    sql.raw(`case when r.kind = '${kind}' then r.cost_nano_usd else 0 end`),
  ]),
  ['unpriced_calls', sql`case when e.cost_nano_usd is null then 1 else 0 end`, sql`r.events - r.priced_events`],
  ['latency_ms', sql`case when e.kind = 'answer' then e.latency_ms else 0 end`, sql`case when r.kind = 'answer' then r.latency_ms else 0 end`],
  ['timed_answers', sql`case when e.kind = 'answer' and e.latency_ms is not null then 1 else 0 end`, sql`case when r.kind = 'answer' then r.timed_events else 0 end`],
];

export interface UsageFigures {
  queries: number;
  completed: number;
  blocked: number;
  failed: number;
  judge_calls: number;
  embedding_calls: number;
  prompt_tokens: number;
  completion_tokens: number;
  cost_nano_usd: number;
  answer_cost_nano_usd: number;
  judge_cost_nano_usd: number;
  embedding_cost_nano_usd: number;
  unpriced_calls: number;
  latency_ms: number;
  timed_answers: number;
}

export interface VoteFigures {
  up: number;
  down: number;
}

export interface RatingFigures {
  ratings: number;
  rating_sum: number;
}

export interface DocumentFigures {
  documents: number;
  queued: number;
  extracting: number;
  chunking: number;
  embedding: number;
  indexed: number;
  failed: number;
}

export interface IndexingFigures {
  documents_full_text: number;
  documents_vector: number;
  documents_hybrid: number;
  chunks_full_text: number;
  chunks_vector: number;
  chunks_hybrid: number;
}

export const ACTIVE_ENTITIES = ['agents', 'users', 'corpora', 'projects'] as const;
export type ActiveEntity = (typeof ACTIVE_ENTITIES)[number];

export interface ActiveRow {
  id: number;
  queries: number;
  prompt_tokens: number;
  completion_tokens: number;
  cost_nano_usd: number;
}

export class AnalyticsRepo {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly dialect: Dialect,
  ) {}

  /**
   * Queries, calls, tokens and cost of the scope's usage events, per span (spans in order, apart).
   * The whole UTC hours of the spans are read from the hourly rollups in one statement, hour by hour,
   * and each hour added to its span here; what is left at a span's ends is counted from the events.
   */
  async usage(organizationId: number, scope: AnalyticsScope, spans: TimeSpan[]): Promise<UsageFigures[]> {
    const cuts = spans.map(cutAtHours);
    const edges = cuts.flatMap((cut, position) => cut.edges.map((span) => ({ span, position })));
    const covered = cuts.flatMap((cut, position) => (cut.hours ? [{ from: Date.parse(cut.hours.from), to: Date.parse(cut.hours.to), position }] : []));
    const [hourly, counted] = await Promise.all([
      covered.length === 0
        ? []
        : this.db
            .selectFrom('usage_rollups as r')
            .where('r.organization_id', '=', organizationId)
            .where(rollupsOfScope(scope))
            .where('r.hour_on', '>=', new Date(covered[0]!.from).toISOString())
            .where('r.hour_on', '<', new Date(covered.at(-1)!.to).toISOString())
            .groupBy('r.hour_on')
            .orderBy('r.hour_on')
            .select((eb) => [eb.ref('r.hour_on').as('hour_on'), ...USAGE_FIGURES.map(([name, , ofRollup]) => total(ofRollup).as(name))])
            .execute(),
      this.usageOfEvents(
        organizationId,
        scope,
        edges.map((part) => part.span),
      ),
    ]);
    const sums = spans.map(() => Object.fromEntries(USAGE_FIGURES.map(([name]) => [name, 0])) as unknown as UsageFigures);
    const add = (into: UsageFigures, row: object) => {
      for (const [name] of USAGE_FIGURES) into[name] += Number((row as Record<string, unknown>)[name]);
    };
    // Hours and spans both in order: one walk puts each hour in the span that holds it whole.
    let next = 0;
    for (const row of hourly) {
      const hour = Date.parse(row.hour_on);
      while (next < covered.length && covered[next]!.to <= hour) next++;
      const span = covered[next];
      if (span && span.from <= hour) add(sums[span.position]!, row);
    }
    edges.forEach((part, i) => add(sums[part.position]!, counted[i]!));
    return sums;
  }

  /** The same figures counted from the events themselves, per span (the rollups must always agree). */
  usageOfEvents(organizationId: number, scope: AnalyticsScope, spans: TimeSpan[]): Promise<UsageFigures[]> {
    return this.dialect.aggregatePerSpan(this.db, spans, (from, to) =>
      this.db
        .selectFrom('usage_events as e')
        .where('e.organization_id', '=', organizationId)
        .where(eventsOfScope(scope))
        .where('e.occurred_on', '>=', from)
        .where('e.occurred_on', '<', to)
        .select(USAGE_FIGURES.map(([name, ofEvent]) => total(ofEvent).as(name))),
    );
  }

  /** Up and down votes cast (or last changed) in each span on the scope's responses, whose answer events say the scope. */
  votes(organizationId: number, scope: AnalyticsScope, spans: TimeSpan[]): Promise<VoteFigures[]> {
    return this.dialect.aggregatePerSpan(this.db, spans, (from, to) =>
      this.db
        .selectFrom('response_votes as v')
        // Written as a cross join so that SQLite reads the span's rows first (its planner keeps this order).
        .crossJoin('usage_events as e')
        .whereRef('e.response_id', '=', 'v.response_id')
        .where('e.kind', '=', 'answer')
        .where('e.organization_id', '=', organizationId)
        .where(eventsOfScope(scope))
        .where('v.modified_on', '>=', from)
        .where('v.modified_on', '<', to)
        .select([countWhere(sql`v.vote = 'up'`).as('up'), countWhere(sql`v.vote = 'down'`).as('down')]),
    );
  }

  /** Ratings given (or last changed) in each span on the scope's responses. */
  ratings(organizationId: number, scope: AnalyticsScope, spans: TimeSpan[]): Promise<RatingFigures[]> {
    return this.dialect.aggregatePerSpan(this.db, spans, (from, to) =>
      this.db
        .selectFrom('response_ratings as r')
        // Written as a cross join so that SQLite reads the span's rows first (its planner keeps this order).
        .crossJoin('usage_events as e')
        .whereRef('e.response_id', '=', 'r.response_id')
        .where('e.kind', '=', 'answer')
        .where('e.organization_id', '=', organizationId)
        .where(eventsOfScope(scope))
        .where('r.modified_on', '>=', from)
        .where('r.modified_on', '<', to)
        .select([countWhere(sql`1 = 1`).as('ratings'), total(sql`r.rating`).as('rating_sum')]),
    );
  }

  /** Documents added in each span (and not deleted), by the step they are at now and whether it failed. */
  documents(organizationId: number, scope: AnalyticsScope, spans: TimeSpan[]): Promise<DocumentFigures[]> {
    const atStep = (step: string) => countWhere(sql`d.failed_on is null and d.step = ${step}`);
    return this.dialect.aggregatePerSpan(this.db, spans, (from, to) =>
      this.db
        .selectFrom('documents as d')
        .where('d.organization_id', '=', organizationId)
        .where('d.deleted_on', 'is', null)
        .where(documentsOfScope(organizationId, scope))
        .where('d.created_on', '>=', from)
        .where('d.created_on', '<', to)
        .select([
          countWhere(sql`1 = 1`).as('documents'),
          atStep('queued').as('queued'),
          atStep('extracting').as('extracting'),
          atStep('chunking').as('chunking'),
          atStep('embedding').as('embedding'),
          atStep('indexed').as('indexed'),
          countWhere(sql`d.failed_on is not null`).as('failed'),
        ]),
    );
  }

  /**
   * Documents indexed in each span, and their chunks, by how they can be found: by their terms (full
   * text), by their vector, or both (hybrid). A document is hybrid when it can be found both ways.
   * `vectorTable`: the vector table exists (it is made with the first vectors).
   */
  indexing(organizationId: number, scope: AnalyticsScope, spans: TimeSpan[], vectorTable: boolean): Promise<IndexingFigures[]> {
    const hasTerms = sql`(c.search_body <> '' or c.search_title <> '' or c.search_heading <> '')`;
    const hasVector = vectorTable ? sql`v.chunk_id is not null` : sql`1 = 0`;
    return this.dialect.aggregatePerSpan(this.db, spans, (from, to) => {
      let chunks = this.db
        .selectFrom('documents as d')
        .innerJoin('chunks as c', 'c.document_id', 'd.id')
        .where('d.organization_id', '=', organizationId)
        .where('d.deleted_on', 'is', null)
        .where('d.failed_on', 'is', null)
        .where('d.step', '=', 'indexed')
        .where(documentsOfScope(organizationId, scope))
        .where('d.indexed_on', '>=', from)
        .where('d.indexed_on', '<', to);
      if (vectorTable) chunks = chunks.leftJoin('chunk_vectors as v', 'v.chunk_id', 'c.id');
      const perDocument = chunks
        .groupBy('d.id')
        .select([
          countWhere(sql`${hasTerms} and ${hasVector}`).as('both_ways'),
          countWhere(sql`not ${hasTerms} and ${hasVector}`).as('vector_only'),
          countWhere(sql`${hasTerms} and not ${hasVector}`).as('terms_only'),
        ])
        .as('x');
      return this.db
        .selectFrom(perDocument)
        .select([
          countWhere(sql`x.both_ways = 0 and x.vector_only = 0 and x.terms_only > 0`).as('documents_full_text'),
          countWhere(sql`x.both_ways = 0 and x.vector_only > 0 and x.terms_only = 0`).as('documents_vector'),
          countWhere(sql`x.both_ways > 0 or (x.vector_only > 0 and x.terms_only > 0)`).as('documents_hybrid'),
          total(sql`x.terms_only`).as('chunks_full_text'),
          total(sql`x.vector_only`).as('chunks_vector'),
          total(sql`x.both_ways`).as('chunks_hybrid'),
        ]);
    });
  }

  /**
   * The most active agents, users, corpora or projects of the scope over the range: most queries
   * first, then most cost. The organization's own ranking reads the whole hours from the rollups.
   */
  async mostActive(organizationId: number, scope: AnalyticsScope, entity: ActiveEntity, range: TimeSpan, limit: number): Promise<ActiveRow[]> {
    if (scope.kind !== 'overall') return this.rank(organizationId, entity, eventsOfScope(scope), 'e', 'usage_events', range, limit);
    const cut = cutAtHours(range);
    const parts = await Promise.all([
      ...(cut.hours ? [this.rank(organizationId, entity, sql`1 = 1`, 'r', 'usage_rollups', cut.hours, null)] : []),
      ...cut.edges.map((edge) => this.rank(organizationId, entity, sql`1 = 1`, 'e', 'usage_events', edge, null)),
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
   * A ranking over events (alias e) or rollup rows (alias r). Written from the organization's agents
   * (users, corpora, projects) to their rows, as cross joins that SQLite keeps in that order: each
   * one's rows are then a range of an index on (organization, it, time), and arrive together, grouped
   * without sorting. `limit` null: every one, unsorted, to be added to another part.
   */
  private async rank(
    organizationId: number,
    entity: ActiveEntity,
    scope: RawBuilder<unknown>,
    alias: 'e' | 'r',
    source: 'usage_events' | 'usage_rollups',
    range: TimeSpan,
    limit: number | null,
  ): Promise<ActiveRow[]> {
    const t = sql.raw(alias);
    const time = sql.raw(alias === 'e' ? 'e.occurred_on' : 'r.hour_on');
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
        group by x.id ${order(sql`x.id`)}`.execute(this.db);
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
      ) x group by id ${order(sql`id`)}`.execute(this.db);
    return rows;
  }

  /** Names of the organization's agents, users, corpora or projects. */
  async names(organizationId: number, entity: ActiveEntity, ids: number[]): Promise<Map<number, { name: string; email?: string }>> {
    if (ids.length === 0) return new Map();
    if (entity === 'users') {
      const users = await this.db
        .selectFrom('users')
        .select(['id', 'email', 'first_name', 'last_name'])
        .where('organization_id', '=', organizationId)
        .where('id', 'in', ids)
        .execute();
      return new Map(users.map((user) => [user.id, { name: `${user.first_name} ${user.last_name}`.trim(), email: user.email }]));
    }
    const table = entity === 'agents' ? 'agents' : entity === 'corpora' ? 'corpora' : 'projects';
    const rows = await this.db.selectFrom(table).select(['id', 'name']).where('organization_id', '=', organizationId).where('id', 'in', ids).execute();
    return new Map(rows.map((row) => [row.id, { name: row.name }]));
  }

  /** The agent of the organization (deleted ones too: their figures stay), with its team now. */
  agentTeam(organizationId: number, agentId: number): Promise<{ team_id: number | null } | undefined> {
    return this.db.selectFrom('agents').select('team_id').where('organization_id', '=', organizationId).where('id', '=', agentId).executeTakeFirst();
  }
}
