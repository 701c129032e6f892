// One set on one running server, through the HTTP API only: its pages uploaded into a new corpus
// (multipart, as an upload tool sends a folder), waited for until indexed, then each question asked
// of the search route. A passage is mapped back to its page by its document id, which the upload's
// answer gave for each file in the order sent.
import { Agent } from 'node:http';
import { basename } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { ApiClient } from '../lib/api-client.js';
import { createCorpus, type CorpusView } from '../lib/corpus-setup.js';
import { singleConnectionAgent } from '../lib/http-timing.js';
import { inParallel, multipartBody } from '../lib/multipart.js';
import { percentile } from '../lib/percentiles.js';
import { timedPost } from '../lib/timed-post.js';
import { MRR_DEPTH, firstAnswerRank, scoreRanks, type RelevanceScores } from './measures.js';
import type { Question } from './questions.js';
import type { LoadedSet, Page } from './sets.js';

/** Files a multipart request carries: the server's default LIMIT_UPLOAD_FILES. */
const FILES_PER_REQUEST = 20;
/**
 * One upload at a time: documents then get their ids in the order of the pages, and passages that
 * score alike (an option block repeated on many pages) are ranked alike from one run to the next.
 */
const UPLOADS_IN_FLIGHT = 1;
const POLL_MS = 250;
const INDEXING_TIMEOUT_MS = 15 * 60_000;

export interface QuestionOutcome {
  question: Question;
  /** Rank of the first passage from an answering page, undefined when none is in the answer. */
  rank: number | undefined;
  /** The page of the first passage, and its heading path. */
  firstPage: string | undefined;
  firstHeading: string | null | undefined;
}

export interface SetEvaluation {
  loaded: LoadedSet;
  failedPages: number;
  pagesPerSecond: number;
  outcomes: QuestionOutcome[];
  scores: RelevanceScores;
  latencyP50Ms: number;
  latencyP95Ms: number;
}

interface UploadedDocument {
  id: number;
  source: string;
}

interface Passage {
  document_id: number;
  heading: string | null;
  score: number;
}

async function postJson<T>(client: ApiClient, path: string, agent: Agent, body: Buffer | string, contentType: string, expected: number): Promise<{ data: T; ms: number }> {
  const { text, ms } = await timedPost(client, path, agent, body, contentType, expected);
  return { data: (JSON.parse(text) as { data: T }).data, ms };
}

/** Uploads the pages; answers the page of each document id. */
async function uploadPages(client: ApiClient, corpusId: number, pages: Page[]): Promise<Map<number, string>> {
  const pageOf = new Map<number, string>();
  const batches: Page[][] = [];
  for (let start = 0; start < pages.length; start += FILES_PER_REQUEST) batches.push(pages.slice(start, start + FILES_PER_REQUEST));
  const agent = new Agent({ keepAlive: true, maxSockets: UPLOADS_IN_FLIGHT });
  try {
    await inParallel(batches, UPLOADS_IN_FLIGHT, async (batch) => {
      // The file name is the page's path; the server shows its last part, as it would for a browser's folder upload.
      const files = batch.map((page) => ({ name: page.path, bytes: page.bytes, contentType: 'text/html' }));
      const { body, contentType } = multipartBody(files, { on_duplicate: 'keep_both' });
      const { data } = await postJson<{ items: UploadedDocument[] }>(client, `/api/v2/corpora/${corpusId}/documents`, agent, body, contentType, 201);
      if (data.items.length !== batch.length) throw new Error(`an upload of ${batch.length} pages answered ${data.items.length} documents`);
      data.items.forEach((document, index) => {
        const page = batch[index]!;
        if (document.source !== basename(page.path)) throw new Error(`upload answered ${document.source} where ${page.path} was sent`);
        pageOf.set(document.id, page.path);
      });
    });
  } finally {
    agent.destroy();
  }
  return pageOf;
}

async function waitUntilProcessed(client: ApiClient, corpusId: number, expected: number): Promise<CorpusView['document_counts']> {
  const deadline = Date.now() + INDEXING_TIMEOUT_MS;
  for (;;) {
    const { document_counts: counts } = await client.call<CorpusView>('GET', `/api/v2/corpora/${corpusId}`);
    if (counts.indexed + counts.failed >= expected) return counts;
    if (Date.now() > deadline) throw new Error(`pages not processed within ${INDEXING_TIMEOUT_MS / 1000} s: ${JSON.stringify(counts)}`);
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

async function search(client: ApiClient, corpusId: number, query: string, agent: Agent): Promise<{ passages: Passage[]; ms: number }> {
  const body = JSON.stringify({ query, limit: MRR_DEPTH });
  const { data, ms } = await postJson<{ items: Passage[] }>(client, `/api/v2/corpora/${corpusId}/search`, agent, body, 'application/json', 200);
  return { passages: data.items, ms };
}

export async function evaluateSet(client: ApiClient, loaded: LoadedSet, questions: Question[], log: (message: string) => void): Promise<SetEvaluation> {
  const { set, pages } = loaded;
  const corpus = await createCorpus(client, `Relevance: ${set.name}`);
  log(`${set.name}: uploading ${pages.length} pages`);
  const started = performance.now();
  const pageOf = await uploadPages(client, corpus.id, pages);
  const counts = await waitUntilProcessed(client, corpus.id, pages.length);
  const pagesPerSecond = pages.length / ((performance.now() - started) / 1000);
  if (counts.failed > 0) log(`${set.name}: WARNING ${counts.failed} pages failed to be indexed`);

  log(`${set.name}: asking ${questions.length} questions`);
  const agent = singleConnectionAgent();
  try {
    const outcomes: QuestionOutcome[] = [];
    for (const question of questions) {
      const { passages } = await search(client, corpus.id, question.question, agent);
      const results = passages.map((passage) => ({ page: pageOf.get(passage.document_id), score: passage.score }));
      outcomes.push({
        question,
        rank: firstAnswerRank(results, new Set(question.answers.map((answer) => answer.page))),
        firstPage: results[0]?.page,
        firstHeading: passages[0]?.heading,
      });
    }
    // Timed on a second pass: the first one warmed the server's caches and compiled its code paths.
    const latencies: number[] = [];
    for (const question of questions) latencies.push((await search(client, corpus.id, question.question, agent)).ms);
    latencies.sort((a, b) => a - b);
    return {
      loaded,
      failedPages: counts.failed,
      pagesPerSecond,
      outcomes,
      scores: scoreRanks(outcomes.map((outcome) => outcome.rank)),
      latencyP50Ms: percentile(latencies, 50),
      latencyP95Ms: percentile(latencies, 95),
    };
  } finally {
    agent.destroy();
  }
}
