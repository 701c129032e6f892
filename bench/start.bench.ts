// The start suite: how long `node dist/cli.js serve` takes from its launch until `/ready` answers, on a
// fresh data folder (migrations and the first owner included), the CPU it spent on the way, and its
// resident memory 15 s after, idle; beside a bare Fastify server's start (bench/bare-server.ts, which
// runs through tsx's loader, a few hundred milliseconds of its own). Each round is a new process.
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { ADMIN_EMAIL } from './lib/agent-platform-server.js';
import { startBareServer } from './lib/bare-server-process.js';
import { startChildServer, type ChildServer } from './lib/child-server.js';
import { LOOPBACK, findFreePort } from './lib/free-port.js';
import { processCpuSeconds } from './lib/process-cpu.js';
import { statusKb } from './lib/process-memory.js';
import { SPEED_FIGURES, judgedRow } from './lib/speed-aims.js';
import { fixed, type SuiteReport } from './lib/report.js';
import type { BenchSuite, SuiteContext } from './lib/suite.js';
import { percentile } from './lib/percentiles.js';
import { makeTempDir } from './lib/temp-dir.js';

const ROUNDS = 3;
const IDLE_SECONDS = 15;
/** The ready path is asked this often while a server starts: the start is known to within this. */
const POLL_MS = 5;
/** Aims of the speed aims. */
const START_AIM_MS = 1_500;
const IDLE_AIM_MIB = 150;

interface StartRound {
  readyMs: number;
  cpuMs: number;
  idleMib: number;
}

async function measureStart(start: () => Promise<ChildServer>): Promise<StartRound> {
  const started = performance.now();
  const server = await start();
  const readyMs = performance.now() - started;
  const cpuMs = (processCpuSeconds(server.pid) ?? NaN) * 1000;
  await new Promise((resolve) => setTimeout(resolve, IDLE_SECONDS * 1000));
  const idleMib = (statusKb(server.pid, 'VmRSS') ?? NaN) / 1024;
  await server.stop();
  return { readyMs, cpuMs, idleMib };
}

async function startServer(context: SuiteContext): Promise<ChildServer> {
  const dataDir = await makeTempDir('agent-platform-bench-start', context.cleanup);
  const port = await findFreePort();
  const profiling = context.config.cpuProfileDir === undefined ? [] : ['--cpu-prof', '--cpu-prof-dir', context.config.cpuProfileDir];
  return startChildServer(
    {
      label: 'agent-platform',
      nodeArgs: [...profiling, join('dist', 'cli.js'), 'serve'],
      env: { DATA_DIR: dataDir, PORT: String(port), HOST: LOOPBACK, LOG_LEVEL: 'warn', ADMIN_EMAIL, ADMIN_PASSWORD: randomBytes(15).toString('base64url') },
      port,
      readyPath: '/ready',
      readyPollMs: POLL_MS,
      startTimeoutMs: 120_000,
    },
    context.cleanup,
  );
}

const median = (values: number[]) => percentile([...values].sort((a, b) => a - b), 50);

function row(name: string, rounds: StartRound[]): string[] {
  return [
    name,
    fixed(median(rounds.map((round) => round.readyMs)), 0),
    rounds.map((round) => fixed(round.readyMs, 0)).join(' / '),
    fixed(median(rounds.map((round) => round.cpuMs)), 0),
    fixed(median(rounds.map((round) => round.idleMib)), 1),
  ];
}

export const startSuite: BenchSuite = {
  name: 'start',
  description: `start to /ready on a fresh data folder, and resident memory ${IDLE_SECONDS} s after, beside a bare Fastify server`,
  timeBudgetSeconds: () => ROUNDS * 2 * (IDLE_SECONDS + 60),
  async run(context) {
    const ours: StartRound[] = [];
    const bare: StartRound[] = [];
    for (let round = 1; round <= ROUNDS; round++) {
      context.log(`start: round ${round} of ${ROUNDS}`);
      ours.push(await measureStart(() => startServer(context)));
      bare.push(await measureStart(() => startBareServer({ route: '/ready', samplePath: '/ready', body: '{"ready":true}' }, context.cleanup, POLL_MS)));
    }
    const startMs = median(ours.map((round) => round.readyMs));
    const idleMib = median(ours.map((round) => round.idleMib));
    const bareStartMs = median(bare.map((round) => round.readyMs));
    const bareIdleMib = median(bare.map((round) => round.idleMib));
    const report: SuiteReport = {
      title: 'Start and idle memory',
      results: [],
      tables: [
        {
          title: `${ROUNDS} starts each, medians; idle memory is the resident set ${IDLE_SECONDS} s after ready`,
          header: ['server', 'start to ready ms', 'rounds ms', 'CPU to ready ms', 'idle RSS MiB'],
          rows: [row('agent-platform (node dist/cli.js serve, fresh SQLite)', ours), row('bare Fastify, one route (through tsx)', bare)],
        },
      ],
      aims: [
        { label: 'start to ready', value: startMs, comparison: '<', target: START_AIM_MS, unit: 'ms' },
        { label: `idle resident memory ${IDLE_SECONDS} s after ready`, value: idleMib, comparison: '<', target: IDLE_AIM_MIB, unit: 'MiB' },
      ],
      notes: ['The start includes the migrations of a new database and the first owner (a password hash).'],
      speedRows: [
        judgedRow(SPEED_FIGURES.start, { value: startMs / 1000, bare: bareStartMs / 1000, comparison: '<', target: START_AIM_MS / 1000, unit: 's', digits: 2 }),
        judgedRow(SPEED_FIGURES.idleMemory, { value: idleMib, bare: bareIdleMib, comparison: '<', target: IDLE_AIM_MIB, unit: 'MiB', digits: 0 }),
      ],
    };
    return report;
  },
};
