// The listing suite: GET /api/corpus/{corpus_id}/document/ over a corpus of 10,000 documents of
// about 2 KB of text, against a baseline process that selects the same rows and JSON.stringify's
// the whole array at once (bench/listing-baseline.ts). Time to the last byte and the peak memory of
// each server process above its idle memory, measured the same way, in the same run. Then the load
// targets of listing-page.ts: 200 documents listed whole and as one v2 page, against their floor; and
// the same 200 documents one request at a time, changed and unchanged (listing-conditional.ts: the
// listing rows of the speed aims).
import { deepStrictEqual } from 'node:assert';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { restartAgentPlatform, startAgentPlatform } from './lib/agent-platform-server.js';
import type { BenchConfig } from './lib/bench-config.js';
import { startChildServer, type ChildServer } from './lib/child-server.js';
import { createCorpus, documentInserter, type SeedDocument } from './lib/corpus-setup.js';
import { apiKeyClient } from './lib/credentials.js';
import { findFreePort } from './lib/free-port.js';
import { timedRequest, type TimedResponse } from './lib/http-timing.js';
import { percentile } from './lib/percentiles.js';
import { watchPeakMemory, type MemoryPeak } from './lib/process-memory.js';
import { fixed, type SuiteReport } from './lib/report.js';
import { openForSeeding, sqliteFileOf, userByEmail } from './lib/seed-database.js';
import type { BenchSuite, SuiteContext } from './lib/suite.js';
import type { CleanupStack } from './lib/cleanup.js';
import { ZipfVocabulary, seededRandom } from './lib/text-corpus.js';
import { measureConditionalListings } from './listing-conditional.js';
import { PAGE_DOCUMENTS, measurePageListings, pageSeedDocuments } from './listing-page.js';

const DOCUMENTS = 10_000;
/** Text of each document: 1,800 to 2,200 characters, about 2 KB. */
const TEXT_CHARS = { min: 1_800, max: 2_200 };
/** Measured requests per target, after a first (cold) one. */
const REPETITIONS = 5;
/** Pause before each request, so that the process is idle when its memory is read. */
const SETTLE_MS = 500;
/** Aim: streaming costs at most half again the time of one stringify of the whole array. */
const TIME_RATIO_AIM = 1.5;
/** Aim: the server's memory above idle stays under this however large the corpus. */
const MEMORY_AIM_MB = 64;

function* seedDocuments(): Generator<SeedDocument> {
  const vocabulary = new ZipfVocabulary(20_000);
  const random = seededRandom(2026);
  for (let i = 1; i <= DOCUMENTS; i++) {
    const chars = TEXT_CHARS.min + Math.floor(random() * (TEXT_CHARS.max - TEXT_CHARS.min));
    yield { source: `handbook-${String(i).padStart(5, '0')}.txt`, text: vocabulary.text(random, chars), chunkCount: 1 };
  }
}

async function startBaseline(dbFile: string, cleanup: CleanupStack): Promise<ChildServer> {
  const port = await findFreePort();
  return startChildServer(
    {
      label: 'listing-baseline',
      nodeArgs: ['--import', 'tsx', join('bench', 'listing-baseline.ts')],
      env: { BASELINE_PORT: String(port), BASELINE_DB_FILE: dbFile },
      port,
      readyPath: '/health',
    },
    cleanup,
  );
}

interface Target {
  name: string;
  server: ChildServer;
  headers: Record<string, string>;
}

interface Measurement {
  response: TimedResponse;
  memory: MemoryPeak;
}

const settle = () => new Promise((resolve) => setTimeout(resolve, SETTLE_MS));

async function measure(target: Target, path: string, keepBody = false): Promise<Measurement> {
  await settle();
  if (target.server.hasExited()) throw new Error(`${target.server.label} has exited:\n${target.server.outputTail()}`);
  const { result: response, memory } = await watchPeakMemory(target.server.pid, () =>
    timedRequest(target.server.baseUrl + path, { headers: target.headers, keepBody, timeoutMs: 120_000 }),
  );
  if (response.status !== 200) throw new Error(`${target.name}: GET ${path} answered ${response.status}`);
  return { response, memory };
}

/** The body is a JSON array of every document, and the real server's equals the baseline's. */
function checkBodies(server: Buffer, baseline: Buffer): string {
  const documents = JSON.parse(server.toString('utf8')) as { id: number }[];
  if (!Array.isArray(documents) || documents.length !== DOCUMENTS) {
    throw new Error(`the listing is not an array of ${DOCUMENTS} documents (${Array.isArray(documents) ? documents.length : typeof documents})`);
  }
  if (server.equals(baseline)) return `checked: valid JSON, an array of ${documents.length} documents, byte for byte the baseline's body`;
  deepStrictEqual(documents, JSON.parse(baseline.toString('utf8')), 'the listing and the baseline hold different documents');
  return `checked: valid JSON, an array of ${documents.length} documents, the same values as the baseline's (formatted differently)`;
}

const median = (values: number[]) => percentile(Float64Array.from(values).sort(), 50);
const mb = (bytes: number) => bytes / 1024 / 1024;

async function runListingSuite({ config, cleanup, log }: SuiteContext): Promise<SuiteReport> {
  log('starting the Agent Platform server once to create the schema and the owner');
  // A page of the v2 listing holds at most LIMIT_PAGE_SIZE documents (100 by default).
  const first = await startAgentPlatform(config, cleanup, { LIMIT_PAGE_SIZE: String(PAGE_DOCUMENTS) });
  const client = await apiKeyClient(first);
  const corpus = await createCorpus(client, 'Listing benchmark');
  const pageCorpus = await createCorpus(client, 'Listing benchmark, 200 documents');

  let seedSeconds = 0;
  const platform = await restartAgentPlatform(first, config, cleanup, () => {
    log(`server stopped; inserting ${DOCUMENTS} indexed documents of about 2 KB and ${PAGE_DOCUMENTS} of 1.2 KB into its SQLite file`);
    const started = performance.now();
    const db = openForSeeding(first.dataDir);
    try {
      const owner = userByEmail(db, first.adminEmail);
      const insert = documentInserter(db, owner, corpus.id, DOCUMENTS);
      db.transaction(() => {
        let index = 0;
        for (const document of seedDocuments()) insert(document, index++);
        const insertPage = documentInserter(db, owner, pageCorpus.id, PAGE_DOCUMENTS);
        index = 0;
        for (const document of pageSeedDocuments()) insertPage(document, index++);
      })();
      db.pragma('wal_checkpoint(TRUNCATE)');
    } finally {
      db.close();
    }
    seedSeconds = (performance.now() - started) / 1000;
    log(`seeded in ${seedSeconds.toFixed(1)} s; starting the server again`);
  });
  const baseline = await startBaseline(sqliteFileOf(platform.dataDir), cleanup);

  const path = `/api/corpus/${corpus.id}/document/`;
  const targets: Target[] = [
    { name: 'baseline: one query, JSON.stringify, one write', server: baseline, headers: {} },
    { name: 'GET /api/corpus/{id}/document/ (API key)', server: platform.server, headers: client.authorizationHeaders() },
  ];
  const [baselineTarget, serverTarget] = targets as [Target, Target];

  log('first (cold) request to each, checking the bodies');
  const firstBaseline = await measure(baselineTarget, path, true);
  const firstServer = await measure(serverTarget, path, true);
  const check = checkBodies(firstServer.response.body!, firstBaseline.response.body!);

  const runs = new Map<Target, Measurement[]>(targets.map((target) => [target, []]));
  for (let round = 1; round <= REPETITIONS; round++) {
    log(`round ${round} of ${REPETITIONS}`);
    // Alternated, so that a disturbance of the machine falls on both alike.
    for (const target of targets) runs.get(target)!.push(await measure(target, path));
  }
  if (platform.server.hasExited()) throw new Error(`the Agent Platform server died:\n${platform.server.outputTail()}`);

  const firsts = new Map<Target, Measurement>([
    [baselineTarget, firstBaseline],
    [serverTarget, firstServer],
  ]);
  const summary = (target: Target) => {
    const measured = runs.get(target)!;
    const all = [firsts.get(target)!, ...measured];
    const times = measured.map((run) => run.response.ms);
    return {
      medianMs: median(times),
      minMs: Math.min(...times),
      maxMs: Math.max(...times),
      firstMs: firsts.get(target)!.response.ms,
      firstByteMs: median(measured.map((run) => run.response.firstByteMs)),
      idleMb: firsts.get(target)!.memory.idleMb,
      // Every request, the cold one included, must stay within the memory aim.
      aboveIdleMb: Math.max(...all.map((run) => run.memory.peakMb - run.memory.idleMb)),
      perRunAboveIdle: all.map((run) => (run.memory.peakMb - run.memory.idleMb).toFixed(1)).join(', '),
      method: all.some((run) => run.memory.method !== 'VmHWM') ? 'sampled VmRSS' : 'VmHWM',
      bodyMb: mb(measured[0]!.response.bytes),
    };
  };
  const base = summary(baselineTarget);
  const real = summary(serverTarget);
  const page = await measurePageListings(config, log, platform, baseline, pageCorpus.id);
  const conditional = await measureConditionalListings(platform, pageCorpus.id, cleanup, log);

  return {
    title: `listing: GET /api/corpus/{id}/document/ over ${DOCUMENTS.toLocaleString('en')} documents of ~2 KB (SQLite)`,
    results: page.results,
    tables: [
      conditional.table,
      page.table,
      {
        header: ['target', 'median ms', 'min ms', 'max ms', 'first (cold) ms', 'first byte ms', 'idle RSS MB', 'peak above idle MB', 'body MB'],
        rows: targets.map((target) => {
          const s = target === baselineTarget ? base : real;
          return [
            target.name,
            fixed(s.medianMs, 0),
            fixed(s.minMs, 0),
            fixed(s.maxMs, 0),
            fixed(s.firstMs, 0),
            fixed(s.firstByteMs, 1),
            fixed(s.idleMb, 1),
            fixed(s.aboveIdleMb, 1),
            fixed(s.bodyMb, 1),
          ];
        }),
      },
    ],
    aims: [
      { label: 'server time / baseline time (medians)', value: real.medianMs / base.medianMs, comparison: '<=', target: TIME_RATIO_AIM },
      { label: 'server peak memory above idle', value: real.aboveIdleMb, comparison: '<', target: MEMORY_AIM_MB, unit: ' MB' },
      ...page.aims,
    ],
    notes: [
      `times: to the last byte, median of ${REPETITIONS} requests after a first cold one, the two processes alternated; ` +
        `peak memory: the highest of all ${REPETITIONS + 1} requests, read from ${real.method === base.method ? real.method : `${real.method} / ${base.method}`} ` +
        `after resetting it (clear_refs) just before each request`,
      `peak above idle per request (first first), MB: server ${real.perRunAboveIdle}; baseline ${base.perRunAboveIdle}`,
      check,
      ...page.notes,
      ...conditional.notes,
      `seeding: ${DOCUMENTS} documents written into the SQLite file with the server stopped, in ${seedSeconds.toFixed(1)} s`,
    ],
    speedRows: conditional.speedRows,
  };
}

export const listingSuite: BenchSuite = {
  name: 'listing',
  description:
    'GET /api/corpus/{id}/document/ over 10,000 documents of ~2 KB vs one JSON.stringify of the same rows: time and peak memory; ' +
    '200 documents listed whole and as a v2 page under load, CPU against the floor; the same one at a time, 200 and 304, beside a bare Fastify route',
  // The whole listing's rounds, then four load targets, then the 200 documents one request at a time.
  timeBudgetSeconds: (config: BenchConfig) => 360 + 4 * (config.warmupSeconds + config.durationSeconds + 20),
  run: runListingSuite,
};
