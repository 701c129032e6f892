// The ingestion suite: documents uploaded through the real API until every one is `indexed`, as a
// client would do it. Plain text (200 documents of 1.2 KB, uploaded as multipart batches and as
// JSON text uploads), PDFs (50 of four pages), then a real HTML manual (git's, from its Debian
// package). Time from the first upload request to the moment the last document was indexed, as
// documents/s and MB/s, with the pipeline's own per-step timings (step_timings) beside it.
import { Agent } from 'node:http';
import { performance } from 'node:perf_hooks';
import type { ApiClient } from './lib/api-client.js';
import { startAgentPlatform, type AgentPlatformServer } from './lib/agent-platform-server.js';
import type { BenchConfig } from './lib/bench-config.js';
import { createCorpus, type CorpusView } from './lib/corpus-setup.js';
import { apiKeyClient } from './lib/credentials.js';
import { inParallel, multipartBody, type UploadFile } from './lib/multipart.js';
import { percentile } from './lib/percentiles.js';
import { makePdf, wrapLines } from './lib/pdf.js';
import { processCpuSeconds } from './lib/process-cpu.js';
import { fixed, type Aim, type ReportTable, type SuiteReport } from './lib/report.js';
import { createScratchPostgres, postgresServerUrl } from './lib/scratch-postgres.js';
import type { BenchSuite, SuiteContext } from './lib/suite.js';
import { timedPost } from './lib/timed-post.js';
import { ZipfVocabulary, seededRandom } from './lib/text-corpus.js';
import { findSets, loadSet, type LoadedSet } from './relevance/sets.js';

const TEXT_DOCUMENTS = 200;
const TEXT_BYTES = 1_200;
const PDF_DOCUMENTS = 50;
const PDF_PAGES = 4;
const PDF_LINES_PER_PAGE = 45;
/** Files a multipart request carries: the server's default LIMIT_UPLOAD_FILES. */
export const FILES_PER_REQUEST = 20;
/** Upload requests in flight at once, as an upload tool would keep them. */
export const MULTIPART_CONCURRENCY = 4;
const JSON_CONCURRENCY = 8;
const ROUNDS = 5;
const WARM_UP_PDFS = 10;
/** How often the corpus's document_counts are read while waiting. */
const POLL_MS = 20;
const WAIT_TIMEOUT_MS = 120_000;
/** Aim: plain-text documents indexed a second, end to end, on SQLite. */
const TEXT_RATE_AIM = 400;
/** Aim: pages of a real HTML manual indexed a second. */
const HTML_RATE_AIM = 200;
/** Pages of another manual (Python's) in the warm-up: HTML code paths warm, git's words still unseen. */
const WARM_UP_HTML_PAGES = 40;

export interface DocumentView {
  id: number;
  step: string;
  is_failed: boolean;
  error: string | null;
  chunk_count: number;
  size_bytes: number;
  step_timings: Record<string, number>;
  indexed_on: string | null;
  created_on: string;
}

interface Variant {
  name: string;
  kind: 'text' | 'pdf' | 'html';
  /** Makes the round's documents (distinct contents each round). */
  documents(round: number): UploadFile[];
  /** Sends them; resolves when every upload has answered 201. */
  upload(client: ApiClient, corpusId: number, files: UploadFile[], agent: Agent): Promise<void>;
}

interface RoundResult {
  /** First upload request sent → last document indexed (the server's indexed_on), ms. */
  elapsedMs: number;
  /** First upload request sent → every upload answered, ms. */
  uploadedMs: number;
  /** First upload request sent → the client saw document_counts reach the total, ms. */
  observedMs: number;
  bytes: number;
  documents: DocumentView[];
  serverCpuSeconds: number;
}

const vocabulary = new ZipfVocabulary(20_000);

function textDocuments(round: number, prefix: string): UploadFile[] {
  const random = seededRandom(1_000 * round + prefix.length);
  return Array.from({ length: TEXT_DOCUMENTS }, (_, i) => ({
    name: `${prefix}-${round}-${String(i + 1).padStart(3, '0')}.txt`,
    bytes: Buffer.from(`${prefix} ${round}.${i + 1}. ${vocabulary.text(random, TEXT_BYTES)}`.slice(0, TEXT_BYTES), 'utf8'),
    contentType: 'text/plain',
  }));
}

function pdfDocuments(round: number): UploadFile[] {
  const random = seededRandom(50_000 + round);
  return Array.from({ length: PDF_DOCUMENTS }, (_, i) => {
    const title = `Operations manual ${round}.${i + 1}`;
    const pages = Array.from({ length: PDF_PAGES }, (_, page) => {
      const lines = wrapLines(vocabulary.sentences(random, PDF_LINES_PER_PAGE * 14), 90).slice(0, PDF_LINES_PER_PAGE - 2);
      return [`${title}, section ${page + 1}`, '', ...lines];
    });
    return { name: `manual-${round}-${String(i + 1).padStart(2, '0')}.pdf`, bytes: makePdf(pages, title), contentType: 'application/pdf' };
  });
}

async function send(client: ApiClient, path: string, agent: Agent, body: Buffer | string, contentType: string): Promise<void> {
  await timedPost(client, path, agent, body, contentType, 201);
}

export function multipartUpload(client: ApiClient, corpusId: number, files: UploadFile[], agent: Agent): Promise<void> {
  const batches: UploadFile[][] = [];
  for (let start = 0; start < files.length; start += FILES_PER_REQUEST) batches.push(files.slice(start, start + FILES_PER_REQUEST));
  // Each body is built when its request is due, as a client reading files from disk would.
  return inParallel(batches, MULTIPART_CONCURRENCY, async (batch) => {
    const { body, contentType } = multipartBody(batch);
    await send(client, `/api/v2/corpora/${corpusId}/documents`, agent, body, contentType);
  });
}

function jsonUpload(client: ApiClient, corpusId: number, files: UploadFile[], agent: Agent): Promise<void> {
  return inParallel(files, JSON_CONCURRENCY, async (file) => {
    const body = JSON.stringify({ upload_from: 'text', text: file.bytes.toString('utf8'), name: file.name });
    await send(client, `/api/v2/corpora/${corpusId}/documents`, agent, body, 'application/json');
  });
}

/** A manual's pages as uploads, named by their path in the package (the same pages every round). */
function manualPages(manual: LoadedSet): UploadFile[] {
  return manual.pages.map((page) => ({ name: page.path.replaceAll('/', '_'), bytes: page.bytes, contentType: 'text/html' }));
}

function variants(manual: LoadedSet): Variant[] {
  return [
    {
      name: `text: multipart, ${FILES_PER_REQUEST} files a request, ${MULTIPART_CONCURRENCY} requests at once`,
      kind: 'text',
      documents: (round) => textDocuments(round, 'multipart'),
      upload: multipartUpload,
    },
    {
      name: `text: JSON upload_from text, one a request, ${JSON_CONCURRENCY} at once`,
      kind: 'text',
      documents: (round) => textDocuments(round, 'json'),
      upload: jsonUpload,
    },
    {
      name: `PDF (${PDF_PAGES} pages): multipart, ${FILES_PER_REQUEST} a request, ${MULTIPART_CONCURRENCY} at once`,
      kind: 'pdf',
      documents: pdfDocuments,
      upload: multipartUpload,
    },
    {
      name: `HTML manual (${manual.set.debianPackage} ${manual.packageVersion}, ${manual.pages.length} pages): multipart, ${FILES_PER_REQUEST} a request, ${MULTIPART_CONCURRENCY} at once`,
      kind: 'html',
      documents: () => manualPages(manual),
      upload: multipartUpload,
    },
  ];
}

export async function waitUntilProcessed(client: ApiClient, corpusId: number, expected: number): Promise<CorpusView['document_counts']> {
  const deadline = Date.now() + WAIT_TIMEOUT_MS;
  for (;;) {
    const { document_counts: counts } = await client.call<CorpusView>('GET', `/api/v2/corpora/${corpusId}`);
    if (counts.failed > 0 || counts.indexed >= expected) return counts;
    if (Date.now() > deadline) throw new Error(`documents not processed within ${WAIT_TIMEOUT_MS} ms: ${JSON.stringify(counts)}`);
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

export async function listDocuments(client: ApiClient, corpusId: number, expected: number): Promise<DocumentView[]> {
  const documents: DocumentView[] = [];
  for (let page = 1; documents.length < expected; page++) {
    const { items } = await client.call<{ items: DocumentView[] }>('GET', `/api/v2/corpora/${corpusId}/documents?page_size=100&page=${page}`);
    if (items.length === 0) break;
    documents.push(...items);
  }
  return documents;
}

async function runRound(client: ApiClient, serverPid: number, variant: Variant, round: number): Promise<RoundResult> {
  const corpus = await createCorpus(client, `Ingestion ${variant.kind} ${round} ${variant.name}`.slice(0, 200));
  const files = variant.documents(round);
  const agent = new Agent({ keepAlive: true, maxSockets: Math.max(MULTIPART_CONCURRENCY, JSON_CONCURRENCY) });
  try {
    const cpuBefore = processCpuSeconds(serverPid);
    const startedWall = Date.now();
    const started = performance.now();
    await variant.upload(client, corpus.id, files, agent);
    const uploadedMs = performance.now() - started;
    const counts = await waitUntilProcessed(client, corpus.id, files.length);
    const observedMs = performance.now() - started;
    const cpuAfter = processCpuSeconds(serverPid);
    const documents = await listDocuments(client, corpus.id, files.length);
    const failed = documents.find((document) => document.is_failed);
    if (counts.failed > 0 || failed) throw new Error(`${variant.name}: a document failed: ${failed?.error ?? JSON.stringify(counts)}`);
    if (documents.length !== files.length) throw new Error(`${variant.name}: ${documents.length} documents listed, ${files.length} uploaded`);
    // The server's clock and this process's are the same machine's: the last indexed_on is when
    // the work ended, whatever the polling interval.
    const lastIndexed = Math.max(...documents.map((document) => Date.parse(document.indexed_on!)));
    return {
      elapsedMs: Math.max(lastIndexed - startedWall, uploadedMs),
      uploadedMs,
      observedMs,
      bytes: files.reduce((sum, file) => sum + file.bytes.length, 0),
      documents,
      serverCpuSeconds: cpuBefore === undefined || cpuAfter === undefined ? Number.NaN : cpuAfter - cpuBefore,
    };
  } finally {
    agent.destroy();
  }
}

const median = (values: number[]) => percentile(Float64Array.from(values).sort(), 50);
const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
const MB = 1024 * 1024;

interface VariantSummary {
  variant: Variant;
  documentsPerSecond: number;
  rounds: RoundResult[];
}

function summarise(variant: Variant, rounds: RoundResult[]): { row: string[]; steps: string[]; summary: VariantSummary } {
  const medianRound = [...rounds].sort((a, b) => a.elapsedMs - b.elapsedMs)[Math.floor(rounds.length / 2)]!;
  const count = medianRound.documents.length;
  const documents = rounds.flatMap((round) => round.documents);
  const timing = (step: string) => mean(documents.map((document) => document.step_timings[step] ?? 0));
  const queuedToIndexed = mean(documents.map((document) => Date.parse(document.indexed_on!) - Date.parse(document.created_on)));
  const documentsPerSecond = count / (medianRound.elapsedMs / 1000);
  return {
    summary: { variant, documentsPerSecond, rounds },
    row: [
      variant.name,
      String(count),
      fixed(medianRound.bytes / MB, 2),
      fixed(medianRound.uploadedMs, 0),
      fixed(medianRound.elapsedMs, 0),
      rounds.map((round) => fixed(round.elapsedMs, 0)).join(' / '),
      fixed(documentsPerSecond, 0),
      fixed(medianRound.bytes / MB / (medianRound.elapsedMs / 1000), 2),
      fixed((medianRound.serverCpuSeconds * 1e6) / count, 0),
    ],
    steps: [
      variant.name,
      fixed(timing('extracting'), 2),
      fixed(timing('chunking'), 2),
      fixed(queuedToIndexed, 0),
      fixed(mean(documents.map((document) => document.chunk_count)), 1),
      fixed(mean(documents.map((document) => document.size_bytes)) / 1024, 1),
    ],
  };
}

/** The suite's uploads on one server: its tables and aims, each labelled with the database when `database` is given. */
async function measureOn(platform: AgentPlatformServer, manuals: { git: LoadedSet; python: LoadedSet }, log: (message: string) => void, database?: string) {
  const client = await apiKeyClient(platform);
  const on = (text: string) => (database === undefined ? text : `${database}: ${text}`);

  // A long-running server has its code compiled and the tokenizer's cache of frequent words filled;
  // without a warm-up of the same size as a round, each round ran faster than the one before. The
  // HTML of the warm-up is another manual's, so that git's own words are new to the first round.
  log(on(`warm-up: ${TEXT_DOCUMENTS} text, ${WARM_UP_PDFS} PDF documents and ${WARM_UP_HTML_PAGES} pages of ${manuals.python.set.debianPackage}, not measured`));
  const warmUp = await createCorpus(client, 'Ingestion warm-up');
  const warmAgent = new Agent({ keepAlive: true, maxSockets: MULTIPART_CONCURRENCY });
  const warmFiles = [...textDocuments(0, 'warm'), ...pdfDocuments(0).slice(0, WARM_UP_PDFS), ...manualPages(manuals.python).slice(0, WARM_UP_HTML_PAGES)];
  await multipartUpload(client, warmUp.id, warmFiles, warmAgent);
  warmAgent.destroy();
  await waitUntilProcessed(client, warmUp.id, warmFiles.length);

  const rows: string[][] = [];
  const steps: string[][] = [];
  const summaries: VariantSummary[] = [];
  for (const variant of variants(manuals.git)) {
    const rounds: RoundResult[] = [];
    for (let round = 1; round <= ROUNDS; round++) {
      log(on(`${variant.name}: round ${round} of ${ROUNDS}`));
      rounds.push(await runRound(client, platform.server.pid, variant, round));
    }
    const { row, steps: stepRow, summary } = summarise(variant, rounds);
    rows.push(row);
    steps.push(stepRow);
    summaries.push(summary);
  }
  if (platform.server.hasExited()) throw new Error(`the Agent Platform server died:\n${platform.server.outputTail()}`);

  const bestText = summaries.filter((s) => s.variant.kind === 'text').sort((a, b) => b.documentsPerSecond - a.documentsPerSecond)[0]!;
  const html = summaries.find((s) => s.variant.kind === 'html')!;
  const tables: ReportTable[] = [
    {
      title: on(`End to end, first upload request → last document indexed; median of ${ROUNDS} rounds, each into a new corpus`),
      header: ['upload', 'documents', 'MB', 'uploads answered ms', 'all indexed ms', 'rounds ms', 'documents/s', 'MB/s', 'server CPU µs/doc'],
      rows,
    },
    {
      title: on(`Per document, mean over the ${ROUNDS} rounds (step_timings of each document, and its created_on → indexed_on)`),
      header: ['upload', 'extracting ms', 'chunking ms', 'queued → indexed ms', 'chunks', 'KB'],
      rows: steps,
    },
  ];
  const aims: Aim[] = [
    { label: on(`plain text documents/s (best upload: ${bestText.variant.name.replace('text: ', '')})`), value: bestText.documentsPerSecond, comparison: '>=', target: TEXT_RATE_AIM },
    { label: on(`HTML manual pages/s (${manuals.git.set.debianPackage})`), value: html.documentsPerSecond, comparison: '>=', target: HTML_RATE_AIM },
  ];
  const observedLag = summaries.flatMap((s) => s.rounds.map((round) => round.observedMs - round.elapsedMs));
  return { tables, aims, observedLag };
}

async function runIngestionSuite({ config, cleanup, log }: SuiteContext): Promise<SuiteReport> {
  const [git, python] = await Promise.all(findSets(['git', 'python']).map((set) => loadSet(set, log)));
  const manuals = { git: git!, python: python! };
  log('starting the Agent Platform server (SQLite, fresh data folder, in-process worker)');
  const sqlite = await startAgentPlatform(config, cleanup);
  const postgresUrl = postgresServerUrl();
  const runs = [await measureOn(sqlite, manuals, log, postgresUrl === undefined ? undefined : 'SQLite')];
  if (postgresUrl !== undefined) {
    // The SQLite server is done with: stopped, so that it does not compete for the CPUs.
    await sqlite.server.stop();
    const url = await createScratchPostgres(postgresUrl, 'ap_ingestion_bench', cleanup);
    log('starting the Agent Platform server on a PostgreSQL database of its own');
    runs.push(await measureOn(await startAgentPlatform(config, cleanup, { DATABASE_URL: url }), manuals, log, 'PostgreSQL'));
  }
  const observedLag = runs.flatMap((run) => run.observedLag);
  return {
    title: `ingestion: upload → indexed through the API, in-process worker (${postgresUrl === undefined ? 'SQLite' : 'SQLite, then PostgreSQL'})`,
    results: [],
    tables: runs.flatMap((run) => run.tables),
    aims: runs.flatMap((run) => run.aims),
    notes: [
      `end of a round: the latest indexed_on of its documents (same machine's clock); completion was watched by reading ` +
        `GET /api/v2/corpora/{id} every ${POLL_MS} ms, which saw it ${fixed(median(observedLag), 0)} ms later (median)`,
      `server CPU µs/doc: user + system CPU of the server process from the first upload to the poll that saw the end, ` +
        `divided by the documents (the polling reads included; PostgreSQL's own processes not included)`,
      `a warm-up upload (${TEXT_DOCUMENTS} text, ${WARM_UP_PDFS} PDF documents, ${WARM_UP_HTML_PAGES} pages of ${manuals.python.set.debianPackage}) ran first; ` +
        `worker: WORKER_CONCURRENCY default (4), no embedder (full text only); MB = 2^20 bytes`,
      `the HTML manual's rounds upload the same pages, each into a new corpus: its first round meets git's words for the first time, the later ones find them remembered by the tokenizer`,
    ],
  };
}

export const ingestionSuite: BenchSuite = {
  name: 'ingestion',
  description: "upload → indexed through the API: 200 text documents of 1.2 KB (multipart and JSON), 50 four-page PDFs, git's HTML manual (PostgreSQL too with DATABASE_URL)",
  timeBudgetSeconds: (_config: BenchConfig) => (postgresServerUrl() === undefined ? 420 : 840),
  run: runIngestionSuite,
};
