// The manual suite: a real, large HTML manual — PostgreSQL 15's, 1,169 pages (18 MB on disk) from
// Debian's postgresql-doc-15 — uploaded through the API in multipart batches of 20, a few requests
// at once, until every page is `indexed` (pages/s, server CPU per page); then 40 questions as people
// ask them (bench/manual.questions.json) through POST /api/v2/corpora/{id}/search with `limit` 30,
// one at a time on one kept-alive connection, for several rounds (p50/p95). On the embedded default
// (SQLite, in-process worker, no embedder), and on PostgreSQL too when DATABASE_URL names a server.
import { Agent } from 'node:http';
import { readFile } from 'node:fs/promises';
import { performance } from 'node:perf_hooks';
import type { ApiClient } from './lib/api-client.js';
import { startAgentPlatform, type AgentPlatformServer } from './lib/agent-platform-server.js';
import type { BenchConfig } from './lib/bench-config.js';
import { createCorpus } from './lib/corpus-setup.js';
import { apiKeyClient } from './lib/credentials.js';
import { singleConnectionAgent, timedRequest } from './lib/http-timing.js';
import type { UploadFile } from './lib/multipart.js';
import { percentile } from './lib/percentiles.js';
import { mainThreadCpuSeconds, processCpuSeconds } from './lib/process-cpu.js';
import { SPEED_FIGURES, judgedRow } from './lib/speed-aims.js';
import { fixed, type Aim, type ReportTable, type SuiteReport } from './lib/report.js';
import { createScratchPostgres, postgresServerUrl } from './lib/scratch-postgres.js';
import type { BenchSuite, SuiteContext } from './lib/suite.js';
import { FILES_PER_REQUEST, MULTIPART_CONCURRENCY, listDocuments, multipartUpload, waitUntilProcessed } from './ingestion.bench.js';
import { loadSet, type DocumentationSet, type LoadedSet } from './relevance/sets.js';

/** PostgreSQL 15's HTML documentation: every page of the package's html folder. */
export const POSTGRESQL_MANUAL: DocumentationSet = {
  name: 'postgresql',
  description: "PostgreSQL 15's HTML documentation (postgresql-doc-15)",
  debianPackage: 'postgresql-doc-15',
  folder: 'usr/share/doc/postgresql-doc-15/html',
  includes: (page) => page.endsWith('.html'),
};

/** Passages asked for by each question. */
const LIMIT = 30;
/** Upload rounds, each into a new corpus; the median is reported. */
const UPLOAD_ROUNDS = 3;
/** Rounds of the 40 questions timed, after one round not timed. */
const SEARCH_ROUNDS = 10;
/** Pages of the manual uploaded first, not measured: the server's code compiled, as in a server that has run a while. */
const WARM_UP_PAGES = 100;
/** Aims: search p95 with limit 30, and pages indexed a second on the embedded default. */
const SEARCH_P95_AIM_MS = 20;
const PAGES_PER_SECOND_AIM = 250;

const sortedOf = (values: number[]) => Float64Array.from(values).sort();
const median = (values: number[]) => percentile(sortedOf(values), 50);

interface UploadRound {
  /** First upload request sent → last page indexed (the server's indexed_on), ms. */
  elapsedMs: number;
  serverCpuSeconds: number;
  /** Of which the server's main thread (its event loop). */
  mainThreadCpuSeconds: number;
  corpusId: number;
  chunks: number;
}

async function loadQuestions(): Promise<string[]> {
  const file = JSON.parse(await readFile(new URL('./manual.questions.json', import.meta.url), 'utf8')) as { questions: string[] };
  return file.questions;
}

function pagesOf(manual: LoadedSet): UploadFile[] {
  return manual.pages.map((page) => ({ name: page.path.replaceAll('/', '_'), bytes: page.bytes, contentType: 'text/html' }));
}

async function uploadRound(client: ApiClient, serverPid: number, files: UploadFile[], name: string): Promise<UploadRound> {
  const corpus = await createCorpus(client, name);
  const agent = new Agent({ keepAlive: true, maxSockets: MULTIPART_CONCURRENCY });
  try {
    const cpuBefore = processCpuSeconds(serverPid);
    const mainBefore = mainThreadCpuSeconds(serverPid);
    const startedWall = Date.now();
    const started = performance.now();
    await multipartUpload(client, corpus.id, files, agent);
    const uploadedMs = performance.now() - started;
    const counts = await waitUntilProcessed(client, corpus.id, files.length);
    const cpuAfter = processCpuSeconds(serverPid);
    const mainAfter = mainThreadCpuSeconds(serverPid);
    const documents = await listDocuments(client, corpus.id, files.length);
    const failed = documents.find((document) => document.is_failed);
    if (counts.failed > 0 || failed) throw new Error(`${name}: a page failed: ${failed?.error ?? JSON.stringify(counts)}`);
    const lastIndexed = Math.max(...documents.map((document) => Date.parse(document.indexed_on!)));
    return {
      elapsedMs: Math.max(lastIndexed - startedWall, uploadedMs),
      serverCpuSeconds: cpuBefore === undefined || cpuAfter === undefined ? Number.NaN : cpuAfter - cpuBefore,
      mainThreadCpuSeconds: mainBefore === undefined || mainAfter === undefined ? Number.NaN : mainAfter - mainBefore,
      corpusId: corpus.id,
      chunks: documents.reduce((sum, document) => sum + document.chunk_count, 0),
    };
  } finally {
    agent.destroy();
  }
}

interface SearchTiming {
  ms: number[];
  bytes: number[];
  passages: number[];
  /** Server CPU (user + system) over the timed rounds, divided by the searches, ms. */
  serverCpuMs: number;
}

async function searchRounds(platform: AgentPlatformServer, client: ApiClient, corpusId: number, questions: string[]): Promise<SearchTiming> {
  const url = `${platform.server.baseUrl}/api/v2/corpora/${corpusId}/search`;
  const headers = { ...client.authorizationHeaders(), 'content-type': 'application/json' };
  const agent = singleConnectionAgent();
  const timing: SearchTiming = { ms: [], bytes: [], passages: [], serverCpuMs: Number.NaN };
  let cpuBefore: number | undefined;
  try {
    for (let round = 0; round <= SEARCH_ROUNDS; round++) {
      if (round === 1) cpuBefore = processCpuSeconds(platform.server.pid);
      for (const question of questions) {
        const response = await timedRequest(url, { method: 'POST', headers, body: JSON.stringify({ query: question, limit: LIMIT }), agent, keepBody: true });
        if (response.status !== 200) throw new Error(`POST ${url} answered ${response.status}: ${response.body!.toString('utf8').slice(0, 300)}`);
        // Round 0 warms up; its answers are checked like the others but not timed.
        const { data } = JSON.parse(response.body!.toString('utf8')) as { data: { items: unknown[]; retrieval_mode: string } };
        if (data.retrieval_mode !== 'full_text') throw new Error(`expected full_text retrieval, the server answered ${data.retrieval_mode}`);
        if (round === 0) continue;
        timing.ms.push(response.ms);
        timing.bytes.push(response.bytes);
        timing.passages.push(data.items.length);
      }
    }
    const cpuAfter = processCpuSeconds(platform.server.pid);
    if (cpuBefore !== undefined && cpuAfter !== undefined) timing.serverCpuMs = ((cpuAfter - cpuBefore) * 1000) / timing.ms.length;
  } finally {
    agent.destroy();
  }
  return timing;
}

async function measureOn(platform: AgentPlatformServer, manual: LoadedSet, questions: string[], log: (message: string) => void, database: string) {
  const client = await apiKeyClient(platform);
  const files = pagesOf(manual);
  log(`${database}: warm-up, ${WARM_UP_PAGES} pages into a corpus of their own, not measured`);
  const warmAgent = new Agent({ keepAlive: true, maxSockets: MULTIPART_CONCURRENCY });
  const warmUp = await createCorpus(client, 'Manual warm-up');
  await multipartUpload(client, warmUp.id, files.slice(0, WARM_UP_PAGES), warmAgent);
  warmAgent.destroy();
  await waitUntilProcessed(client, warmUp.id, WARM_UP_PAGES);

  const rounds: UploadRound[] = [];
  for (let round = 1; round <= UPLOAD_ROUNDS; round++) {
    log(`${database}: uploading the ${files.length} pages, round ${round} of ${UPLOAD_ROUNDS}`);
    rounds.push(await uploadRound(client, platform.server.pid, files, `Manual ${round}`));
  }
  const medianRound = [...rounds].sort((a, b) => a.elapsedMs - b.elapsedMs)[Math.floor(rounds.length / 2)]!;
  const pagesPerSecond = files.length / (medianRound.elapsedMs / 1000);

  log(`${database}: ${questions.length} questions, limit ${LIMIT}, one round of warm-up then ${SEARCH_ROUNDS} timed`);
  const search = await searchRounds(platform, client, rounds[0]!.corpusId, questions);
  if (platform.server.hasExited()) throw new Error(`the Agent Platform server died:\n${platform.server.outputTail()}`);
  const sorted = sortedOf(search.ms);
  const p95 = percentile(sorted, 95);

  const tables: ReportTable[] = [
    {
      title: `${database}: upload → all indexed, multipart ${FILES_PER_REQUEST} pages a request, ${MULTIPART_CONCURRENCY} at once; median of ${UPLOAD_ROUNDS} rounds, each into a new corpus`,
      header: ['pages', 'MB', 'chunks', 'all indexed ms', 'rounds ms', 'pages/s', 'server CPU ms/page', 'of which main thread'],
      rows: [
        [
          String(files.length),
          fixed(files.reduce((sum, file) => sum + file.bytes.length, 0) / 1024 / 1024, 1),
          String(medianRound.chunks),
          fixed(medianRound.elapsedMs, 0),
          rounds.map((round) => fixed(round.elapsedMs, 0)).join(' / '),
          fixed(pagesPerSecond, 0),
          fixed((medianRound.serverCpuSeconds * 1000) / files.length, 2),
          fixed((medianRound.mainThreadCpuSeconds * 1000) / files.length, 2),
        ],
      ],
    },
    {
      title: `${database}: POST …/search, limit ${LIMIT}, ${questions.length} questions × ${SEARCH_ROUNDS} rounds, one at a time on one connection (API key)`,
      header: ['searches', 'p50 ms', 'p95 ms', 'p99 ms', 'mean ms', 'server CPU ms/search', 'passages (mean)', 'response KB (median)'],
      rows: [
        [
          String(search.ms.length),
          fixed(percentile(sorted, 50), 2),
          fixed(p95, 2),
          fixed(percentile(sorted, 99), 2),
          fixed(search.ms.reduce((sum, ms) => sum + ms, 0) / search.ms.length, 2),
          fixed(search.serverCpuMs, 2),
          fixed(search.passages.reduce((sum, n) => sum + n, 0) / search.passages.length, 1),
          fixed(median(search.bytes) / 1024, 1),
        ],
      ],
    },
  ];
  const aims: Aim[] = [
    { label: `${database}: manual search p95, limit ${LIMIT}, over HTTP`, value: p95, comparison: '<', target: SEARCH_P95_AIM_MS, unit: ' ms' },
  ];
  // The ingestion aim is the embedded default's: PostgreSQL's rate is reported beside it.
  if (database === 'SQLite') aims.push({ label: `${database}: manual pages indexed a second`, value: pagesPerSecond, comparison: '>=', target: PAGES_PER_SECOND_AIM });
  // The summary's rows are the embedded default's.
  const speedRows =
    database === 'SQLite'
      ? [
          judgedRow(SPEED_FIGURES.manualSearch, { value: p95, comparison: '<', target: SEARCH_P95_AIM_MS, unit: 'ms', digits: 1 }),
          judgedRow(SPEED_FIGURES.manualUpload, { value: pagesPerSecond, comparison: '>=', target: PAGES_PER_SECOND_AIM, unit: 'pages/s', digits: 0 }),
        ]
      : [];
  return { tables, aims, speedRows };
}

async function runManualSuite({ config, cleanup, log }: SuiteContext): Promise<SuiteReport> {
  const [manual, questions] = await Promise.all([loadSet(POSTGRESQL_MANUAL, log), loadQuestions()]);
  log('starting the Agent Platform server (SQLite, fresh data folder, in-process worker)');
  const sqlite = await startAgentPlatform(config, cleanup);
  const runs = [await measureOn(sqlite, manual, questions, log, 'SQLite')];
  const postgresUrl = postgresServerUrl();
  if (postgresUrl !== undefined) {
    // The SQLite server is done with: stopped, so that it does not compete for the CPUs.
    await sqlite.server.stop();
    const url = await createScratchPostgres(postgresUrl, 'ap_manual_bench', cleanup);
    log('starting the Agent Platform server on a PostgreSQL database of its own');
    runs.push(await measureOn(await startAgentPlatform(config, cleanup, { DATABASE_URL: url }), manual, questions, log, 'PostgreSQL'));
  }
  return {
    title: `manual: ${manual.set.debianPackage} ${manual.packageVersion} (${manual.pages.length} pages) uploaded, then searched with limit ${LIMIT} (${postgresUrl === undefined ? 'SQLite' : 'SQLite, then PostgreSQL'})`,
    results: [],
    tables: runs.flatMap((run) => run.tables),
    aims: runs.flatMap((run) => run.aims),
    speedRows: runs.flatMap((run) => run.speedRows),
    notes: [
      `end of an upload round: the latest indexed_on of its pages (same machine's clock); server CPU: user + system of the server process ` +
        `from the first upload to the poll that saw the end (PostgreSQL's own processes not included); of which main thread: its event loop's ` +
        `(/proc/<pid>/task/<pid>), the bound of the rate while the extraction threads have CPU to spare`,
      `worker: WORKER_CONCURRENCY default, no embedder (the offline default: full text only); a warm-up of ${WARM_UP_PAGES} pages ran first`,
      `the questions are searched in the first round's corpus; other corpora of the same pages are in the database beside it`,
    ],
  };
}

export const manualSuite: BenchSuite = {
  name: 'manual',
  description: "PostgreSQL's HTML manual (1,169 pages): multipart upload → indexed (pages/s), then 40 questions searched with limit 30 (PostgreSQL too with DATABASE_URL)",
  timeBudgetSeconds: (_config: BenchConfig) => (postgresServerUrl() === undefined ? 600 : 1_200),
  run: runManualSuite,
};
