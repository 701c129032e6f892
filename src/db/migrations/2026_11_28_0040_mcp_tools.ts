// Tools of the mcp kind (an MCP server's tools given to agents): the request headers a server needs,
// sealed like a tool's secret (their values are credentials as often as not), and the server's tools
// as last listed (name, description, input schema), which the runtime offers without asking the server
// at every answer. Null for other kinds. Frozen: change the schema in a new migration.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('tools').addColumn('headers_sealed', 'text').execute();
  await db.schema.alterTable('tools').addColumn('headers_key_id', 'text').execute();
  await db.schema.alterTable('tools').addColumn('remote_tools', 'text').execute();
}
