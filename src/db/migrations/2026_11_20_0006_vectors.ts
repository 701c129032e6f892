// What the vector index of chunks holds: the model and the size of its vectors. The chunk_vectors
// table itself is made at start for the configured embedder (its column type carries the dimension),
// by src/modules/retrieval/vector-index.ts. Frozen: change the schema in a new migration.
import type { Kysely } from 'kysely';
import type { Dialect } from '../dialect.js';

export async function up(db: Kysely<any>, d: Dialect): Promise<void> {
  await db.schema
    .createTable('vector_indexes')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('model', 'text', (c) => c.notNull())
    .addColumn('dimensions', 'integer', (c) => c.notNull())
    .addColumn('created_on', d.timestampType, (c) => c.notNull())
    .execute();
}
