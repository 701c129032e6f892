// The agent runtime: LLM configurations, what of an agent's configuration decides how it answers,
// chat threads, agent responses and what people say about them. Frozen: change the schema in a new
// migration.
import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../dialect.js';

export async function up(db: Kysely<any>, d: Dialect): Promise<void> {
  await db.schema
    .createTable('llm_configurations')
    .addColumn('id', d.idType, d.idColumn)
    .addColumn('organization_id', d.idType, (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('model', 'text', (c) => c.notNull())
    .addColumn('base_url', 'text')
    .addColumn('api_version', 'text')
    // The key sealed with the server's secret key; key_id names which key, so that keys can rotate.
    .addColumn('api_key_sealed', 'text')
    .addColumn('api_key_key_id', 'text')
    .addColumn('api_key_hint', 'text')
    .addColumn('input_price_per_million', d.floatType)
    .addColumn('output_price_per_million', d.floatType)
    .addColumn('context_window', 'integer')
    // 1 on the organization's default configuration, 0 on the others (better-sqlite3 binds no booleans).
    .addColumn('is_default', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_on', d.timestampType, (c) => c.notNull())
    .addColumn('created_by', d.idType, (c) => c.notNull().references('users.id'))
    .addColumn('modified_on', d.timestampType, (c) => c.notNull())
    .addColumn('modified_by', d.idType, (c) => c.notNull().references('users.id'))
    .execute();
  await db.schema.createIndex('llm_configurations_name_unique').on('llm_configurations').columns(['organization_id', 'name']).unique().execute();
  // At most one default an organization, held by the database itself.
  await db.schema
    .createIndex('llm_configurations_one_default')
    .on('llm_configurations')
    .column('organization_id')
    .unique()
    .where(sql.ref('is_default'), '=', 1)
    .execute();

  // Which configuration answers (null: the organization's default) and how passages are chosen
  // (JSON: passages per answer, minimum score). Connected corpora stay in corpus_agents.
  await db.schema.alterTable('agents').addColumn('llm_configuration_id', d.idType).execute();
  await db.schema.alterTable('agents').addColumn('retrieval', 'text', (c) => c.notNull().defaultTo('{}')).execute();

  await db.schema
    .createTable('chat_threads')
    .addColumn('id', d.idType, d.idColumn)
    .addColumn('organization_id', d.idType, (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('agent_id', d.idType, (c) => c.notNull().references('agents.id').onDelete('cascade'))
    .addColumn('user_id', d.idType, (c) => c.notNull().references('users.id'))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('pinned', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_activity_on', d.timestampType, (c) => c.notNull())
    .addColumn('created_on', d.timestampType, (c) => c.notNull())
    .addColumn('created_by', d.idType, (c) => c.notNull().references('users.id'))
    .addColumn('modified_on', d.timestampType, (c) => c.notNull())
    .addColumn('modified_by', d.idType, (c) => c.notNull().references('users.id'))
    // A deleted thread leaves every view; its responses stay for cost and usage figures.
    .addColumn('deleted_on', d.timestampType)
    .execute();
  await db.schema.createIndex('chat_threads_user').on('chat_threads').columns(['organization_id', 'user_id', 'last_activity_on']).execute();
  await db.schema.createIndex('chat_threads_agent').on('chat_threads').columns(['agent_id']).execute();

  await db.schema
    .createTable('chat_thread_tags')
    .addColumn('thread_id', d.idType, (c) => c.notNull().references('chat_threads.id').onDelete('cascade'))
    .addColumn('tag', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('chat_thread_tags_pk', ['thread_id', 'tag'])
    .execute();
  await db.schema.createIndex('chat_thread_tags_tag').on('chat_thread_tags').columns(['tag', 'thread_id']).execute();

  await db.schema
    .createTable('agent_responses')
    .addColumn('id', d.idType, d.idColumn)
    .addColumn('organization_id', d.idType, (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('thread_id', d.idType, (c) => c.notNull().references('chat_threads.id').onDelete('cascade'))
    .addColumn('agent_id', d.idType, (c) => c.notNull().references('agents.id').onDelete('cascade'))
    // The agent's project when it answered, so that a project's responses survive the agent moving.
    .addColumn('project_id', d.idType)
    .addColumn('history_id', d.idType, (c) => c.references('agent_history.id'))
    .addColumn('query', 'text', (c) => c.notNull())
    .addColumn('answer', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('error', 'text')
    .addColumn('citations', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('prompt_tokens', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('completion_tokens', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('tokens_estimated', 'integer', (c) => c.notNull().defaultTo(0))
    // Prices copied from the configuration when the response was made: later price changes do not rewrite past costs.
    .addColumn('input_price_per_million', d.floatType)
    .addColumn('output_price_per_million', d.floatType)
    .addColumn('cost', d.floatType)
    .addColumn('latency_ms', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('first_token_ms', 'integer')
    .addColumn('model', 'text', (c) => c.notNull())
    .addColumn('llm_configuration_id', d.idType)
    .addColumn('tool_calls', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('guardrail_actions', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('pinned_on', d.timestampType)
    .addColumn('pinned_by', d.idType, (c) => c.references('users.id'))
    .addColumn('created_on', d.timestampType, (c) => c.notNull())
    .addColumn('created_by', d.idType, (c) => c.notNull().references('users.id'))
    .execute();
  await db.schema.createIndex('agent_responses_thread').on('agent_responses').columns(['thread_id', 'id']).execute();
  await db.schema.createIndex('agent_responses_created').on('agent_responses').columns(['organization_id', 'created_on']).execute();
  // Chat logs read an organization's responses in keyset batches by id.
  await db.schema.createIndex('agent_responses_organization').on('agent_responses').columns(['organization_id', 'id']).execute();
  await db.schema.createIndex('agent_responses_agent').on('agent_responses').columns(['agent_id', 'created_on']).execute();
  await db.schema.createIndex('agent_responses_project').on('agent_responses').columns(['project_id', 'created_on']).execute();

  await db.schema
    .createTable('response_tags')
    .addColumn('response_id', d.idType, (c) => c.notNull().references('agent_responses.id').onDelete('cascade'))
    .addColumn('tag', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('response_tags_pk', ['response_id', 'tag'])
    .execute();

  // One vote and one rating per user and response, changeable.
  await db.schema
    .createTable('response_votes')
    .addColumn('response_id', d.idType, (c) => c.notNull().references('agent_responses.id').onDelete('cascade'))
    .addColumn('user_id', d.idType, (c) => c.notNull().references('users.id'))
    .addColumn('vote', 'text', (c) => c.notNull())
    .addColumn('modified_on', d.timestampType, (c) => c.notNull())
    .addPrimaryKeyConstraint('response_votes_pk', ['response_id', 'user_id'])
    .execute();
  await db.schema
    .createTable('response_ratings')
    .addColumn('response_id', d.idType, (c) => c.notNull().references('agent_responses.id').onDelete('cascade'))
    .addColumn('user_id', d.idType, (c) => c.notNull().references('users.id'))
    .addColumn('rating', 'integer', (c) => c.notNull())
    .addColumn('modified_on', d.timestampType, (c) => c.notNull())
    .addPrimaryKeyConstraint('response_ratings_pk', ['response_id', 'user_id'])
    .execute();

  // Written feedback, comments and reviews: each a trail, newest last.
  for (const table of ['response_feedback', 'response_comments', 'response_reviews']) {
    let create = db.schema
      .createTable(table)
      .addColumn('id', d.idType, d.idColumn)
      .addColumn('response_id', d.idType, (c) => c.notNull().references('agent_responses.id').onDelete('cascade'))
      .addColumn('user_id', d.idType, (c) => c.notNull().references('users.id'))
      .addColumn('text', 'text', (c) => c.notNull())
      .addColumn('created_on', d.timestampType, (c) => c.notNull());
    if (table === 'response_reviews') create = create.addColumn('verdict', 'text', (c) => c.notNull());
    await create.execute();
    await db.schema.createIndex(`${table}_response`).on(table).columns(['response_id', 'id']).execute();
  }
}
