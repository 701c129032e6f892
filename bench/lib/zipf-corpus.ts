// The corpus of the search and ask suites: 10,000 documents of 10 chunks of about 100 words drawn
// from a Zipf-distributed vocabulary, written straight into the SQLite file (the FTS5 index is kept
// by the migration's trigger) or the PostgreSQL database (its tsvector column is generated) while the
// server is stopped, and queries of 1 to 4 words, common and rare. Deterministic, so that runs compare.
import { performance } from 'node:perf_hooks';
import type SQLite from 'better-sqlite3';
import type pg from 'pg';
import { tsvectorOf } from '../../src/db/tsvector.js';
import { fieldsOfTerms, searchTerms, searchTitle, type SearchTerms } from '../../src/search/analyzer.js';
import { DEFAULT_SEARCH_LANGUAGE } from '../../src/search/languages.js';
import { restartAgentPlatform, type AgentPlatformServer } from './agent-platform-server.js';
import type { BenchConfig } from './bench-config.js';
import type { CleanupStack } from './cleanup.js';
import { INDEXED_DOCUMENT_COLUMNS, documentInserter, indexedDocumentValues, type SeedDocument } from './corpus-setup.js';
import { withPostgres } from './scratch-postgres.js';
import { openForSeeding, userByEmail } from './seed-database.js';
import { columnsOf, insertRows, postgresUserByEmail } from './seed-postgres.js';
import { ZipfVocabulary, seededRandom } from './text-corpus.js';

/** Documents of the corpus unless a suite asks for fewer (the ask suite's agent has 200). */
export const DOCUMENTS = 10_000;
export const CHUNKS_PER_DOCUMENT = 10;
export const WORDS_PER_CHUNK = { min: 90, max: 110 };
export const VOCABULARY_SIZE = 20_000;

/** Word ranks a query word is drawn from: common words, the middle, the long tail. */
export const QUERY_BANDS = [
  { share: 0.3, from: 1, to: 100 },
  { share: 0.4, from: 101, to: 2_000 },
  { share: 0.3, from: 2_001, to: VOCABULARY_SIZE },
];

export const corpusVocabulary = () => new ZipfVocabulary(VOCABULARY_SIZE);

interface CorpusDocument extends SeedDocument {
  chunks: { text: string; tokenCount: number; terms: SearchTerms }[];
}

/** The corpus's first `count` documents in order, each with its chunks and their search fields (the server's analyser). */
function* corpusDocuments(vocabulary: ZipfVocabulary, count: number): Generator<CorpusDocument> {
  const random = seededRandom(4242);
  for (let d = 0; d < count; d++) {
    const chunks = Array.from({ length: CHUNKS_PER_DOCUMENT }, () => {
      const words = WORDS_PER_CHUNK.min + Math.floor(random() * (WORDS_PER_CHUNK.max - WORDS_PER_CHUNK.min + 1));
      return { text: vocabulary.sentences(random, words), words };
    });
    const source = `knowledge-base-${String(d + 1).padStart(5, '0')}.txt`;
    const title = searchTitle(undefined, source);
    yield {
      source,
      text: chunks.map((chunk) => chunk.text).join('\n\n'),
      chunkCount: chunks.length,
      chunks: chunks.map((chunk) => ({
        text: chunk.text,
        tokenCount: Math.round(chunk.words * 1.3),
        terms: searchTerms({ title, heading: null, text: chunk.text }, DEFAULT_SEARCH_LANGUAGE),
      })),
    };
  }
}

function seedSqliteCorpus(db: SQLite.Database, vocabulary: ZipfVocabulary, ownerEmail: string, corpusId: number, count: number): void {
  const owner = userByEmail(db, ownerEmail);
  const insertDocument = documentInserter(db, owner, corpusId, count);
  const insertChunk = db.prepare(`
    insert into chunks (organization_id, corpus_id, document_id, position, text, token_count, page, heading, search_title, search_heading, search_body)
    values (?, ?, ?, ?, ?, ?, null, null, ?, ?, ?)`);
  db.transaction(() => {
    let d = 0;
    for (const document of corpusDocuments(vocabulary, count)) {
      const documentId = insertDocument(document, d++);
      document.chunks.forEach((chunk, position) => {
        const { search_title, search_heading, search_body } = fieldsOfTerms(chunk.terms);
        insertChunk.run(owner.organizationId, corpusId, documentId, position, chunk.text, chunk.tokenCount, search_title, search_heading, search_body);
      });
    }
  })();
}

/** Documents per statement on PostgreSQL; their chunks go in ten times as many rows. */
const POSTGRES_BATCH = 500;
/** Chunk columns written on PostgreSQL: page and heading stay null; `search` is the tsvector the server writes (src/db/tsvector.ts). */
const CHUNK_COLUMNS = columnsOf({
  organization_id: 'bigint', corpus_id: 'bigint', document_id: 'bigint', position: 'integer', text: 'text', token_count: 'integer',
  search_title: 'text', search_heading: 'text', search_body: 'text', search: 'tsvector',
});

/**
 * The same documents and chunks in batches, in one transaction. While PostgreSQL writes one batch's
 * chunks, this process analyses the next batch's text.
 */
async function seedPostgresCorpus(client: pg.Client, vocabulary: ZipfVocabulary, ownerEmail: string, corpusId: number, count: number): Promise<void> {
  const owner = await postgresUserByEmail(client, ownerEmail);
  const now = Date.now();
  await client.query('begin');
  let chunksWritten: Promise<unknown> = Promise.resolve();
  let batch: CorpusDocument[] = [];
  let d = 0;
  const insertBatch = async (documents: CorpusDocument[], first: number) => {
    const rows = documents.map((document, index) => indexedDocumentValues(owner, corpusId, document, first + index, count, now));
    const inserted = await insertRows<{ id: string; source: string }>(client, 'documents', INDEXED_DOCUMENT_COLUMNS, rows, ['id', 'source']);
    const idOf = new Map(inserted.map((row) => [row.source, row.id]));
    const chunkRows = documents.flatMap((document) =>
      document.chunks.map((chunk, position) => {
        const { search_title, search_heading, search_body } = fieldsOfTerms(chunk.terms);
        return [owner.organizationId, corpusId, idOf.get(document.source), position, chunk.text, chunk.tokenCount, search_title, search_heading, search_body, tsvectorOf(chunk.terms)];
      }),
    );
    chunksWritten = insertRows(client, 'chunks', CHUNK_COLUMNS, chunkRows);
    // Awaited before the next batch; a failure meanwhile must not count as unhandled.
    chunksWritten.catch(() => undefined);
  };
  for (const document of corpusDocuments(vocabulary, count)) {
    batch.push(document);
    if (batch.length < POSTGRES_BATCH) continue;
    await chunksWritten;
    await insertBatch(batch, d);
    d += batch.length;
    batch = [];
  }
  await chunksWritten;
  if (batch.length > 0) await insertBatch(batch, d);
  await chunksWritten;
  await client.query('commit');
}

/** Keeps autovacuum off the seeded tables: its ANALYZE would also move the GIN index's pending list into the index. */
const FRESH_TABLES = ['documents', 'chunks'];

/**
 * Fills the corpus in the PostgreSQL database at `url`. The tables are left as an upload leaves them
 * before autovacuum comes by: never analysed, the GIN index's pending list as the inserts left it; and
 * autovacuum is turned off for them, so that they stay so while the suite measures (analyseSeededTables).
 */
function seedPostgres(url: string, vocabulary: ZipfVocabulary, ownerEmail: string, corpusId: number, count: number): Promise<void> {
  return withPostgres(url, async (client) => {
    for (const table of FRESH_TABLES) await client.query(`alter table ${table} set (autovacuum_enabled = off, toast.autovacuum_enabled = off)`);
    await seedPostgresCorpus(client, vocabulary, ownerEmail, corpusId, count);
  });
}

/** ANALYZE of the seeded tables, by hand: statistics for the planner; unlike autovacuum's, it leaves the GIN pending list alone. */
export function analyseSeededTables(url: string): Promise<void> {
  return withPostgres(url, async (client) => void (await client.query(`analyze ${FRESH_TABLES.join(', ')}`)));
}

/**
 * Stops the server, fills the corpus (made through the API beforehand) with the first `count` documents, and
 * starts the server again on the same data folder; answers the new server and the seconds seeding took.
 * The corpus goes into the server's SQLite file, or into its PostgreSQL database when the server was
 * started with DATABASE_URL.
 */
export async function restartWithCorpus(
  first: AgentPlatformServer,
  corpusId: number,
  vocabulary: ZipfVocabulary,
  context: { config: BenchConfig; cleanup: CleanupStack; log: (message: string) => void },
  count: number = DOCUMENTS,
): Promise<{ platform: AgentPlatformServer; seedSeconds: number }> {
  let seedSeconds = 0;
  const postgresUrl = first.env.DATABASE_URL;
  const platform = await restartAgentPlatform(first, context.config, context.cleanup, async () => {
    const started = performance.now();
    if (postgresUrl === undefined) {
      context.log(`server stopped; inserting ${count} documents of ${CHUNKS_PER_DOCUMENT} chunks (FTS5 kept by the migration's trigger)`);
      const db = openForSeeding(first.dataDir);
      try {
        seedSqliteCorpus(db, vocabulary, first.adminEmail, corpusId, count);
        db.pragma('wal_checkpoint(TRUNCATE)');
      } finally {
        db.close();
      }
    } else {
      context.log(`server stopped; inserting ${count} documents of ${CHUNKS_PER_DOCUMENT} chunks into PostgreSQL, ${POSTGRES_BATCH} documents a statement`);
      await seedPostgres(postgresUrl, vocabulary, first.adminEmail, corpusId, count);
    }
    seedSeconds = (performance.now() - started) / 1000;
    context.log(`seeded in ${seedSeconds.toFixed(1)} s; starting the server again`);
  });
  return { platform, seedSeconds };
}

/** `count` queries of 1 to 4 words, each word's rank drawn from QUERY_BANDS. */
export function makeQueries(vocabulary: ZipfVocabulary, count: number, seed: number): string[] {
  const random = seededRandom(seed);
  return Array.from({ length: count }, () => {
    const words = 1 + Math.floor(random() * 4);
    return Array.from({ length: words }, () => {
      let pick = random();
      const band = QUERY_BANDS.find((b) => (pick -= b.share) < 0) ?? QUERY_BANDS.at(-1)!;
      return vocabulary.word(band.from + Math.floor(random() * (band.to - band.from + 1)));
    }).join(' ');
  });
}
