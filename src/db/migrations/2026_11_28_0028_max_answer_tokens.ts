// An answer's length is bounded by its LLM configuration (max_answer_tokens, sent to the provider
// and enforced by the server on what arrives), and a response says whether it was cut there
// (finish_reason). Configurations made before get the default of 4096 tokens; responses recorded
// before have no finish reason (null). Frozen: change the schema in a new migration.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('llm_configurations').addColumn('max_answer_tokens', 'integer', (c) => c.notNull().defaultTo(4096)).execute();
  await db.schema.alterTable('agent_responses').addColumn('finish_reason', 'text').execute();
}
