// The figures of analytics, read from usage events (through their daily and hourly rollups), votes and
// ratings, and documents. Every figure is a count or a sum (integers, cost in nano-dollars), one row
// per time span, so that the service adds points up to totals exactly.
import { sql, type Kysely } from 'kysely';
import type { Dialect, TimeSpan } from '../../db/dialect.js';
import type { DB } from '../../db/schema.js';
import { rollupKeysOfScope, type AnalyticsScope } from './analytics-scope.js';
import { documentsOfScope, eventsOfScope } from './scope-conditions.sql.js';
import { rankMostActive, type ActiveEntity, type ActiveRow } from './ranking.sql.js';
import { aggregatePerSpanByHour } from './per-hour.sql.js';
import { usageFromRollups } from './rollup-reads.sql.js';
import { countWhere, total, USAGE_FIGURES, type UsageFigures } from './usage-figures.sql.js';

export { ACTIVE_ENTITIES, type ActiveEntity, type ActiveRow } from './ranking.sql.js';
export type { UsageFigures } from './usage-figures.sql.js';

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

export class AnalyticsRepo {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly dialect: Dialect,
  ) {}

  /**
   * Queries, calls, tokens and cost of the scope's usage events, per span (spans in order, apart):
   * from the daily and hourly rollups where they answer, from the events for the rest (rollup-plan.ts).
   */
  async usage(organizationId: number, scope: AnalyticsScope, spans: TimeSpan[]): Promise<UsageFigures[]> {
    const connected = scope.kind === 'corpus' ? await this.connectedAgents(scope.id) : [];
    return usageFromRollups(this.db, this.dialect, organizationId, rollupKeysOfScope(scope, connected), spans, (edges) =>
      this.usageOfEvents(organizationId, scope, edges),
    );
  }

  /** The agents connected to the corpus now. */
  private async connectedAgents(corpusId: number): Promise<number[]> {
    const rows = await this.db.selectFrom('corpus_agents').select('agent_id').where('corpus_id', '=', corpusId).orderBy('agent_id').execute();
    return rows.map((row) => Number(row.agent_id));
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
    return aggregatePerSpanByHour(this.db, this.dialect, spans, 'v.modified_on', ['up', 'down'], (from, to) =>
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
    return aggregatePerSpanByHour(this.db, this.dialect, spans, 'r.modified_on', ['ratings', 'rating_sum'], (from, to) =>
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
    // Span by span: grouping its 20,000 documents by hour cost SQLite more (a sort) than 90 range reads.
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

  /** The most active agents, users, corpora or projects of the scope over the range (ranking.ts). */
  mostActive(organizationId: number, scope: AnalyticsScope, entity: ActiveEntity, range: TimeSpan, limit: number): Promise<ActiveRow[]> {
    return rankMostActive(this.db, organizationId, scope, entity, range, limit);
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
