// The figures of analytics, read from usage events, votes and ratings, and documents. Every figure is
// a count or a sum (integers, cost in nano-dollars), one row per time span through the dialect's date
// bucketing, so that the service adds points up to totals exactly.
import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Dialect, TimeSpan } from '../../db/dialect.js';
import type { DB } from '../../db/schema.js';
import { documentsOfScope, eventsOfScope, type AnalyticsScope } from './analytics-scope.js';

/** Sum of an integer expression, 0 over no rows; cast so that PostgreSQL answers bigint, not numeric. */
const total = (expression: RawBuilder<unknown>) => sql<number>`cast(coalesce(sum(${expression}), 0) as bigint)`;
/** Rows where the condition holds. */
const countWhere = (condition: RawBuilder<unknown>) => total(sql`case when ${condition} then 1 else 0 end`);

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

  /** Queries, calls, tokens and cost of the scope's usage events, per span. */
  usage(organizationId: number, scope: AnalyticsScope, spans: TimeSpan[]): Promise<UsageFigures[]> {
    const answer = sql`e.kind = 'answer'`;
    const costOf = (kind: string) => total(sql`case when e.kind = ${kind} then e.cost_nano_usd else 0 end`);
    return this.dialect.aggregatePerSpan(this.db, spans, (from, to) =>
      this.db
        .selectFrom('usage_events as e')
        .where('e.organization_id', '=', organizationId)
        .where(eventsOfScope(scope))
        .where('e.occurred_on', '>=', from)
        .where('e.occurred_on', '<', to)
        .select([
          countWhere(answer).as('queries'),
          countWhere(sql`${answer} and e.status = 'completed'`).as('completed'),
          countWhere(sql`${answer} and e.status = 'blocked'`).as('blocked'),
          countWhere(sql`${answer} and e.status = 'failed'`).as('failed'),
          countWhere(sql`e.kind = 'judge'`).as('judge_calls'),
          countWhere(sql`e.kind = 'embedding'`).as('embedding_calls'),
          total(sql`e.prompt_tokens`).as('prompt_tokens'),
          total(sql`e.completion_tokens`).as('completion_tokens'),
          total(sql`e.cost_nano_usd`).as('cost_nano_usd'),
          costOf('answer').as('answer_cost_nano_usd'),
          costOf('judge').as('judge_cost_nano_usd'),
          costOf('embedding').as('embedding_cost_nano_usd'),
          countWhere(sql`e.cost_nano_usd is null`).as('unpriced_calls'),
          total(sql`case when ${answer} then e.latency_ms else 0 end`).as('latency_ms'),
          countWhere(sql`${answer} and e.latency_ms is not null`).as('timed_answers'),
        ]),
    );
  }

  /** Up and down votes cast (or last changed) in each span on the scope's responses, whose answer events say the scope. */
  votes(organizationId: number, scope: AnalyticsScope, spans: TimeSpan[]): Promise<VoteFigures[]> {
    return this.dialect.aggregatePerSpan(this.db, spans, (from, to) =>
      this.db
        .selectFrom('response_votes as v')
        .innerJoin('usage_events as e', (join) => join.onRef('e.response_id', '=', 'v.response_id').on('e.kind', '=', 'answer'))
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
        .innerJoin('usage_events as e', (join) => join.onRef('e.response_id', '=', 'r.response_id').on('e.kind', '=', 'answer'))
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

  /** The most active agents, users, corpora or projects of the scope over the range: most queries first, then most cost. */
  async mostActive(organizationId: number, scope: AnalyticsScope, entity: ActiveEntity, range: TimeSpan, limit: number): Promise<ActiveRow[]> {
    const inRange = sql`e.organization_id = ${organizationId} and ${eventsOfScope(scope)} and e.occurred_on >= ${range.from} and e.occurred_on < ${range.to}`;
    const figures = sql`count(case when x.kind = 'answer' then 1 end) as queries,
      cast(coalesce(sum(x.prompt_tokens), 0) as bigint) as prompt_tokens,
      cast(coalesce(sum(x.completion_tokens), 0) as bigint) as completion_tokens,
      cast(coalesce(sum(x.cost_nano_usd), 0) as bigint) as cost_nano_usd`;
    const columns = sql`e.kind, e.prompt_tokens, e.completion_tokens, e.cost_nano_usd`;
    const dimension = { agents: sql.ref('e.agent_id'), users: sql.ref('e.user_id'), projects: sql.ref('e.project_id') } as const;
    // A corpus counts its own events (embeddings) and those of the agents connected to it now.
    const events =
      entity === 'corpora'
        ? sql`select ca.corpus_id as id, ${columns} from usage_events e join corpus_agents ca on ca.agent_id = e.agent_id
              where ${inRange} and (e.corpus_id is null or e.corpus_id <> ca.corpus_id)
            union all
            select e.corpus_id as id, ${columns} from usage_events e where ${inRange} and e.corpus_id is not null`
        : sql`select ${dimension[entity]} as id, ${columns} from usage_events e where ${inRange} and ${dimension[entity]} is not null`;
    const { rows } = await sql<ActiveRow>`select x.id, ${figures} from (${events}) x group by x.id
      order by queries desc, cost_nano_usd desc, x.id limit ${limit}`.execute(this.db);
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
