// Usage events: one row per model call the platform pays for (answers, judges, embeddings), with the
// scope dimensions analytics filter and group by. An answer's event is the projection of its response
// row (one per response, kept in step with it), so queries are counted here too. Cost is whole
// nano-dollars so that sums are exact. Dimension columns carry no foreign keys: the figures of an
// agent, corpus or person stay after they are gone. Existing responses are backfilled so that the
// figures agree from the first day.
// Frozen: change the schema in a new migration.
import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../dialect.js';

export async function up(db: Kysely<any>, d: Dialect): Promise<void> {
  await db.schema
    .createTable('usage_events')
    .addColumn('id', d.idType, d.idColumn)
    .addColumn('organization_id', d.idType, (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    // answer, judge or embedding
    .addColumn('kind', 'text', (c) => c.notNull())
    // An answer's response status (completed, blocked, failed); null for judges and embeddings.
    .addColumn('status', 'text')
    .addColumn('agent_id', d.idType)
    .addColumn('corpus_id', d.idType)
    .addColumn('project_id', d.idType)
    .addColumn('team_id', d.idType)
    .addColumn('user_id', d.idType)
    .addColumn('response_id', d.idType)
    .addColumn('evaluation_id', d.idType)
    .addColumn('document_id', d.idType)
    .addColumn('model', 'text', (c) => c.notNull())
    .addColumn('llm_configuration_id', d.idType)
    .addColumn('prompt_tokens', 'integer', (c) => c.notNull())
    .addColumn('completion_tokens', 'integer', (c) => c.notNull())
    .addColumn('tokens_estimated', 'integer', (c) => c.notNull().defaultTo(0))
    // null: a price was unknown.
    .addColumn('cost_nano_usd', d.idType)
    .addColumn('latency_ms', 'integer')
    .addColumn('occurred_on', d.timestampType, (c) => c.notNull())
    .execute();
  // Every figure is a count or sum over a range of one organization's events, alone or by one
  // dimension: each index holds the figures summed, so that a range is read from the index alone.
  const figures = ['kind', 'status', 'prompt_tokens', 'completion_tokens', 'cost_nano_usd', 'latency_ms'];
  await db.schema
    .createIndex('usage_events_occurred')
    .on('usage_events')
    .columns(['organization_id', 'occurred_on', ...figures])
    .execute();
  for (const dimension of ['agent_id', 'corpus_id', 'project_id', 'team_id', 'user_id']) {
    await db.schema
      .createIndex(`usage_events_${dimension.replace(/_id$/, '')}`)
      .on('usage_events')
      .columns(['organization_id', dimension, 'occurred_on', ...figures])
      .execute();
  }
  await db.schema.createIndex('usage_events_evaluation').on('usage_events').columns(['evaluation_id']).execute();
  // An answer is recorded once, whoever records it (the runtime, or this backfill).
  await db.schema
    .createIndex('usage_events_one_per_answer')
    .on('usage_events')
    .column('response_id')
    .unique()
    .where(sql.ref('kind'), '=', 'answer')
    .execute();

  // Votes, ratings and documents are counted by when they were given or added.
  await db.schema.createIndex('response_votes_modified').on('response_votes').columns(['modified_on', 'response_id']).execute();
  await db.schema.createIndex('response_ratings_modified').on('response_ratings').columns(['modified_on', 'response_id']).execute();
  await db.schema.createIndex('documents_created').on('documents').columns(['organization_id', 'created_on']).execute();
  await db.schema.createIndex('documents_indexed').on('documents').columns(['organization_id', 'indexed_on']).execute();

  await backfillAnswerEvents(db);
}

/** An answer event for every response that has none; running it again adds nothing. */
export async function backfillAnswerEvents(db: Kysely<any>): Promise<void> {
  // "where true" keeps SQLite from reading the upsert's ON as a join's.
  await sql`
    insert into usage_events (organization_id, kind, status, agent_id, project_id, team_id, user_id, response_id, model,
      llm_configuration_id, prompt_tokens, completion_tokens, tokens_estimated, cost_nano_usd, latency_ms, occurred_on)
    select r.organization_id, 'answer', r.status, r.agent_id, r.project_id, a.team_id, r.created_by, r.id, r.model,
      r.llm_configuration_id, r.prompt_tokens, r.completion_tokens, r.tokens_estimated,
      cast(round(r.cost * 1000000000) as bigint), r.latency_ms, r.created_on
    from agent_responses r left join agents a on a.id = r.agent_id
    where true
    order by r.id
    on conflict (response_id) where kind = 'answer' do nothing
  `.execute(db);
}
