// The corpus of the search and ask suites: 10,000 documents of 10 chunks of about 100 words drawn
// from a Zipf-distributed vocabulary, written straight into the SQLite file while the server is
// stopped (the FTS5 index is kept by the migration's trigger), and queries of 1 to 4 words, common
// and rare. Deterministic, so that runs compare.
import { performance } from 'node:perf_hooks';
import type SQLite from 'better-sqlite3';
import { searchFields, searchTitle } from '../../src/search/analyzer.js';
import { DEFAULT_SEARCH_LANGUAGE } from '../../src/search/languages.js';
import { restartAgentPlatform, type AgentPlatformServer } from './agent-platform-server.js';
import type { BenchConfig } from './bench-config.js';
import type { CleanupStack } from './cleanup.js';
import { documentInserter } from './corpus-setup.js';
import { openForSeeding, userByEmail } from './seed-database.js';
import { ZipfVocabulary, seededRandom } from './text-corpus.js';

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

function seedCorpus(db: SQLite.Database, vocabulary: ZipfVocabulary, ownerEmail: string, corpusId: number): void {
  const owner = userByEmail(db, ownerEmail);
  const insertDocument = documentInserter(db, owner, corpusId, DOCUMENTS);
  const insertChunk = db.prepare(`
    insert into chunks (organization_id, corpus_id, document_id, position, text, token_count, page, heading, search_title, search_heading, search_body)
    values (?, ?, ?, ?, ?, ?, null, null, ?, ?, ?)`);
  const random = seededRandom(4242);
  db.transaction(() => {
    for (let d = 0; d < DOCUMENTS; d++) {
      const chunks = Array.from({ length: CHUNKS_PER_DOCUMENT }, () => {
        const words = WORDS_PER_CHUNK.min + Math.floor(random() * (WORDS_PER_CHUNK.max - WORDS_PER_CHUNK.min + 1));
        return { text: vocabulary.sentences(random, words), words };
      });
      const source = `knowledge-base-${String(d + 1).padStart(5, '0')}.txt`;
      const documentId = insertDocument({ source, text: chunks.map((chunk) => chunk.text).join('\n\n'), chunkCount: chunks.length }, d);
      const title = searchTitle(undefined, source);
      chunks.forEach((chunk, position) => {
        const fields = searchFields({ title, heading: null, text: chunk.text }, DEFAULT_SEARCH_LANGUAGE);
        insertChunk.run(owner.organizationId, corpusId, documentId, position, chunk.text, Math.round(chunk.words * 1.3), fields.search_title, fields.search_heading, fields.search_body);
      });
    }
  })();
}

/**
 * Stops the server, fills the corpus (made through the API beforehand) with the documents, and
 * starts the server again on the same data folder; answers the new server and the seconds seeding took.
 */
export async function restartWithCorpus(
  first: AgentPlatformServer,
  corpusId: number,
  vocabulary: ZipfVocabulary,
  context: { config: BenchConfig; cleanup: CleanupStack; log: (message: string) => void },
): Promise<{ platform: AgentPlatformServer; seedSeconds: number }> {
  let seedSeconds = 0;
  const platform = await restartAgentPlatform(first, context.config, context.cleanup, () => {
    context.log(`server stopped; inserting ${DOCUMENTS} documents of ${CHUNKS_PER_DOCUMENT} chunks (FTS5 kept by the migration's trigger)`);
    const started = performance.now();
    const db = openForSeeding(first.dataDir);
    try {
      seedCorpus(db, vocabulary, first.adminEmail, corpusId);
      db.pragma('wal_checkpoint(TRUNCATE)');
    } finally {
      db.close();
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
