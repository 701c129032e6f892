// Evaluations: datasets of queries with what a good answer holds, metric definitions (the built-in
// ones seeded here, each organization's own), evaluations of an agent's checkpoint over a dataset,
// and their results: one row per query (the answer and what it cited) and one per query and metric
// (the score). Results copy the query they answer, so that changing or deleting a dataset never
// changes an evaluation already made. The jobs table gains the evaluation a job runs.
// Frozen: change the schema in a new migration.
import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../dialect.js';

/** The built-in metrics as this migration seeds them (their definitions live in src/evaluation/). */
const BUILTIN_METRICS = [
  ['exact_match', 'Exact match'],
  ['contains', 'Contains the expected answer'],
  ['token_f1', 'Token F1'],
  ['rouge_l', 'ROUGE-L'],
  ['answer_length', 'Answer length'],
  ['latency', 'Latency'],
  ['cost', 'Cost'],
  ['hit_at_k', 'Hit@5'],
  ['recall_at_k', 'Recall@5'],
  ['precision_at_k', 'Precision@5'],
  ['mrr', 'Mean reciprocal rank'],
  ['citation_precision', 'Citation precision'],
  ['citation_recall', 'Citation recall'],
  ['semantic_similarity', 'Semantic similarity'],
  ['faithfulness', 'Faithfulness'],
  ['answer_relevance', 'Answer relevance'],
  ['correctness', 'Correctness'],
] as const;

export async function up(db: Kysely<any>, d: Dialect): Promise<void> {
  await db.schema
    .createTable('evaluation_datasets')
    .addColumn('id', d.idType, d.idColumn)
    .addColumn('organization_id', d.idType, (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_on', d.timestampType, (c) => c.notNull())
    .addColumn('created_by', d.idType, (c) => c.notNull().references('users.id'))
    .addColumn('modified_on', d.timestampType, (c) => c.notNull())
    .addColumn('modified_by', d.idType, (c) => c.notNull().references('users.id'))
    .execute();
  await db.schema.createIndex('evaluation_datasets_name_unique').on('evaluation_datasets').columns(['organization_id', 'name']).unique().execute();

  await db.schema
    .createTable('evaluation_queries')
    .addColumn('id', d.idType, d.idColumn)
    .addColumn('organization_id', d.idType, (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('dataset_id', d.idType, (c) => c.notNull().references('evaluation_datasets.id').onDelete('cascade'))
    .addColumn('question', 'text', (c) => c.notNull())
    .addColumn('expected_answer', 'text')
    // JSON: document ids (integers) and source names (strings).
    .addColumn('expected_sources', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('tags', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('created_on', d.timestampType, (c) => c.notNull())
    .addColumn('created_by', d.idType, (c) => c.notNull().references('users.id'))
    .addColumn('modified_on', d.timestampType, (c) => c.notNull())
    .addColumn('modified_by', d.idType, (c) => c.notNull().references('users.id'))
    .execute();
  await db.schema.createIndex('evaluation_queries_dataset').on('evaluation_queries').columns(['dataset_id', 'id']).execute();

  await db.schema
    .createTable('evaluation_metrics')
    .addColumn('id', d.idType, d.idColumn)
    // null on the built-in metrics, which every organization sees.
    .addColumn('organization_id', d.idType, (c) => c.references('organizations.id').onDelete('cascade'))
    .addColumn('builtin', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    // JSON object: the kind's parameters (k, pattern, text, unit…).
    .addColumn('parameters', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('threshold', d.floatType)
    .addColumn('rubric', 'text')
    .addColumn('llm_configuration_id', d.idType, (c) => c.references('llm_configurations.id').onDelete('set null'))
    .addColumn('created_on', d.timestampType)
    .addColumn('created_by', d.idType, (c) => c.references('users.id'))
    .addColumn('modified_on', d.timestampType)
    .addColumn('modified_by', d.idType, (c) => c.references('users.id'))
    .execute();
  await db.schema.createIndex('evaluation_metrics_name_unique').on('evaluation_metrics').columns(['organization_id', 'name']).unique().execute();
  await db.schema.createIndex('evaluation_metrics_builtin_kind').on('evaluation_metrics').column('kind').unique().where(sql.ref('builtin'), '=', 1).execute();
  await db
    .insertInto('evaluation_metrics')
    .values(BUILTIN_METRICS.map(([kind, name]) => ({ organization_id: null, builtin: 1, kind, name })))
    .execute();

  await db.schema
    .createTable('evaluations')
    .addColumn('id', d.idType, d.idColumn)
    .addColumn('organization_id', d.idType, (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('agent_id', d.idType, (c) => c.notNull().references('agents.id').onDelete('cascade'))
    // The checkpoint evaluated: the one asked for, or the agent's newest record when it was created.
    .addColumn('history_id', d.idType, (c) => c.notNull().references('agent_history.id').onDelete('cascade'))
    .addColumn('dataset_id', d.idType, (c) => c.references('evaluation_datasets.id').onDelete('set null'))
    .addColumn('judge_llm_configuration_id', d.idType, (c) => c.references('llm_configurations.id').onDelete('set null'))
    // JSON: the metric definitions as they were when the evaluation was created.
    .addColumn('metrics', 'text', (c) => c.notNull())
    // queued, running, completed, cancelled, budget_exhausted, failed
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('concurrency', 'integer', (c) => c.notNull())
    .addColumn('cost_budget_usd', d.floatType)
    // Whole nano-dollars spent on answers and judges so far: sums of integers are exact.
    .addColumn('spent_nano_usd', d.idType, (c) => c.notNull().defaultTo(0))
    .addColumn('total_queries', 'integer', (c) => c.notNull())
    .addColumn('error', 'text')
    .addColumn('started_on', d.timestampType)
    .addColumn('finished_on', d.timestampType)
    .addColumn('created_on', d.timestampType, (c) => c.notNull())
    .addColumn('created_by', d.idType, (c) => c.notNull().references('users.id'))
    .addColumn('modified_on', d.timestampType, (c) => c.notNull())
    .addColumn('modified_by', d.idType, (c) => c.notNull().references('users.id'))
    .execute();
  await db.schema.createIndex('evaluations_organization').on('evaluations').columns(['organization_id', 'id']).execute();
  await db.schema.createIndex('evaluations_agent').on('evaluations').columns(['organization_id', 'agent_id', 'id']).execute();
  await db.schema.createIndex('evaluations_dataset').on('evaluations').columns(['organization_id', 'dataset_id', 'id']).execute();

  await db.schema
    .createTable('evaluation_tags')
    .addColumn('evaluation_id', d.idType, (c) => c.notNull().references('evaluations.id').onDelete('cascade'))
    .addColumn('organization_id', d.idType, (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('tag', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('evaluation_tags_pk', ['evaluation_id', 'tag'])
    .execute();
  await db.schema.createIndex('evaluation_tags_tag').on('evaluation_tags').columns(['organization_id', 'tag', 'evaluation_id']).execute();

  await db.schema
    .createTable('evaluation_results')
    .addColumn('id', d.idType, d.idColumn)
    .addColumn('organization_id', d.idType, (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('evaluation_id', d.idType, (c) => c.notNull().references('evaluations.id').onDelete('cascade'))
    // The query answered; it may be deleted since (the copy below stays).
    .addColumn('query_id', d.idType)
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('question', 'text', (c) => c.notNull())
    .addColumn('expected_answer', 'text')
    .addColumn('expected_sources', 'text', (c) => c.notNull())
    // pending until answered; then completed, blocked (a guardrail) or failed (the agent failed).
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('answer', 'text')
    .addColumn('error', 'text')
    // JSON: the passages the answer cites, and the documents retrieval ranked (for hit@k and friends).
    .addColumn('citations', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('retrieved', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('model', 'text')
    .addColumn('prompt_tokens', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('completion_tokens', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('cost', d.floatType)
    .addColumn('judge_cost', d.floatType)
    .addColumn('latency_ms', 'integer')
    .addColumn('answered_on', d.timestampType)
    .execute();
  await db.schema.createIndex('evaluation_results_position').on('evaluation_results').columns(['evaluation_id', 'position']).unique().execute();
  await db.schema.createIndex('evaluation_results_status').on('evaluation_results').columns(['evaluation_id', 'status', 'position']).execute();

  await db.schema
    .createTable('evaluation_scores')
    .addColumn('result_id', d.idType, (c) => c.notNull().references('evaluation_results.id').onDelete('cascade'))
    .addColumn('evaluation_id', d.idType, (c) => c.notNull().references('evaluations.id').onDelete('cascade'))
    .addColumn('metric_id', d.idType, (c) => c.notNull())
    // ok (with a score), undetermined or error
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('score', d.floatType)
    .addColumn('passed', 'integer')
    .addColumn('reason', 'text')
    .addPrimaryKeyConstraint('evaluation_scores_pk', ['result_id', 'metric_id'])
    .execute();
  await db.schema.createIndex('evaluation_scores_metric').on('evaluation_scores').columns(['evaluation_id', 'metric_id', 'status']).execute();

  // The evaluation an `evaluation.run` job runs; deleting the evaluation drops its job.
  await db.schema.alterTable('jobs').addColumn('evaluation_id', d.idType, (c) => c.references('evaluations.id').onDelete('cascade')).execute();
  await db.schema.createIndex('jobs_evaluation').on('jobs').columns(['evaluation_id']).execute();
}
