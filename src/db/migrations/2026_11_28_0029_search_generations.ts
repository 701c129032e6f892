// Search statistics (chunks, mean length, how many chunks hold each term) are kept by each server
// process per set of corpora. A corpus's generation, raised by every transaction that changes its
// chunks (a document stored, reindexed or deleted; its language changed), tells every process
// sharing the database that what it kept is stale, as soon as that transaction commits. A row of its
// own rather than a column of corpora: documents being stored read the corpus's row with a shared
// lock, which an update of that row would wait for.
// Deleted documents have no chunks: their chunk_count, kept until now, becomes 0.
// Frozen: change the schema in a new migration.
import type { Kysely } from 'kysely';
import type { Dialect } from '../dialect.js';

export async function up(db: Kysely<any>, d: Dialect): Promise<void> {
  await db.schema
    .createTable('corpus_search_generations')
    .addColumn('corpus_id', d.idType, (c) => c.primaryKey().references('corpora.id').onDelete('cascade'))
    .addColumn('generation', 'integer', (c) => c.notNull())
    .execute();
  await db.updateTable('documents').set({ chunk_count: 0 }).where('deleted_on', 'is not', null).where('chunk_count', '<>', 0).execute();
}
