import { type Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';

const INDEX_NAME = 'chunks';

export class VectorsRepo {
  constructor(private readonly db: Kysely<DB>) {}

  findIndex() {
    return this.db.selectFrom('vector_indexes').selectAll().where('name', '=', INDEX_NAME).executeTakeFirst();
  }

  async saveIndex(model: string, dimensions: number, at: string): Promise<void> {
    await this.db.insertInto('vector_indexes').values({ name: INDEX_NAME, model, dimensions, created_on: at }).execute();
  }

  async deleteIndex(): Promise<void> {
    await this.db.deleteFrom('vector_indexes').where('name', '=', INDEX_NAME).execute();
  }

  /** Chunks of the document without a vector, in order; all of them while there is no vector table. */
  chunksWithoutVectors(documentId: number, tableExists: boolean) {
    let query = this.db.selectFrom('chunks as c').select(['c.id', 'c.text']).where('c.document_id', '=', documentId);
    if (tableExists) query = query.leftJoin('chunk_vectors as v', 'v.chunk_id', 'c.id').where('v.chunk_id', 'is', null);
    return query.orderBy('c.position').execute();
  }

  /** Indexed documents (not deleted, not failed) with a chunk that has no vector: indexed before an embedder was. */
  async indexedWithoutVectors(tableExists: boolean, limit: number): Promise<{ id: number; corpus_id: number; organization_id: number }[]> {
    return this.db
      .selectFrom('documents as d')
      .select(['d.id', 'd.corpus_id', 'd.organization_id'])
      .where('d.step', '=', 'indexed')
      .where('d.deleted_on', 'is', null)
      .where('d.failed_on', 'is', null)
      .where((eb) => {
        let chunks = eb.selectFrom('chunks as c').select('c.id').whereRef('c.document_id', '=', 'd.id');
        if (tableExists) chunks = chunks.leftJoin('chunk_vectors as v', 'v.chunk_id', 'c.id').where('v.chunk_id', 'is', null);
        return eb.exists(chunks);
      })
      .orderBy('d.id')
      .limit(limit)
      .execute();
  }
}
