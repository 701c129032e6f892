// The asking path against its floor, quickly: what an ask adds to the model's own time (one ask at a
// time, answered whole and streamed) for an agent without a corpus and one with a corpus of 200
// documents uploaded through the API, then 8 clients asking at once without streaming against the
// instant model: answers a second and the server's CPU time per answer. Smaller than suite `ask`
// (no 10,000-document seed, no paced conversations), so that a change to the path can be measured
// before and after, alternately, in a few minutes. docs/performance-history.md, "Round 3".
//
//   node --import tsx bench/ask-floor.ts        (after a build: it runs dist/cli.js of the folder it is run in)
//
// Settings: ASK_FLOOR_ASKS (200 measured asks a measure), ASK_FLOOR_SECONDS (10 s of the concurrent
// load), ASK_FLOOR_CLIENTS (8), ASK_FLOOR_DOCUMENTS (200; 0: no corpus), BENCH_CPU_PROFILE_DIR (the server runs with --cpu-prof).
import type { Agent } from 'node:http';
import { measureOverhead, median, type OverheadSamples } from './ask-overhead.js';
import type { AskSetup } from './ask-setup.js';
import type { ApiClient } from './lib/api-client.js';
import { startAgentPlatform } from './lib/agent-platform-server.js';
import { loadBenchConfig } from './lib/bench-config.js';
import { CleanupStack } from './lib/cleanup.js';
import { createCorpus } from './lib/corpus-setup.js';
import { apiKeyClient } from './lib/credentials.js';
import { startFakeModel } from './lib/fake-model-process.js';
import { singleConnectionAgent, timedRequest } from './lib/http-timing.js';
import { loadAverage1m } from './lib/machine.js';
import { inParallel } from './lib/multipart.js';
import { processCpuSeconds } from './lib/process-cpu.js';
import { seededRandom, type ZipfVocabulary } from './lib/text-corpus.js';
import { corpusVocabulary, makeQueries } from './lib/zipf-corpus.js';

const setting = (name: string, fallback: number) => {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a positive integer`);
  return value;
};
const ASKS = setting('ASK_FLOOR_ASKS', 200);
const LOAD_SECONDS = setting('ASK_FLOOR_SECONDS', 10);
const CLIENTS = setting('ASK_FLOOR_CLIENTS', 8);
/** 0 leaves the corpus out (a CPU profile of the asking path alone). */
const DOCUMENTS = Number(process.env.ASK_FLOOR_DOCUMENTS ?? 200);
const DOCUMENT_BYTES = 1_200;
const WARM_UP = 30;

const log = (message: string) => process.stderr.write(`[ask-floor] ${message}\n`);

async function uploadCorpus(client: ApiClient, vocabulary: ZipfVocabulary): Promise<number> {
  const corpus = await createCorpus(client, 'Ask floor help centre');
  const random = seededRandom(77);
  const documents = Array.from({ length: DOCUMENTS }, (_, i) => ({ name: `article-${i + 1}.txt`, text: vocabulary.text(random, DOCUMENT_BYTES) }));
  await inParallel(documents, 4, async ({ name, text }) => {
    await client.call('POST', `/api/v2/corpora/${corpus.id}/documents`, { upload_from: 'text', text, name }, 201);
  });
  for (const started = Date.now(); ; ) {
    const view = await client.call<{ document_counts: { indexed: number; failed: number } }>('GET', `/api/v2/corpora/${corpus.id}`);
    if (view.document_counts.indexed + view.document_counts.failed >= DOCUMENTS) break;
    if (Date.now() - started > 300_000) throw new Error('the corpus was not indexed in 5 minutes');
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return corpus.id;
}

/** CLIENTS clients asking one question after another, each on its own kept-alive connection, for LOAD_SECONDS. */
async function concurrentAsks(setup: AskSetup, agentId: number, seconds: number) {
  const url = `${setup.platform.server.baseUrl}/api/v2/agents/${agentId}/responses`;
  const headers = { ...setup.client.authorizationHeaders(), 'content-type': 'application/json' };
  const agents: Agent[] = Array.from({ length: CLIENTS }, () => singleConnectionAgent());
  const cpuBefore = processCpuSeconds(setup.platform.server.pid) ?? 0;
  const started = performance.now();
  const ends = started + seconds * 1000;
  let answers = 0;
  let errors = 0;
  await Promise.all(
    agents.map(async (agent, client) => {
      for (let n = 0; performance.now() < ends; n++) {
        const response = await timedRequest(url, { method: 'POST', headers, body: JSON.stringify({ query: `Question ${client}.${n}: how do I send an invoice?` }), agent });
        if (response.status === 201) answers++;
        else errors++;
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  const cpu = (processCpuSeconds(setup.platform.server.pid) ?? 0) - cpuBefore;
  for (const agent of agents) agent.destroy();
  return { answers, errors, perSecond: answers / elapsed, cpuMsPerAnswer: (cpu * 1000) / Math.max(1, answers) };
}

const fixed = (value: number) => value.toFixed(2);

function overheadRow(label: string, samples: OverheadSamples) {
  const whole = median(samples.askWhole) - median(samples.modelWhole);
  const firstByte = median(samples.askFirstByte) - median(samples.modelFirstByte);
  const firstText = median(samples.askFirstText) - median(samples.modelFirstText);
  return `| ${label} | ${fixed(whole)} | ${fixed(firstByte)} | ${fixed(firstText)} | ${fixed(median(samples.modelWhole))} | ${samples.withPassages}/${samples.asks} |`;
}

async function main() {
  const config = loadBenchConfig();
  const cleanup = new CleanupStack();
  try {
    log('starting the fake model and the server');
    const fake = await startFakeModel(cleanup);
    const platform = await startAgentPlatform(config, cleanup, { EGRESS_ALLOWED_HOSTS: fake.host });
    const client = await apiKeyClient(platform);
    const me = await client.call<{ organization_id: number }>('GET', '/api/v2/users/me');
    const configuration = await client.call<{ id: number }>(
      'POST',
      `/api/v2/organizations/${me.organization_id}/llm-configurations`,
      { name: 'Floor instant', provider: 'openai_compatible', model: 'instant', base_url: fake.baseUrl, input_price_per_million: 0.15, output_price_per_million: 0.6, context_window: 128_000, is_default: false },
      201,
    );
    const vocabulary = corpusVocabulary();
    log(`uploading ${DOCUMENTS} documents`);
    const corpusId = DOCUMENTS > 0 ? await uploadCorpus(client, vocabulary) : 0;
    const agent = (name: string, corpusIds: number[]) =>
      client.call<{ id: number }>('POST', '/api/v2/agents', { name, instructions: 'Answer briefly and cite passages.', temperature: 0.2, max_tokens: 512, llm_configuration_id: configuration.id, corpus_ids: corpusIds }, 201);
    const bare = (await agent('Floor, no corpus', [])).id;
    const withCorpus = DOCUMENTS > 0 ? (await agent(`Floor, ${DOCUMENTS} documents`, [corpusId])).id : bare;
    const setup: AskSetup = { fake, platform, client, corpusId, seedSeconds: 0, agents: { instant: bare, instantWithCorpus: withCorpus, paced: bare, pacedWithCorpus: withCorpus } };

    const questions = makeQueries(vocabulary, ASKS + WARM_UP, 5);
    const loads: number[] = [loadAverage1m()];
    log(`overhead, no corpus: ${ASKS} asks`);
    const plain = await measureOverhead(setup, bare, questions.slice(0, WARM_UP), questions.slice(WARM_UP));
    log(`overhead, ${DOCUMENTS} documents: ${ASKS} asks`);
    const corpus = DOCUMENTS > 0 ? await measureOverhead(setup, withCorpus, questions.slice(0, WARM_UP), questions.slice(WARM_UP)) : plain;
    loads.push(loadAverage1m());
    log(`${CLIENTS} clients at once, ${LOAD_SECONDS} s (after 2 s of warm-up)`);
    await concurrentAsks(setup, bare, 2);
    const load = await concurrentAsks(setup, bare, LOAD_SECONDS);
    loads.push(loadAverage1m());

    console.log(`load average (1 min) at start / after overhead / after load: ${loads.map((l) => l.toFixed(2)).join(' / ')}`);
    console.log('| agent | overhead p50 ms: whole | first byte | first text | model p50 ms | asks with passages |');
    console.log('|---|---:|---:|---:|---:|---:|');
    console.log(overheadRow('no corpus', plain));
    console.log(overheadRow(`${DOCUMENTS} documents`, corpus));
    console.log(`| server latency_ms p50: ${median(plain.serverLatency)} / ${median(corpus.serverLatency)}; first_token_ms p50: ${median(plain.serverFirstToken)} / ${median(corpus.serverFirstToken)} |`);
    console.log(`${CLIENTS} clients, ${LOAD_SECONDS} s, no corpus, answered whole: ${load.answers} answers, ${load.perSecond.toFixed(1)}/s, ${load.errors} errors, server CPU ${load.cpuMsPerAnswer.toFixed(2)} ms/answer`);
  } finally {
    await cleanup.runAll();
  }
}

await main();
