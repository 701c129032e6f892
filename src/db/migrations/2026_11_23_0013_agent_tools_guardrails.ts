// The tools an agent may call and the guardrails it answers under: part of its configuration (history,
// differences, restore), stored as JSON lists of ids beside the retrieval settings. An id whose tool or
// guardrail has since been deleted is skipped when the agent answers. Frozen: change the schema in a
// new migration.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('agents').addColumn('tool_ids', 'text', (c) => c.notNull().defaultTo('[]')).execute();
  await db.schema.alterTable('agents').addColumn('guardrail_ids', 'text', (c) => c.notNull().defaultTo('[]')).execute();
}
