// Flowise 3.1.3 measured as our suites measure the Agent Platform server, for the side-by-side
// figures of docs/performance.md ("Peers: Flowise 3.1.3"):
//   node --import tsx bench/peers/flowise/run.ts
// Installs flowise@3.1.3 from the npm registry into a cache folder outside the repository (first run
// only: minutes, over a gigabyte), starts it on 127.0.0.1 with SQLite in a temporary folder, times its
// start to ready and reads its idle memory 15 s later, creates through its API a conversation chatflow
// over a ChatOpenAI node pointed at the suites' fake model (bench/lib/fake-model-server.ts, model
// `ten-words`: the fixed ten-word answer at once, as suite `ask` asks), then measures what a prediction adds to the model's own time
// (answered whole and streamed, as suite `ask` does for ours) and answers a second with 8 clients,
// with Flowise's CPU time per answer. BENCH_DURATION_SECONDS and BENCH_WARMUP_SECONDS set the load's
// measured and warm-up seconds, as for the suites.
import { loadBenchConfig } from '../../lib/bench-config.js';
import { CleanupStack } from '../../lib/cleanup.js';
import { startFakeModel } from '../../lib/fake-model-process.js';
import { describeMachine, formatMachine, loadAverage1m } from '../../lib/machine.js';
import { processCpuSeconds } from '../../lib/process-cpu.js';
import { fixed, formatReport, type ReportTable } from '../../lib/report.js';
import { signIn } from './api.js';
import { createChatflow } from './chatflow.js';
import { ensureFlowise, FLOWISE_VERSION } from './install.js';
import { measureAnswersPerSecond, measureOverhead, median, p95, type OverheadSamples } from './measure.js';
import { residentMiB, startFlowise } from './server.js';
import { TEN_WORD_MODEL } from '../../lib/fake-model-server.js';

const IDLE_SECONDS = 15;
const WARM_UP_ASKS = 30;
const MEASURED_ASKS = 200;
const CLIENTS = 8;
/** The fake's model of suite `ask`: the fixed ten-word answer, no delay. */
const MODEL = TEN_WORD_MODEL;

const log = (message: string) => process.stderr.write(`[flowise] ${message}\n`);

function overheadTable(samples: OverheadSamples): ReportTable {
  const rows: [string, number[], number[]][] = [
    ['answered whole (JSON), to the last byte', samples.flowiseWhole, samples.modelWhole],
    ['streamed, to the first byte', samples.flowiseFirstByte, samples.modelFirstByte],
    ['streamed, to the first text', samples.flowiseFirstText, samples.modelFirstText],
  ];
  return {
    title: `${samples.asks} predictions one after another, each paired with its request straight to the model`,
    header: ['measure', 'Flowise p50 ms', 'Flowise p95 ms', 'model p50 ms', 'model p95 ms', 'overhead ms (p50 − p50)', 'ratio'],
    rows: rows.map(([label, flowise, model]) => [
      label,
      fixed(median(flowise), 2),
      fixed(p95(flowise), 2),
      fixed(median(model), 2),
      fixed(p95(model), 2),
      fixed(median(flowise) - median(model), 2),
      `${fixed(median(flowise) / median(model), 1)}x`,
    ]),
  };
}

async function main(): Promise<void> {
  const config = loadBenchConfig();
  const cleanup = new CleanupStack();
  const stop = (signal: string, code: number) => {
    log(`${signal}: stopping`);
    void cleanup.runAll().then(() => process.exit(code));
  };
  process.once('SIGINT', () => stop('interrupted', 130));
  process.once('SIGTERM', () => stop('terminated', 143));
  try {
    const install = await ensureFlowise(log);
    const loadAtStart = loadAverage1m();
    process.stdout.write(`Machine: ${formatMachine(describeMachine())}\n\n`);

    const fake = await startFakeModel(cleanup);
    log('starting Flowise on a fresh SQLite database');
    const flowise = await startFlowise(install, cleanup);
    const cpuToReadyMs = (processCpuSeconds(flowise.server.pid) ?? Number.NaN) * 1000;
    const loadAtReady = loadAverage1m();
    log(`ready in ${(flowise.startToReadyMs / 1000).toFixed(1)} s; idle for ${IDLE_SECONDS} s`);
    await new Promise((resolve) => setTimeout(resolve, IDLE_SECONDS * 1000));
    const idleMiB = residentMiB(flowise.server.pid);

    const client = await signIn(flowise.server.baseUrl);
    const chatflow = await createChatflow(client, fake.baseUrl, MODEL);
    const predictionUrl = `${flowise.server.baseUrl}/api/v1/prediction/${chatflow.id}`;
    log(`chatflow ${chatflow.id}: ${WARM_UP_ASKS} warm-up then ${MEASURED_ASKS} questions, 4 timed requests each`);
    const overhead = await measureOverhead(predictionUrl, fake, WARM_UP_ASKS, MEASURED_ASKS);
    const loadAfterOverhead = loadAverage1m();
    log(`${CLIENTS} clients: ${config.warmupSeconds} s warm-up, ${config.durationSeconds} s measured`);
    const load = await measureAnswersPerSecond(predictionUrl, flowise.server.pid, { connections: CLIENTS, durationSeconds: config.durationSeconds, warmupSeconds: config.warmupSeconds });
    if (flowise.server.hasExited()) throw new Error(`Flowise died:\n${flowise.server.outputTail()}`);
    const rssAfterMiB = residentMiB(flowise.server.pid);

    process.stdout.write(
      `${formatReport({
        title: `peer: Flowise ${FLOWISE_VERSION}, a conversation chatflow (ChatOpenAI → the fake model \`${MODEL}\` on loopback, Buffer Memory) on SQLite`,
        results: [load],
        tables: [
          {
            title: 'start (fresh SQLite database, `flowise start`) and memory',
            header: ['figure', 'value'],
            rows: [
              ['start to ready (GET /api/v1/ping), s', fixed(flowise.startToReadyMs / 1000, 2)],
              ['CPU until ready, s', fixed(cpuToReadyMs / 1000, 2)],
              [`resident memory ${IDLE_SECONDS} s after ready, idle, MiB`, fixed(idleMiB, 0)],
              ['resident memory after the load, MiB', fixed(rssAfterMiB, 0)],
            ],
          },
          overheadTable(overhead),
        ],
        aims: [],
        notes: [
          `server CPU per answer (${CLIENTS} clients): ${fixed(load.serverCpuMicrosPerRequest / 1000, 2)} ms`,
          `installed: ${Object.entries(install.versions).map(([name, version]) => `${name} ${version}`).join(', ')}; in ${install.folder}${install.installSeconds > 0 ? ` (installed in ${install.installSeconds.toFixed(0)} s)` : ''}`,
          `node ${process.version} runs Flowise (its package asks for node ^24)`,
          `load average (1 min): ${loadAtStart} at the start, ${loadAtReady} when ready, ${loadAfterOverhead} after the one-at-a-time predictions, ${loadAverage1m()} at the end`,
        ],
      })}\n`,
    );
  } finally {
    log('stopping Flowise and the fake model, removing the temporary folder');
    await cleanup.runAll();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`\nFlowise peer benchmark failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
