// `npm run bench [-- <suite>…]`: runs the named benchmark suites (all by default) one after the
// other, each with its own servers, and prints their results; then the rows of the speed aims
// the suites measured, in one table with their aims (bench/lib/speed-aims.ts). See docs/performance.md.
import { agentsSuite } from './agents.bench.js';
import { askSuite } from './ask.bench.js';
import { consoleSuite } from './console.bench.js';
import { ingestionSuite } from './ingestion.bench.js';
import { listingSuite } from './listing.bench.js';
import { manualSuite } from './manual.bench.js';
import { searchSuite } from './search.bench.js';
import { stallSuite } from './stall.bench.js';
import { startSuite } from './start.bench.js';
import { toolsSuite } from './tools.bench.js';
import { loadBenchConfig, type BenchConfig } from './lib/bench-config.js';
import { CleanupStack } from './lib/cleanup.js';
import { describeMachine, formatMachine, loadAverage1m } from './lib/machine.js';
import { formatSpeedSummary } from './lib/speed-aims.js';
import { formatReport, type SpeedRow, type SuiteReport } from './lib/report.js';
import type { BenchSuite } from './lib/suite.js';

const SUITES: BenchSuite[] = [startSuite, agentsSuite, listingSuite, ingestionSuite, searchSuite, askSuite, toolsSuite, stallSuite, consoleSuite, manualSuite];

function selectSuites(names: string[]): BenchSuite[] {
  if (names.length === 0) return SUITES;
  const unknown = names.filter((name) => !SUITES.some((suite) => suite.name === name));
  if (unknown.length > 0) {
    const known = SUITES.map((suite) => `  ${suite.name}: ${suite.description}`).join('\n');
    throw new Error(`Unknown suite${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')}. Suites:\n${known}`);
  }
  return SUITES.filter((suite) => names.includes(suite.name));
}

const log = (message: string) => process.stderr.write(`[bench] ${message}\n`);

/** The cleanup of the suite running now, so that a signal or the watchdog can stop its servers. */
let running: CleanupStack | undefined;

async function abort(reason: string, exitCode: number): Promise<never> {
  log(reason);
  await running?.runAll();
  process.exit(exitCode);
}

async function runSuite(suite: BenchSuite, config: BenchConfig): Promise<SuiteReport> {
  const cleanup = new CleanupStack();
  running = cleanup;
  const budgetSeconds = suite.timeBudgetSeconds(config);
  // Every step has its own timeout; this bounds the whole suite in case something hangs anyway.
  const watchdog = setTimeout(() => void abort(`suite ${suite.name} exceeded its ${budgetSeconds} s budget; stopping`, 1), budgetSeconds * 1000);
  try {
    return await suite.run({ config, cleanup, log });
  } finally {
    clearTimeout(watchdog);
    log(`suite ${suite.name}: stopping servers, removing temporary folders`);
    await cleanup.runAll();
    running = undefined;
  }
}

async function main(): Promise<void> {
  const config = loadBenchConfig();
  const suites = selectSuites(process.argv.slice(2));
  process.once('SIGINT', () => void abort('interrupted', 130));
  process.once('SIGTERM', () => void abort('terminated', 143));

  process.stdout.write(`Machine: ${formatMachine(describeMachine())}\n`);
  process.stdout.write(
    `Settings: ${config.connections} connections, ${config.warmupSeconds} s warm-up, ${config.durationSeconds} s measured per target` +
      ` (load generator in this process, each server in its own child process)\n\n`,
  );
  const speedRows: SpeedRow[] = [];
  for (const suite of suites) {
    const report = await runSuite(suite, config);
    speedRows.push(...(report.speedRows ?? []));
    // The run itself keeps about two CPUs busy (load generator and server); much more than that at
    // the end means something else competed for the CPUs and the figures are pessimistic.
    process.stdout.write(`${formatReport(report)}\nload average (1 min) at the end of the suite: ${loadAverage1m()}\n\n`);
  }
  if (speedRows.length > 0) process.stdout.write(`${formatSpeedSummary(speedRows, loadAverage1m())}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`\nBenchmark failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
