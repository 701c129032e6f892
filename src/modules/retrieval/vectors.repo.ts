// The vector index's records, and the vectors themselves through the dialect's vector store
// (sqlite-vec or pgvector), on the connection or transaction this repository is bound to.
import { type Kysely } from 'kysely';
import type { Dialect } from '../../db/dialect.js';
import type { DB } from '../../db/schema.js';
import type { ChunkVector, VectorHit } from '../../db/vector-store.js';

const INDEX_NAME = 'chunks';

export class VectorsRepo {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly dialect: Dialect,
  ) {}

  private get store() {
    return this.dialect.vectorStore;
  }

  /** sqlite-vec or pgvector. */
  get storeName(): string {
    return this.store.name;
  }

  /** Why this database cannot hold vectors (no pgvector, no sqlite-vec build), or undefined. */
  unavailableReason(): Promise<string | undefined> {
    return this.store.unavailableReason(this.db);
  }

  /** Serialises changes of the vector table between processes, until the transaction ends. */
  lockTable(): Promise<void> {
    return this.store.lock(this.db);
  }

  createTable(dimensions: number): Promise<void> {
    return this.store.createTable(this.db, dimensions);
  }

  dropTable(): Promise<void> {
    return this.store.dropTable(this.db);
  }

  upsert(vectors: ChunkVector[]): Promise<void> {
    return this.store.upsert(this.db, vectors);
  }

  nearest(corpusIds: number[], embedding: number[], limit: number): Promise<VectorHit[]> {
    return this.store.nearest(this.db, corpusIds, embedding, limit);
  }

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
  chunksWithoutVectors(organizationId: number, documentId: number, tableExists: boolean) {
    let query = this.db.selectFrom('chunks as c').select(['c.id', 'c.text']).where('c.organization_id', '=', organizationId).where('c.document_id', '=', documentId);
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
