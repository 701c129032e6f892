// `npm run bench:evaluations`: evaluations of 500 queries at concurrency 8, on SQLite and, when
// DATABASE_URL names a PostgreSQL server, on PostgreSQL. The agent's model is the benchmarks' fake
// OpenAI-compatible server (bench/lib/fake-model-server.ts, its own process, answering at once); the
// judge is this file run as a process of its own (FAKE_JUDGE_PORT), answering a JSON verdict at once.
// The server runs built (dist/cli.js, bench/lib/agent-platform-server.ts) on a database of its own.
// Measured, one after the other on the same server: the 500 questions asked through the ask route
// (what a plain ask costs), then three evaluations of the 500 queries: six metrics without a model
// (exact match, contains, token F1, ROUGE-L, hit@5, latency); six with a judge (answer relevance in
// the place of contains); and the six without a model on an agent with no model (no model call at
// all: retrieval, the offline answer, scoring and writing). Printed for each: queries a second (from
// the evaluation's start to its end, as the server records them) and the server's CPU time a query
// (user + system, from /proc: what the server spent, whoever was the bottleneck). See
// docs/performance.md ("Suite `evaluations`") and docs/evaluations.md.
//
// Settings: BENCH_EVALUATION_QUERIES (default 500), BENCH_EVALUATION_CONCURRENCY (default 8),
// BENCH_CPU_PROFILE_DIR (the server runs with --cpu-prof and writes its profile there, with
// phases.json: each phase's span on the profile's clock, to read the profile of one phase apart).
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startAgentPlatform } from './lib/agent-platform-server.js';
import { ApiClient } from './lib/api-client.js';
import { loadBenchConfig } from './lib/bench-config.js';
import { startChildServer } from './lib/child-server.js';
import { CleanupStack } from './lib/cleanup.js';
import { startFakeModel } from './lib/fake-model-process.js';
import { LOOPBACK, findFreePort } from './lib/free-port.js';
import { describeMachine, formatMachine } from './lib/machine.js';
import { processCpuSeconds } from './lib/process-cpu.js';
import { createScratchPostgres, postgresServerUrl } from './lib/scratch-postgres.js';

const QUERIES = Number(process.env.BENCH_EVALUATION_QUERIES ?? 500);
const CONCURRENCY = Number(process.env.BENCH_EVALUATION_CONCURRENCY ?? 8);
const AIM_SERVER_MS = 5;
const DOCUMENTS = 20;
const VERDICT = '{"score": 4, "reason": "Addresses the question"}';

const log = (message) => process.stderr.write(`[bench:evaluations] ${message}\n`);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Run as the judge's own process (FAKE_JUDGE_PORT set): the same verdict at once, streamed as OpenAI streams it, with usage. */
function serveJudge(port) {
  const chunk = (delta, finish = null) => ({ id: 'judge', object: 'chat.completion.chunk', created: 0, model: 'judge', choices: [{ index: 0, delta, finish_reason: finish }] });
  const server = createServer((request, response) => {
    if (request.method === 'GET' && request.url?.endsWith('/models')) return response.writeHead(200, { 'content-type': 'application/json' }).end('{"object":"list","data":[{"id":"judge","object":"model"}]}');
    let length = 0;
    request.on('data', (piece) => (length += piece.length));
    request.on('end', () => {
      if (!request.url?.endsWith('/chat/completions')) return response.writeHead(404).end();
      const prompt = Math.ceil(length / 4);
      const usage = { ...chunk({}), choices: [], usage: { prompt_tokens: prompt, completion_tokens: 12, total_tokens: prompt + 12 } };
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      for (const event of [chunk({ role: 'assistant', content: VERDICT }), chunk({}, 'stop'), usage]) response.write(`data: ${JSON.stringify(event)}\n\n`);
      response.end('data: [DONE]\n\n');
    });
  });
  server.listen(port, LOOPBACK);
}

/** The judge, in a child process of its own (this file in judge mode), reached over loopback like the model. */
async function startJudge(cleanup) {
  const port = await findFreePort();
  const server = await startChildServer(
    { label: 'fake-judge', nodeArgs: ['--import', 'tsx', fileURLToPath(import.meta.url)], env: { FAKE_JUDGE_PORT: String(port) }, port, readyPath: '/v1/models' },
    cleanup,
  );
  return { host: `${LOOPBACK}:${port}`, baseUrl: `${server.baseUrl}/v1` };
}

/** An agent on a corpus of short documents, answering with the fake model; a dataset asking about them. */
async function buildWorld(client, model, judge) {
  const me = await client.call('GET', '/api/v2/users/me');
  const llm = `/api/v2/organizations/${me.organization_id}/llm-configurations`;
  const answering = await client.call('POST', llm, { name: 'Fake model', provider: 'openai_compatible', model: 'instant', base_url: model.baseUrl, input_price_per_million: 0.15, output_price_per_million: 0.6 }, 201);
  const judging = await client.call('POST', llm, { name: 'Fake judge', provider: 'openai_compatible', model: 'judge', base_url: judge.baseUrl, input_price_per_million: 0.15, output_price_per_million: 0.6 }, 201);
  const corpus = await client.call('POST', '/api/v2/corpora', { name: 'Billing handbook' }, 201);
  const documents = [];
  for (let i = 0; i < DOCUMENTS; i++) {
    const text = `# Invoices, part ${i}\n\nTo send invoice batch ${i}, open it from the Billing page, choose Send, and check the address. Paid invoices of batch ${i} move to the Archive tab.`;
    documents.push((await client.call('POST', `/api/v2/corpora/${corpus.id}/documents`, { upload_from: 'text', text }, 201)).items[0].id);
  }
  for (;;) {
    const listed = await client.call('GET', `/api/v2/corpora/${corpus.id}/documents?page_size=100`);
    if (listed.items.every((document) => document.step === 'indexed' || document.is_failed)) break;
    await sleep(200);
  }
  const agent = await client.call('POST', '/api/v2/agents', { name: 'Billing assistant', instructions: 'Answer from the handbook.', llm_configuration_id: answering.id }, 201);
  await client.call('POST', `/api/v2/corpora/${corpus.id}/agents`, { agent_id: agent.id });
  // An agent with no model at all (no configuration of its own, and no default): the offline answerer.
  await client.call('PUT', `${llm}/${answering.id}`, { is_default: false });
  const offline = await client.call('POST', '/api/v2/agents', { name: 'Offline assistant', instructions: 'Answer from the handbook.' }, 201);
  await client.call('POST', `/api/v2/corpora/${corpus.id}/agents`, { agent_id: offline.id });
  const dataset = await client.call('POST', '/api/v2/datasets', { name: 'Invoice questions' }, 201);
  const queries = Array.from({ length: QUERIES }, (_, i) => ({
    question: `How do I send invoice batch ${i % DOCUMENTS} to a customer (question ${i})?`,
    expected_answer: 'Open it from the Billing page, choose Send, and check the address.',
    expected_sources: [documents[i % DOCUMENTS]],
  }));
  await client.call('POST', `/api/v2/datasets/${dataset.id}/queries`, { queries }, 201);
  const idOf = async (kind) => (await client.call('GET', `/api/v2/metrics?builtin=true&kind=${kind}`)).items[0].id;
  const modelFree = [await idOf('exact_match'), await idOf('token_f1'), await idOf('rouge_l'), await idOf('hit_at_k'), await idOf('latency')];
  return {
    agentId: agent.id,
    offlineAgentId: offline.id,
    datasetId: dataset.id,
    questions: queries.map((query) => query.question),
    // Six metrics, one of them a judge; and six without a model, to tell the judge's share.
    metrics: [...modelFree, await idOf('answer_relevance')],
    modelFreeMetrics: [...modelFree, await idOf('contains')],
    judgeId: judging.id,
  };
}

/** When profiling: each measured phase, on the monotonic clock the server's profile uses (microseconds). */
const phases = [];
const monotonicUs = () => Number(process.hrtime.bigint() / 1000n);

/** Runs `work` and answers the server's CPU time it took (from /proc; NaN where unavailable). */
async function measureCpu(server, label, work) {
  const before = processCpuSeconds(server.pid);
  const startUs = monotonicUs();
  const result = await work();
  phases.push({ pid: server.pid, label, startUs, endUs: monotonicUs() });
  const after = processCpuSeconds(server.pid);
  return { result, cpuMs: before === undefined || after === undefined ? Number.NaN : (after - before) * 1000 };
}

/** `work` over the items, `limit` at a time. */
async function pool(items, limit, work) {
  let next = 0;
  await Promise.all(Array.from({ length: limit }, async () => {
    while (next < items.length) await work(items[next++]);
  }));
}

/** One evaluation of the dataset with these metrics, to its end: its rate and the server's CPU a query. */
async function evaluate(label, client, server, world, metricIds, agentId = world.agentId) {
  const { result: evaluation, cpuMs } = await measureCpu(server, label, async () => {
    const created = await client.call('POST', '/api/v2/evaluations', {
      agent_id: agentId,
      dataset_id: world.datasetId,
      metric_ids: metricIds,
      concurrency: CONCURRENCY,
      judge_llm_configuration_id: world.judgeId,
    }, 201);
    // Polled slowly: each read costs the server a little CPU, counted with the rest.
    for (;;) {
      const read = await client.call('GET', `/api/v2/evaluations/${created.id}`);
      if (!['queued', 'running'].includes(read.status)) return read;
      await sleep(500);
    }
  });
  if (evaluation.status !== 'completed') throw new Error(`The evaluation ended ${evaluation.status}: ${evaluation.error}`);
  const failed = evaluation.progress.failed;
  const errors = evaluation.summary.reduce((sum, metric) => sum + metric.errors, 0);
  if (failed > QUERIES / 100 || errors > QUERIES / 100) throw new Error(`${failed} answers failed and ${errors} scores are errors: not a measurement`);
  const seconds = (Date.parse(evaluation.finished_on) - Date.parse(evaluation.started_on)) / 1000;
  return { seconds, perSecond: QUERIES / seconds, serverMs: cpuMs / QUERIES, summary: evaluation.summary };
}

async function runOn(kind) {
  const cleanup = new CleanupStack();
  try {
    const databaseUrl = kind === 'postgres' ? await createScratchPostgres(postgresServerUrl(), 'evaluations_bench', cleanup) : undefined;
    const model = await startFakeModel(cleanup);
    const judge = await startJudge(cleanup);
    const platform = await startAgentPlatform(loadBenchConfig(), cleanup, {
      EGRESS_ALLOWED_HOSTS: [model.host, judge.host].join(','),
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    });
    const server = platform.server;
    const anonymous = new ApiClient(server.baseUrl);
    const session = await anonymous.call('POST', '/api/v2/auth/login', { email: platform.adminEmail, password: platform.adminPassword });
    const client = anonymous.withBearer(session.token);
    const world = await buildWorld(client, model, judge);
    log(`${kind}: ${QUERIES} queries, ${world.metrics.length} metrics, concurrency ${CONCURRENCY}`);

    // The same questions asked through the ask route, `CONCURRENCY` at a time: what the runtime
    // itself costs a question, without any evaluation around it.
    const asked = await measureCpu(server, `${kind}: asks through the route`, () =>
      pool(world.questions, CONCURRENCY, (query) => client.call('POST', `/api/v2/agents/${world.agentId}/responses`, { query }, 201)),
    );
    const withoutJudge = await evaluate(`${kind}: evaluation without judge`, client, server, world, world.modelFreeMetrics);
    const withJudge = await evaluate(`${kind}: evaluation with judge`, client, server, world, world.metrics);
    // No model call at all: retrieval, the offline answerer, scoring and the writes of each query.
    const offline = await evaluate(`${kind}: evaluation without model calls`, client, server, world, world.modelFreeMetrics, world.offlineAgentId);
    const row = { kind, askMs: asked.cpuMs / QUERIES, withoutJudge, withJudge, offline };
    log(`${kind}: asks ${row.askMs.toFixed(2)} ms of server CPU a question; evaluation ${withJudge.perSecond.toFixed(1)} queries/s, ${withJudge.serverMs.toFixed(2)} ms a query (${withoutJudge.serverMs.toFixed(2)} without the judge)`);
    return row;
  } finally {
    await cleanup.runAll();
  }
}

async function main() {
  const kinds = postgresServerUrl() ? ['sqlite', 'postgres'] : ['sqlite'];
  process.stdout.write(`Machine: ${formatMachine(describeMachine())}\n`);
  process.stdout.write(`${QUERIES} queries x 6 metrics (one a judge call), concurrency ${CONCURRENCY}, fake model and judge answering at once\n\n`);
  const rows = [];
  for (const kind of kinds) rows.push(await runOn(kind));
  const figure = (value) => (Number.isNaN(value) ? 'n/a' : value.toFixed(2));
  const aim = (ms) => (Number.isNaN(ms) ? 'n/a' : ms < AIM_SERVER_MS ? 'yes' : 'no');
  process.stdout.write(`| database | what | s | queries/s | server CPU ms a query | under ${AIM_SERVER_MS} ms |\n|---|---|---:|---:|---:|:-:|\n`);
  for (const row of rows) {
    process.stdout.write(`| ${row.kind} | the ${QUERIES} questions through the ask route | | | ${figure(row.askMs)} | ${aim(row.askMs)} |\n`);
    for (const [what, run] of [
      ['evaluation, 6 metrics without a model', row.withoutJudge],
      ['evaluation, 6 metrics, one a judge', row.withJudge],
      ['evaluation, 6 metrics without a model, agent without a model (no model call)', row.offline],
    ]) {
      process.stdout.write(`| ${row.kind} | ${what} | ${run.seconds.toFixed(1)} | ${run.perSecond.toFixed(1)} | ${figure(run.serverMs)} | ${aim(run.serverMs)} |\n`);
    }
  }
  process.stdout.write('\nMetric means (first database): ');
  process.stdout.write(rows[0].withJudge.summary.map((metric) => `${metric.name} ${metric.mean === null ? 'n/a' : metric.mean.toFixed(3)} (n ${metric.n})`).join('; ') + '\n');
  // Each phase's span on the monotonic clock the profile's timestamps use, to read the profile of one phase apart.
  if (process.env.BENCH_CPU_PROFILE_DIR) writeFileSync(join(process.env.BENCH_CPU_PROFILE_DIR, 'phases.json'), JSON.stringify(phases, null, 1));
}

if (process.env.FAKE_JUDGE_PORT) serveJudge(Number(process.env.FAKE_JUDGE_PORT));
else await main();
