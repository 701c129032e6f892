// The search suite on PostgreSQL, when DATABASE_URL names a server: the same corpus and queries as on
// SQLite, in a database of the suite's own, measured over HTTP as on SQLite. First on the tables as an
// upload leaves them (never analysed, the GIN index's pending list as the inserts left it): users search
// right after an upload, before autovacuum comes by. Then again after an ANALYZE by hand, which gives
// the planner statistics and leaves the pending list alone. No in-process floor here.
import { restartAgentPlatform, startAgentPlatform, type AgentPlatformServer } from './lib/agent-platform-server.js';
import type { ApiClient } from './lib/api-client.js';
import type { BenchConfig } from './lib/bench-config.js';
import { createCorpus } from './lib/corpus-setup.js';
import { apiKeyClient } from './lib/credentials.js';
import type { LoadResult } from './lib/load.js';
import { fixed, type SuiteReport } from './lib/report.js';
import { createScratchPostgres, withPostgres } from './lib/scratch-postgres.js';
import { LOAD_CONNECTIONS, P95_AIM_MS, QUERIES, WARM_UP_QUERIES, SearchTarget, latencyTable, loadSearch, p95Of, searchOneAtATime, type Query } from './lib/search-http.js';
import type { SuiteContext } from './lib/suite.js';
import { analyseSeededTables, corpusVocabulary, restartWithCorpus } from './lib/zipf-corpus.js';

/** Seconds the PostgreSQL part may add to the suite: seeding, two server restarts, two measurements. */
export const postgresSearchSeconds = (config: BenchConfig) => 900 + 2 * (config.warmupSeconds + config.durationSeconds);

/** What the seeding wrote, compared across the databases: the same corpus on both. */
export interface SeededSize {
  chunks: number;
  terms_length: number;
}

/** What the SQLite run hands on: the queries (with their match counts), the warm-up, its answers and what it seeded. */
export interface SqliteRun {
  queries: Query[];
  warmUp: string[];
  answers: number[][];
  seeded: SeededSize;
}

/** What the tables and the GIN index are like when a measurement starts. */
interface TableState {
  /** pg_class.reltuples of chunks: -1 until the table is first analysed. */
  reltuples: number;
  analyses: number;
  /** The GIN index's pending list, when pgstattuple is there to read it. */
  pending: { pages: number; tuples: number } | undefined;
  databaseMb: number;
}

const seededSize = (url: string, corpusId: number) =>
  withPostgres(url, async (client) => {
    const { rows } = await client.query<{ chunks: string; terms_length: string }>('select count(*) as chunks, sum(length(search_body)) as terms_length from chunks where corpus_id = $1', [corpusId]);
    return { chunks: Number(rows[0]!.chunks), terms_length: Number(rows[0]!.terms_length) };
  });

const tableState = (url: string) =>
  withPostgres(url, async (client): Promise<TableState> => {
    const { rows } = await client.query<{ reltuples: number; analyses: string; bytes: string }>(`
      select c.reltuples, s.analyze_count + s.autoanalyze_count as analyses, pg_database_size(current_database()) as bytes
      from pg_class c join pg_stat_user_tables s on s.relid = c.oid where c.relname = 'chunks'`);
    let pending: TableState['pending'];
    try {
      // Reads the index's metapage only; the extension lives in the suite's own database.
      await client.query('create extension if not exists pgstattuple');
      const gin = await client.query<{ pending_pages: number; pending_tuples: string }>(`select pending_pages, pending_tuples from pgstatginindex('chunks_search')`);
      pending = { pages: gin.rows[0]!.pending_pages, tuples: Number(gin.rows[0]!.pending_tuples) };
    } catch {
      pending = undefined;
    }
    const row = rows[0]!;
    return { reltuples: row.reltuples, analyses: Number(row.analyses), pending, databaseMb: Number(row.bytes) / 1024 / 1024 };
  });

const describeState = (state: TableState) =>
  `chunks reltuples ${state.reltuples}, analysed ${state.analyses} time(s); GIN pending list ` +
  (state.pending === undefined ? 'not read (no pgstattuple)' : `${state.pending.pages} pages, ${state.pending.tuples} entries`);

interface Phase {
  label: string;
  state: TableState;
  load: LoadResult;
  answers: number[][];
  emptyAnswers: number;
  table: ReturnType<typeof latencyTable>;
  p95: number;
}

async function measurePhase(label: string, platform: AgentPlatformServer, client: ApiClient, corpusId: number, url: string, sqlite: SqliteRun, context: SuiteContext): Promise<Phase> {
  const state = await tableState(url);
  context.log(`PostgreSQL, ${label}: ${describeState(state)}`);
  const target = new SearchTarget(platform, client, corpusId);
  context.log(`PostgreSQL, ${label}: ${WARM_UP_QUERIES} warm-up then ${QUERIES} queries one after another on one connection`);
  const name = `PostgreSQL, ${label}: POST …/search over HTTP (API key)`;
  const { latencies, answers, emptyAnswers } = await searchOneAtATime(target, name, sqlite.warmUp, sqlite.queries, context.cleanup);
  context.log(`PostgreSQL, ${label}: loading the search with ${LOAD_CONNECTIONS} connections`);
  const load = await loadSearch(target, `PostgreSQL, ${label}: POST …/search`, sqlite.queries, context.config);
  return { label, state, load, answers, emptyAnswers, table: latencyTable(latencies, sqlite.queries), p95: p95Of(latencies) };
}

/** The PostgreSQL part of the search suite's report. */
export async function runPostgresSearch(serverUrl: string, sqlite: SqliteRun, context: SuiteContext): Promise<SuiteReport> {
  const { config, cleanup, log } = context;
  const url = await createScratchPostgres(serverUrl, 'ap_search_bench', cleanup);
  log('starting the Agent Platform server on a PostgreSQL database of its own to create the schema and the owner');
  const first = await startAgentPlatform(config, cleanup, { DATABASE_URL: url });
  const client = await apiKeyClient(first);
  const corpus = await createCorpus(client, 'Search benchmark');
  const { platform, seedSeconds } = await restartWithCorpus(first, corpus.id, corpusVocabulary(), context);
  const seeded = await seededSize(url, corpus.id);
  if (seeded.chunks !== sqlite.seeded.chunks || seeded.terms_length !== sqlite.seeded.terms_length) {
    throw new Error(`PostgreSQL holds ${JSON.stringify(seeded)}, SQLite ${JSON.stringify(sqlite.seeded)}: not the same corpus`);
  }

  const fresh = await measurePhase('fresh tables', platform, client, corpus.id, url, sqlite, context);
  log('PostgreSQL: ANALYZE of documents and chunks with the server stopped, then a new server (no term counts kept)');
  const analysed = await restartAgentPlatform(platform, config, cleanup, () => analyseSeededTables(url));
  const afterAnalyze = await measurePhase('after ANALYZE', analysed, client, corpus.id, url, sqlite, context);

  const sameAsSqlite = (phase: Phase) => phase.answers.filter((answer, index) => answer.join() === sqlite.answers[index]!.join()).length;
  return {
    title: 'search on PostgreSQL',
    results: [fresh.load, afterAnalyze.load],
    tables: [fresh.table, afterAnalyze.table],
    aims: [fresh, afterAnalyze].map((phase) => ({ label: `PostgreSQL, ${phase.label}: search p95, one query at a time over HTTP`, value: phase.p95, comparison: '<', target: P95_AIM_MS, unit: ' ms' })),
    notes: [
      `PostgreSQL: the same corpus (${seeded.chunks} chunks, checked against SQLite), seeded in ${seedSeconds.toFixed(1)} s with the server stopped, ` +
        `autovacuum off for documents and chunks so that they stay as an upload leaves them; database ${fixed(fresh.state.databaseMb, 0)} MB`,
      ...[fresh, afterAnalyze].map(
        (phase) =>
          `PostgreSQL, ${phase.label}: at the start ${describeState(phase.state)}; under load p95 ${fixed(phase.load.p95Ms, 2)} ms; ` +
          `${phase.emptyAnswers} queries found nothing; ${sameAsSqlite(phase)} of ${QUERIES} answers the same chunks in the same order as SQLite`,
      ),
      'PostgreSQL: no in-process floor (the floor measures SQLite statements only)',
    ],
  };
}
