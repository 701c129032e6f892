// The stall suite: does one hostile request freeze everyone else? While each request below works on
// untrusted input (a long word, a pattern that backtracks, a model's or a document's text), a second
// client asks GET /health one request after another on its own connection; the worst of those answers
// is what any other tenant would have waited. The same probe on the idle server, in the same run, is
// the baseline. Aim: no answer of /health over 250 ms while a hostile request runs. See
// docs/performance.md, suite `stall`.
import { readFileSync } from 'node:fs';
import { startAgentPlatform } from './lib/agent-platform-server.js';
import { ApiError, type ApiClient } from './lib/api-client.js';
import { apiKeyClient } from './lib/credentials.js';
import { startFakeModel, type FakeModel } from './lib/fake-model-process.js';
import { singleConnectionAgent, timedRequest } from './lib/http-timing.js';
import { percentile } from './lib/percentiles.js';
import { fixed, type SuiteReport } from './lib/report.js';
import type { BenchSuite, SuiteContext } from './lib/suite.js';

const HEALTH_AIM_MS = 250;
/** GitHub's REST description (13 MB, 1,200+ operations), the largest document imports meet. */
const GITHUB_DESCRIPTION = new URL('../node_modules/@octokit/openapi/generated/api.github.com.json', import.meta.url);
const IDLE_PROBES = 200;
const WAIT_TIMEOUT_MS = 120_000;

interface Hostile {
  name: string;
  /** Sends the request (and waits for what it started); resolves with how it ended when the work is over. */
  run(): Promise<string>;
}

interface Probe {
  samples: number[];
  stop(): Promise<void>;
}

/** GET /health one after another on one kept-alive connection until stopped. */
function probeHealth(baseUrl: string): Probe {
  const agent = singleConnectionAgent();
  const samples: number[] = [];
  let running = true;
  const loop = (async () => {
    while (running) samples.push((await timedRequest(`${baseUrl}/health`, { agent, timeoutMs: WAIT_TIMEOUT_MS })).ms);
  })();
  return {
    samples,
    stop: async () => {
      running = false;
      await loop;
      agent.destroy();
    },
  };
}

async function idleBaseline(baseUrl: string): Promise<number[]> {
  const agent = singleConnectionAgent();
  const samples: number[] = [];
  for (let i = 0; i < IDLE_PROBES; i++) samples.push((await timedRequest(`${baseUrl}/health`, { agent })).ms);
  agent.destroy();
  return samples;
}

async function waitUntilImported(client: ApiClient, path: string): Promise<string> {
  const deadline = Date.now() + WAIT_TIMEOUT_MS;
  for (;;) {
    const run = await client.call<{ status: string; imported: number; skipped: number; error: string | null }>('GET', path);
    if (run.status === 'completed') return `${run.imported} tools, ${run.skipped} skipped`;
    if (run.status === 'failed') return `failed: ${run.error ?? ''}`;
    if (Date.now() > deadline) throw new Error(`import ${path} not done within ${WAIT_TIMEOUT_MS} ms (${run.status})`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function waitUntilIndexed(client: ApiClient, corpusId: number, documentId: number): Promise<string> {
  const deadline = Date.now() + WAIT_TIMEOUT_MS;
  for (;;) {
    const document = await client.call<{ step: string; chunk_count: number }>('GET', `/api/v2/corpora/${corpusId}/documents/${documentId}`);
    if (document.step === 'indexed' || document.step === 'failed') return `${document.step}, ${document.chunk_count} chunks`;
    if (Date.now() > deadline) throw new Error(`document ${documentId} not processed within ${WAIT_TIMEOUT_MS} ms (${document.step})`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** What the server is given, each request with the data that once froze it (issue of 0.7.0). */
async function hostileRequests(client: ApiClient, fake: FakeModel): Promise<Hostile[]> {
  const me = await client.call<{ organization_id: number }>('GET', '/api/v2/users/me');
  const org = me.organization_id;
  for (const flag of ['api-tools', 'guardrail']) await client.call('PUT', `/api/v2/feature-flags/${flag}`, { enabled: true });
  const guardrail = (type: string, config: Record<string, unknown>) =>
    client.call<{ id: number }>('POST', '/api/v2/guardrails', { name: `Stall ${type}`, type, action: 'redact', stages: ['input'], config }, 201);
  const lengthGuardrail = await guardrail('length', { max_tokens: 10 });
  const piiGuardrail = await guardrail('pii', {});
  const configuration = (model: string) =>
    client.call<{ id: number }>('POST', `/api/v2/organizations/${org}/llm-configurations`, { name: `Stall ${model}`, provider: 'openai_compatible', model, base_url: fake.baseUrl, context_window: 128_000 }, 201);
  const agent = async (model: string) =>
    (await client.call<{ id: number }>('POST', '/api/v2/agents', { name: `Stall ${model}`, instructions: 'Answer.', llm_configuration_id: (await configuration(model)).id }, 201)).id;
  const instantAgent = await agent('instant');
  const longAnswerAgent = await agent('long-word-2000000');
  const tool = await client.call<{ id: number }>(
    'POST',
    `/api/v2/organizations/${org}/tools/api`,
    {
      name: 'lookup',
      description: 'Looks a code up',
      config: {
        method: 'GET',
        url: `http://${fake.host}/bench/weather/{code}`,
        parameters: { type: 'object', properties: { code: { type: 'string', pattern: '^(a+)+$' } }, required: ['code'] },
      },
    },
    201,
  );
  const corpus = await client.call<{ id: number }>('POST', '/api/v2/corpora', { name: 'Stall' }, 201);
  // The tokenizer's worst case within the test route's 200,000 characters: one word of random letters (no repeats to remember).
  let seed = 7;
  const randomLetters = Array.from({ length: 199_000 }, () => String.fromCharCode(97 + ((seed = (seed * 1103515245 + 12345) >>> 0) >>> 16) % 26)).join('');
  const invisible = Array.from({ length: 39_800 }, (_, i) => `a\u200b${String.fromCharCode(0x0661 + (i % 9))}\u0336\u00a0`).join('');
  const ask = (agentId: number, query: string) => client.call('POST', `/api/v2/agents/${agentId}/responses`, { query }, 201);
  const answerOrRefusal = async (work: Promise<unknown>): Promise<string> => {
    try {
      await work;
      return 'answered';
    } catch (error) {
      // A refusal (4xx) is an answer too: what matters is the time the others waited meanwhile.
      if (error instanceof ApiError) return `${error.status} ${(JSON.parse(error.body) as { message?: string }).message?.slice(0, 60) ?? ''}`;
      throw error;
    }
  };
  const github = readFileSync(GITHUB_DESCRIPTION, 'utf8');
  return [
    { name: 'length guardrail test, one word of 100,000 characters', run: () => answerOrRefusal(client.call('POST', `/api/v2/guardrails/${lengthGuardrail.id}/test`, { text: 'x'.repeat(100_000) })) },
    { name: 'length guardrail test, one word of 199,000 random letters', run: () => answerOrRefusal(client.call('POST', `/api/v2/guardrails/${lengthGuardrail.id}/test`, { text: randomLetters })) },
    { name: 'PII guardrail test, 199,000 characters of digits, invisible characters and marks', run: () => answerOrRefusal(client.call('POST', `/api/v2/guardrails/${piiGuardrail.id}/test`, { text: invisible })) },
    { name: 'question of one word of 32,000 characters', run: () => answerOrRefusal(ask(instantAgent, 'y'.repeat(32_000))) },
    { name: 'a model answering one word of 2,000,000 characters without usage', run: () => answerOrRefusal(ask(longAnswerAgent, 'Tell me.')) },
    { name: "tool test, pattern ^(a+)+$ and an argument of 30 a's and a '!'", run: () => answerOrRefusal(client.call('POST', `/api/v2/organizations/${org}/tools/${tool.id}/test`, { input: { code: `${'a'.repeat(30)}!` } })) },
    { name: 'tool test, the same pattern and 100,000 characters', run: () => answerOrRefusal(client.call('POST', `/api/v2/organizations/${org}/tools/${tool.id}/test`, { input: { code: `${'a'.repeat(100_000)}!` } })) },
    {
      name: 'document of one word of 100 KB, uploaded until indexed',
      run: async () => {
        const { items } = await client.call<{ items: Array<{ id: number }> }>('POST', `/api/v2/corpora/${corpus.id}/documents`, { upload_from: 'text', text: 'z'.repeat(100_000), name: 'one-word.txt' }, 201);
        return waitUntilIndexed(client, corpus.id, items[0]!.id);
      },
    },
    {
      name: 'tool import preview of GitHub’s description (13 MB)',
      run: async () => {
        const preview = await client.call<{ operations: unknown[] }>('POST', `/api/v2/organizations/${org}/tool-imports/preview`, { document: github });
        return `${preview.operations.length} operations`;
      },
    },
    {
      name: 'tool import of GitHub’s description (13 MB), until completed',
      run: async () => {
        const path = `/api/v2/organizations/${org}/tool-imports`;
        const started = await client.call<{ id: number }>('POST', path, { document: github, name_prefix: 'gh_' }, 202);
        return waitUntilImported(client, `${path}/${started.id}`);
      },
    },
  ];
}

async function runStallSuite({ config, cleanup, log }: SuiteContext): Promise<SuiteReport> {
  log('starting the fake model server (own process) and the Agent Platform server');
  const fake = await startFakeModel(cleanup);
  const platform = await startAgentPlatform(config, cleanup, { EGRESS_ALLOWED_HOSTS: fake.host });
  const client = await apiKeyClient(platform);
  const baseUrl = platform.server.baseUrl;
  // BENCH_STALL_ONLY: the hostile requests whose name holds this text, alone (e.g. "GitHub").
  const only = process.env.BENCH_STALL_ONLY;
  const hostile = (await hostileRequests(client, fake)).filter((request) => only === undefined || request.name.includes(only));
  const idle = Float64Array.from(await idleBaseline(baseUrl)).sort();
  const rows: string[][] = [['(idle server, baseline)', fixed(percentile(idle, 50), 1), fixed(percentile(idle, 99), 1), fixed(idle[idle.length - 1]!, 1), String(idle.length), '', '']];
  let worstOverall = 0;
  for (const request of hostile) {
    log(`hostile: ${request.name}`);
    const probe = probeHealth(baseUrl);
    const started = performance.now();
    let outcome: string;
    try {
      outcome = await request.run();
    } finally {
      await probe.stop();
    }
    const took = performance.now() - started;
    const samples = Float64Array.from(probe.samples).sort();
    const worst = samples[samples.length - 1] ?? Number.NaN;
    worstOverall = Math.max(worstOverall, worst);
    rows.push([request.name, fixed(percentile(samples, 50), 1), fixed(percentile(samples, 99), 1), fixed(worst, 1), String(samples.length), fixed(took, 0), outcome]);
  }
  return {
    title: 'Stall: GET /health while one request works on hostile input (SQLite, one server process)',
    results: [],
    tables: [{ header: ['hostile request', '/health p50 ms', '/health p99 ms', '/health worst ms', 'probes', 'request ms', 'outcome'], rows }],
    aims: [{ label: 'worst /health answer while any hostile request runs', value: worstOverall, comparison: '<=', target: HEALTH_AIM_MS, unit: 'ms' }],
    notes: [
      'Each probe waits for the previous one: a frozen event loop shows as one long answer. The hostile request may be refused (4xx): the time the others waited is what is measured.',
      'The server reports the event loop delay itself at /metrics (nodejs_eventloop_lag_* and the histogram of docs/operations.md).',
    ],
  };
}

export const stallSuite: BenchSuite = {
  name: 'stall',
  description: 'GET /health answered while hostile inputs run (long words, backtracking patterns, huge answers, one-word documents, GitHub’s OpenAPI description imported)',
  timeBudgetSeconds: () => 900,
  run: runStallSuite,
};
