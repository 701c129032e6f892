// Vectors of chunks, the other query whose SQL differs between the databases: sqlite-vec's vec0
// virtual table on SQLite, pgvector on PostgreSQL where the server has the extension. Either way one
// table, chunk_vectors, keyed by chunk id, made for one dimension when the embedder is known (so it is
// not in a migration), and emptied of a chunk's vector when the chunk is deleted.
import { sql, type Kysely } from 'kysely';
import type { DB } from './schema.js';

export interface VectorHit {
  chunk_id: number;
  /** Cosine distance: 0 is the same direction, 2 the opposite. */
  distance: number;
}

export interface ChunkVector {
  chunkId: number;
  embedding: number[];
}

export interface VectorStore {
  /** What holds the vectors, for messages. */
  readonly name: 'sqlite-vec' | 'pgvector';
  /** Why this database cannot hold vectors, or undefined when it can (preparing what it needs). */
  unavailableReason(db: Kysely<DB>): Promise<string | undefined>;
  /** Serialises the preparation of the table between processes, for the transaction. */
  lock(trx: Kysely<DB>): Promise<void>;
  /** Makes the (empty) table for vectors of this size. */
  createTable(db: Kysely<DB>, dimensions: number): Promise<void>;
  dropTable(db: Kysely<DB>): Promise<void>;
  /** Stores each chunk's vector, replacing one it had; chunks deleted meanwhile are skipped. */
  upsert(db: Kysely<DB>, vectors: ChunkVector[]): Promise<void>;
  /** The chunks of these corpora nearest to the vector, nearest first. */
  nearest(db: Kysely<DB>, corpusIds: number[], embedding: number[], limit: number): Promise<VectorHit[]>;
}

const float32Blob = (embedding: number[]) => Buffer.from(new Float32Array(embedding).buffer);

/** A dimension as SQL text: only ever a positive integer of ours, checked again here. */
function dimensionSql(dimensions: number) {
  if (!Number.isSafeInteger(dimensions) || dimensions < 1) throw new Error(`Not a vector dimension: ${dimensions}`);
  return sql.raw(String(dimensions));
}

export const sqliteVectorStore: VectorStore = {
  name: 'sqlite-vec',
  unavailableReason: async (db) => {
    try {
      await sql`select vec_version()`.execute(db);
      return undefined;
    } catch {
      return 'the sqlite-vec extension could not be loaded on this platform';
    }
  },
  // One process owns the SQLite file, and its connection runs one transaction at a time.
  lock: async () => undefined,
  createTable: async (db, dimensions) => {
    // Partitioned by corpus, so that a search reads only the vectors of the corpus it searches.
    await sql`create virtual table chunk_vectors using vec0(chunk_id integer primary key, corpus_id integer partition key, embedding float[${dimensionSql(dimensions)}] distance_metric=cosine)`.execute(db);
    // A virtual table has no foreign keys: the trigger deletes a chunk's vector with the chunk, also
    // when a document's or corpus's deletion cascades to it.
    await sql`create trigger chunk_vectors_delete after delete on chunks begin delete from chunk_vectors where chunk_id = old.id; end`.execute(db);
  },
  dropTable: async (db) => {
    await sql`drop trigger if exists chunk_vectors_delete`.execute(db);
    await sql`drop table if exists chunk_vectors`.execute(db);
  },
  upsert: async (db, vectors) => {
    if (vectors.length === 0) return;
    // vec0 has no upsert: the old vectors go first. Both statements run in the caller's transaction.
    await sql`delete from chunk_vectors where chunk_id in (${sql.join(vectors.map((v) => v.chunkId))})`.execute(db);
    const rows = vectors.map((v) => sql`(${v.chunkId}, ${float32Blob(v.embedding)})`);
    // Ids and corpora come from the chunks table as integers (vec0 refuses keys bound as floats).
    await sql`
      insert into chunk_vectors (chunk_id, corpus_id, embedding)
      select c.id, c.corpus_id, v.column2 from (values ${sql.join(rows)}) v join chunks c on c.id = v.column1`.execute(db);
  },
  nearest: async (db, corpusIds, embedding, limit) => {
    // One k-nearest query per corpus partition, merged: vec0 takes one partition value per query.
    const hits: VectorHit[] = [];
    for (const corpusId of corpusIds) {
      const { rows } = await sql<VectorHit>`
        select chunk_id, distance from chunk_vectors
        where embedding match ${float32Blob(embedding)} and k = ${limit} and corpus_id = ${BigInt(corpusId)}`.execute(db);
      hits.push(...rows);
    }
    return hits.sort((a, b) => a.distance - b.distance || a.chunk_id - b.chunk_id).slice(0, limit);
  },
};

export const postgresVectorStore: VectorStore = {
  name: 'pgvector',
  unavailableReason: async (db) => {
    const { rows } = await sql`select 1 from pg_available_extensions where name = 'vector'`.execute(db);
    if (rows.length === 0) return 'this PostgreSQL server has no pgvector extension (the "vector" extension is not available)';
    try {
      await sql`create extension if not exists vector`.execute(db);
      return undefined;
    } catch (error) {
      return `the pgvector extension is available but could not be created (${(error as Error).message}); run "create extension vector" as a superuser`;
    }
  },
  lock: async (trx) => {
    await sql`select pg_advisory_xact_lock(hashtext('agent-platform:chunk_vectors'))`.execute(trx);
  },
  createTable: async (db, dimensions) => {
    // Exact search filtered by corpus: correct at any size, fast enough for the corpora of one
    // organization. The foreign key removes a chunk's vector with the chunk.
    await sql`
      create table chunk_vectors (
        chunk_id bigint primary key references chunks(id) on delete cascade,
        corpus_id bigint not null,
        embedding vector(${dimensionSql(dimensions)}) not null
      )`.execute(db);
    await sql`create index chunk_vectors_corpus on chunk_vectors (corpus_id)`.execute(db);
  },
  dropTable: async (db) => {
    await sql`drop table if exists chunk_vectors`.execute(db);
  },
  upsert: async (db, vectors) => {
    if (vectors.length === 0) return;
    const rows = vectors.map((v) => sql`(${v.chunkId}::bigint, ${JSON.stringify(v.embedding)}::text)`);
    await sql`
      insert into chunk_vectors (chunk_id, corpus_id, embedding)
      select c.id, c.corpus_id, v.embedding::vector from (values ${sql.join(rows)}) v(chunk_id, embedding) join chunks c on c.id = v.chunk_id
      on conflict (chunk_id) do update set embedding = excluded.embedding`.execute(db);
  },
  nearest: async (db, corpusIds, embedding, limit) => {
    if (corpusIds.length === 0) return [];
    const { rows } = await sql<VectorHit>`
      select chunk_id, embedding <=> ${JSON.stringify(embedding)}::vector as distance from chunk_vectors
      where corpus_id in (${sql.join(corpusIds)})
      order by distance, chunk_id
      limit ${limit}`.execute(db);
    return rows.map((row) => ({ chunk_id: Number(row.chunk_id), distance: Number(row.distance) }));
  },
};
