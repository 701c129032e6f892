// The vectors of chunks, as the pipeline and retrieval use them: whether there are any (an embedder is
// configured and the database can hold vectors), the one table they live in, made for the embedder's
// model and dimension, embedding a document's chunks, and the chunks nearest to a query.
//
// The table is made at start when the dimension is configured, else when the first answer of the
// provider tells it; vector_indexes records the model and dimension it was made for. A start with
// another model or dimension rebuilds it: the table is made again, empty, and every indexed document
// goes back through `embedding`, as do documents indexed while no embedder was configured.
import type { FastifyBaseLogger } from 'fastify';
import type { DocumentRow } from '../../db/schema.js';
import type { VectorHit } from '../../db/vector-store.js';
import { EmbeddingError, type Embedder } from '../../providers/embeddings/embedder.js';
import type { Repositories, UnitOfWork } from '../../repositories.js';
import { embeddingEvent, recordUsage } from '../analytics/usage-events.js';
import type { RetrievalMode } from '../corpora/corpus.presenter.js';
import { reopenForEmbedding } from '../documents/pipeline/document-steps.js';
import type { ChunkVectors } from '../documents/pipeline/process-document.js';

export interface RetrievalStatus {
  mode: RetrievalMode;
  /** Why retrieval is what it is, in a sentence. */
  detail: string;
}

/** Chunks embedded and stored together: progress survives a failure after each group. */
const EMBEDDING_GROUP = 256;
/** Documents reopened for embedding per round at start. */
const REOPEN_BATCH = 500;

export class VectorIndex implements ChunkVectors {
  private state: RetrievalStatus = { mode: 'full_text', detail: 'Retrieval has not been prepared yet' };
  /** Size of the vectors the table holds; undefined while there is no table. */
  private dimensions: number | undefined;

  constructor(
    private readonly store: UnitOfWork,
    private readonly embedder: Embedder | undefined,
    private readonly log: FastifyBaseLogger,
  ) {}

  get status(): RetrievalStatus {
    return this.state;
  }

  get mode(): RetrievalMode {
    return this.state.mode;
  }

  /** Documents pass through `embedding` and searches are hybrid. */
  get active(): boolean {
    return this.state.mode === 'hybrid' && this.embedder !== undefined;
  }

  /**
   * At start, before the worker: decides the retrieval mode and says it in the log, makes or rebuilds
   * the vector table, and sends documents that lack vectors back to `embedding`. Never calls the provider.
   */
  async prepare(): Promise<RetrievalStatus> {
    const embedder = this.embedder;
    if (!embedder) {
      this.state = { mode: 'full_text', detail: 'full text only: no embedding model is configured (EMBEDDING_BASE_URL is unset)' };
      this.log.info(`Retrieval: ${this.state.detail}`);
      return this.state;
    }
    const unavailable = await this.store.transaction(async (repos) => {
      const repo = repos.vectors;
      await repo.lockTable();
      const reason = await repo.unavailableReason();
      if (reason !== undefined) return reason;
      const index = await repo.findIndex();
      if (index && (index.model !== embedder.model || (embedder.dimensions !== undefined && embedder.dimensions !== index.dimensions))) {
        this.log.warn(
          `Vector index: it holds vectors of model "${index.model}" (${index.dimensions} dimensions), the embedder gives "${embedder.model}"` +
            `${embedder.dimensions === undefined ? '' : ` (${embedder.dimensions} dimensions)`}; rebuilding it, every document is embedded again`,
        );
        await repo.dropTable();
        await repo.deleteIndex();
      } else if (index) {
        this.dimensions = index.dimensions;
        return undefined;
      }
      if (embedder.dimensions !== undefined) await this.createTable(repos, embedder.dimensions);
      return undefined;
    });
    if (unavailable !== undefined) {
      this.state = { mode: 'full_text', detail: `full text only: an embedding model is configured, but ${unavailable}` };
      this.log.warn(`Retrieval: ${this.state.detail}`);
      return this.state;
    }
    const size = this.dimensions === undefined ? 'dimension learned from its first answer' : `${this.dimensions} dimensions`;
    this.state = {
      mode: 'hybrid',
      detail: `hybrid: full text and vectors (${this.store.repos.vectors.storeName}, model "${embedder.model}", ${size}), fused by reciprocal rank`,
    };
    this.log.info(`Retrieval: ${this.state.detail}`);
    const reopened = await this.reopenDocumentsWithoutVectors();
    if (reopened > 0) this.log.info(`Vector index: ${reopened} indexed documents without vectors are queued for embedding`);
    return this.state;
  }

  private async createTable(repos: Repositories, dimensions: number): Promise<void> {
    await repos.vectors.createTable(dimensions);
    await repos.vectors.saveIndex(this.embedder!.model, dimensions, new Date().toISOString());
    this.dimensions = dimensions;
  }

  private async reopenDocumentsWithoutVectors(): Promise<number> {
    let reopened = 0;
    for (;;) {
      const documents = await this.store.repos.vectors.indexedWithoutVectors(this.dimensions !== undefined, REOPEN_BATCH);
      if (documents.length === 0) return reopened;
      await this.store.transaction(async (repos) => {
        const at = new Date().toISOString();
        for (const document of documents) if (await reopenForEmbedding(repos, document, at)) reopened++;
      });
    }
  }

  /** The dimension of the table, which another process may have made since this one started. */
  private async tableDimensions(): Promise<number | undefined> {
    if (this.dimensions === undefined) this.dimensions = (await this.store.repos.vectors.findIndex())?.dimensions;
    return this.dimensions;
  }

  /** Makes the table for the size of the first vectors, unless it exists; refuses vectors of another size. */
  private async requireTable(size: number): Promise<void> {
    if ((await this.tableDimensions()) === undefined) {
      await this.store.transaction(async (repos) => {
        await repos.vectors.lockTable();
        const index = await repos.vectors.findIndex();
        if (index) this.dimensions = index.dimensions;
        else await this.createTable(repos, size);
      });
    }
    if (size !== this.dimensions) {
      throw new EmbeddingError(
        `The embedding provider returned vectors of ${size} dimensions; the vector index holds ${this.dimensions} (model "${this.embedder!.model}")`,
        true,
      );
    }
  }

  /** Stores a vector for every chunk of the document that has none: repeating it adds nothing. */
  async embedDocument(document: DocumentRow): Promise<void> {
    const embedder = this.embedder;
    if (!embedder || !this.active) return;
    const missing = await this.store.repos.vectors.chunksWithoutVectors(document.organization_id, document.id, (await this.tableDimensions()) !== undefined);
    for (let start = 0; start < missing.length; start += EMBEDDING_GROUP) {
      const group = missing.slice(start, start + EMBEDDING_GROUP);
      let promptTokens: number | undefined;
      const vectors = await embedder.embed(
        group.map((chunk) => chunk.text),
        { onUsage: (usage) => (promptTokens = (promptTokens ?? 0) + usage.promptTokens) },
      );
      await this.requireTable(vectors[0]!.length);
      await this.store.transaction(async (repos) => {
        await repos.vectors.upsert(group.map((chunk, i) => ({ chunkId: chunk.id, embedding: vectors[i]! })));
        // Recorded with the vectors it bought, where the provider reports usage (it names no price: cost unknown).
        if (promptTokens !== undefined) await recordUsage(repos, embeddingEvent(document, embedder.model, promptTokens));
      });
    }
  }

  /** The chunks of these corpora nearest to the query; none while nothing has been embedded. Throws EmbeddingError. */
  async nearest(corpusIds: number[], query: string, limit: number): Promise<VectorHit[]> {
    const embedder = this.embedder;
    if (!embedder || !this.active || (await this.tableDimensions()) === undefined) return [];
    // A person is waiting: one retry at most, then the search goes on with full text alone.
    const [vector] = await embedder.embed([query], { maxRetries: 1 });
    if (vector!.length !== this.dimensions) {
      throw new EmbeddingError(`The embedding provider returned a query vector of ${vector!.length} dimensions; the vector index holds ${this.dimensions}`, true);
    }
    return this.store.repos.vectors.nearest(corpusIds, vector!, limit);
  }
}
