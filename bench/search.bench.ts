// The search suite: POST /api/v2/corpora/{id}/search (full text, SQLite FTS5 ranked by BM25) over
// 100,000 chunks — 10,000 documents of 10 chunks of about 100 words drawn from a Zipf-distributed
// vocabulary — with varied queries of 1 to 4 words, common and rare. Latency of queries sent one
// after another on one connection, throughput under load from a few connections, and, as a floor,
// the same SQL run in this process on the same file. When DATABASE_URL names a PostgreSQL server, the
// same corpus and queries on PostgreSQL too, over HTTP only (search-postgres.ts).
import { statSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import type SQLite from 'better-sqlite3';
import { fts5Match } from '../src/db/full-text.js';
import { queryTerms } from '../src/search/analyzer.js';
import { candidateCount, candidateTerms } from '../src/search/candidates.js';
import { QueryScorer, rankChunks, type CorpusStatistics, type IndexedChunk } from '../src/search/ranking.js';
import { startAgentPlatform } from './lib/agent-platform-server.js';
import type { BenchConfig } from './lib/bench-config.js';
import { createCorpus } from './lib/corpus-setup.js';
import { apiKeyClient } from './lib/credentials.js';
import { percentile } from './lib/percentiles.js';
import { fixed, type SuiteReport } from './lib/report.js';
import { postgresServerUrl } from './lib/scratch-postgres.js';
import { LIMIT, LOAD_CONNECTIONS, P95_AIM_MS, QUERIES, SearchTarget, WARM_UP_QUERIES, latencyTable, loadSearch, p95Of, searchOneAtATime, type Latencies, type Query } from './lib/search-http.js';
import { openReadOnly, sqliteFileOf } from './lib/seed-database.js';
import type { BenchSuite, SuiteContext } from './lib/suite.js';
import { CHUNKS_PER_DOCUMENT, DOCUMENTS, QUERY_BANDS, VOCABULARY_SIZE, WORDS_PER_CHUNK, corpusVocabulary, makeQueries, restartWithCorpus } from './lib/zipf-corpus.js';
import { postgresSearchSeconds, runPostgresSearch, type SeededSize } from './search-postgres.js';

/**
 * What a search costs below the HTTP layer, in this process on the same file: the statements of
 * src/db/full-text.ts (sqliteFullText.candidates) and PassagesRepo.scoringRows and passageTexts as prepared statements, and
 * the server's own candidate choice and scoring (src/search). Term counts are taken once and kept,
 * as the server keeps them. checkSameAnswer compares its answers with the server's.
 */
function floorStatements(db: SQLite.Database, corpusId: number) {
  const inCorpus = 'exists (select 1 from chunks c where c.corpus_id in (?) and c.id = chunks_fts.rowid)';
  const candidates = db.prepare<[string, number, number], { chunk_id: number }>(`
    select rowid as chunk_id from chunks_fts where chunks_fts match ? and ${inCorpus} order by bm25(chunks_fts, 4.0, 2.0, 1.0) limit ?`);
  // What scoring reads of the candidates, then the text of those answered (PassagesRepo.scoringRows, passageTexts).
  const statementsByCount = <Row>(columns: string) => {
    const statements = new Map<number, SQLite.Statement<number[], Row>>();
    return (count: number) => {
      let statement = statements.get(count);
      if (!statement) {
        statement = db.prepare(`${columns} where c.id in (${Array(count).fill('?').join(', ')})`);
        statements.set(count, statement);
      }
      return statement;
    };
  };
  const scoringRowsOf = statementsByCount<IndexedChunk>(`
    select c.id, c.corpus_id, c.document_id, c.token_count, c.search_title, c.search_heading, c.search_body, d.source, d.type, d.chunk_count
    from chunks as c inner join documents as d on d.id = c.document_id and d.deleted_on is null`);
  const textsOf = statementsByCount<{ id: number; text: string }>('select c.id, c.position, c.text, c.page, c.heading from chunks as c');
  const count = db.prepare<[string, number], { n: number }>(`select count(*) as n from chunks_fts where chunks_fts match ? and ${inCorpus}`);
  const matchOf = fts5Match;
  const { chunks, average } = db.prepare('select count(*) as chunks, avg(token_count) as average from chunks where corpus_id = ?').get(corpusId) as { chunks: number; average: number };
  const frequencies = new Map<string, number>();
  const statisticsOf = (terms: string[]): CorpusStatistics => {
    for (const term of terms) if (!frequencies.has(term)) frequencies.set(term, count.get(matchOf([term]), corpusId)!.n);
    return { chunks, averageLength: average, documentFrequency: frequencies };
  };
  const candidatesOf = (query: string) => {
    const terms = queryTerms(query, 'english');
    const statistics = statisticsOf(terms);
    const chosen = candidateTerms(terms, statistics);
    const ids = chosen.length === 0 ? [] : candidates.all(matchOf(chosen.map(({ term }) => term)), corpusId, candidateCount(LIMIT)).map((hit) => hit.chunk_id);
    return { terms, statistics, ids };
  };
  return {
    /** Term counts taken before timing, as the server's cache holds them. */
    prepare: (query: string) => void statisticsOf(queryTerms(query, 'english')),
    candidates: (query: string) => candidatesOf(query).ids,
    search: (query: string) => {
      const { terms, statistics, ids } = candidatesOf(query);
      const rows = ids.length === 0 ? [] : scoringRowsOf(ids.length).all(...ids);
      const answered = rankChunks(new QueryScorer(terms, statistics), rows, LIMIT).map(({ row }) => row.id);
      if (answered.length > 0) textsOf(answered.length).all(...answered);
      return answered;
    },
    matches: (query: string) => {
      const terms = queryTerms(query, 'english');
      return terms.length === 0 ? 0 : count.get(matchOf(terms), corpusId)!.n;
    },
  };
}

function timeInProcess(name: string, queries: Query[], run: (query: string) => unknown): Latencies {
  for (const query of queries.slice(0, WARM_UP_QUERIES)) run(query.text);
  const ms = queries.map((query) => {
    const started = performance.now();
    run(query.text);
    return performance.now() - started;
  });
  return { name, ms };
}

async function runSearchSuite({ config, cleanup, log }: SuiteContext): Promise<SuiteReport> {
  log('starting the Agent Platform server once to create the schema and the owner');
  const first = await startAgentPlatform(config, cleanup);
  const client = await apiKeyClient(first);
  const corpus = await createCorpus(client, 'Search benchmark');
  const vocabulary = corpusVocabulary();

  const { platform, seedSeconds } = await restartWithCorpus(first, corpus.id, vocabulary, { config, cleanup, log });
  const databaseMb = statSync(sqliteFileOf(platform.dataDir)).size / 1024 / 1024;

  const reader = openReadOnly(platform.dataDir);
  cleanup.defer('close the read-only connection', () => void reader.close());
  const floor = floorStatements(reader, corpus.id);
  const seeded = reader.prepare('select count(*) as chunks, sum(length(search_body)) as terms_length from chunks where corpus_id = ?').get(corpus.id) as SeededSize;
  if (seeded.chunks !== DOCUMENTS * CHUNKS_PER_DOCUMENT) throw new Error(`${seeded.chunks} chunks seeded, expected ${DOCUMENTS * CHUNKS_PER_DOCUMENT}`);
  const texts = makeQueries(vocabulary, QUERIES, 99);
  log('counting the chunks each query matches');
  const queries: Query[] = texts.map((text) => ({ text, matches: floor.matches(text) }));
  for (const query of queries) floor.prepare(query.text);

  const target = new SearchTarget(platform, client, corpus.id);
  const warmUp = makeQueries(vocabulary, WARM_UP_QUERIES, 7);
  log(`${WARM_UP_QUERIES} warm-up then ${QUERIES} queries one after another on one connection`);
  const { latencies: http, answers, emptyAnswers } = await searchOneAtATime(target, 'POST …/search over HTTP (API key)', warmUp, queries, cleanup);
  // The floor must do what the server does: the same chunks in the same order.
  const differentAnswers = queries.filter((query, index) => answers[index]!.join() !== floor.search(query.text).join()).length;
  if (differentAnswers > 0) throw new Error(`the floor answered ${differentAnswers} of ${QUERIES} queries otherwise than the server: it no longer matches src/db/full-text.ts and src/search`);

  log('the same queries in this process: the candidate statement alone, then with the passages statement and scoring');
  const fullTextFloor = timeInProcess('floor: FTS5 candidates statement in process', queries, (query) => floor.candidates(query));
  const searchFloor = timeInProcess('floor: candidates + passages statements + scoring in process', queries, (query) => floor.search(query));

  log(`loading the search with ${LOAD_CONNECTIONS} connections, the ${QUERIES} queries in turn`);
  const load = await loadSearch(target, 'POST …/search', queries, config);

  const matches = Float64Array.from(queries.map((query) => query.matches)).sort();
  const sqliteReport: SuiteReport = {
    title: `search: full text over ${(DOCUMENTS * CHUNKS_PER_DOCUMENT).toLocaleString('en')} chunks, queries of 1–4 words (SQLite FTS5)`,
    results: [load],
    tables: [http, fullTextFloor, searchFloor].map((latencies) => latencyTable(latencies, queries)),
    aims: [{ label: 'search p95, one query at a time over HTTP', value: p95Of(http), comparison: '<', target: P95_AIM_MS, unit: ' ms' }],
    notes: [
      `under load: p95 ${fixed(load.p95Ms, 2)} ms; the SQLite connection is one, so concurrent searches queue behind each other`,
      `chunks a query matches: median ${percentile(matches, 50)}, p95 ${percentile(matches, 95)}, max ${percentile(matches, 100)}; ` +
        `${emptyAnswers} queries found nothing; word ranks drawn ${QUERY_BANDS.map((b) => `${b.share * 100}% from ${b.from}–${b.to}`).join(', ')}`,
      `corpus: ${DOCUMENTS} documents × ${CHUNKS_PER_DOCUMENT} chunks of ${WORDS_PER_CHUNK.min}–${WORDS_PER_CHUNK.max} words, ` +
        `vocabulary of ${VOCABULARY_SIZE} words with Zipf frequencies (1/rank); database ${fixed(databaseMb, 0)} MB, seeded in ${seedSeconds.toFixed(1)} s with the server stopped`,
    ],
  };
  const postgresUrl = postgresServerUrl();
  if (postgresUrl === undefined) return sqliteReport;

  // The SQLite server is done with: stopped, so that it does not compete for the CPUs.
  await platform.server.stop();
  const postgres = await runPostgresSearch(postgresUrl, { queries, warmUp, answers, seeded }, { config, cleanup, log });
  return {
    title: sqliteReport.title.replace('(SQLite FTS5)', '(SQLite FTS5, then PostgreSQL tsvector)'),
    results: [...sqliteReport.results, ...postgres.results],
    tables: [...sqliteReport.tables!, ...postgres.tables!],
    aims: [...sqliteReport.aims, ...postgres.aims],
    notes: [...sqliteReport.notes, ...postgres.notes],
  };
}

export const searchSuite: BenchSuite = {
  name: 'search',
  description: 'POST /api/v2/corpora/{id}/search over 100,000 chunks: p50/p95/p99 one at a time, throughput under load, FTS floor (PostgreSQL too with DATABASE_URL)',
  timeBudgetSeconds: (config: BenchConfig) => 900 + config.warmupSeconds + config.durationSeconds + (postgresServerUrl() === undefined ? 0 : postgresSearchSeconds(config)),
  run: runSearchSuite,
};
