// `npm run bench:pii -- [--direct] [--half a|b] [--verbose TYPE…]`
// Precision and recall per entity type of the PII guardrail on ../shared/data/pii/synth-dev.json:
// the built server is started, a `pii` guardrail created through the API, and each sentence sent to
// POST /api/v2/guardrails/{id}/test; its findings are compared with the labelled spans (same type and
// overlapping span: a true positive; the exact columns need the same start and end). `--direct`
// calls detectPii in this process instead, without a server. `--half a` or `b` keeps the sentences of
// even or odd template ids, to develop on one half and check on the other. Then the detection time
// per KB of text, measured on detectPii itself. See docs/pii.md.
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { detectPii, PII_ENTITY_TYPES } from '../src/guardrails/pii/detect.js';
import type { Finding } from '../src/guardrails/guardrail.js';
import { startAgentPlatform } from './lib/agent-platform-server.js';
import { loadBenchConfig } from './lib/bench-config.js';
import { CleanupStack } from './lib/cleanup.js';
import { apiKeyClient } from './lib/credentials.js';
import { measureDetectionTime } from './pii/timing.js';
import { formatScoreTable } from './pii/report.js';
import { Scoreboard, type LabelledItem } from './pii/score.js';

const DATA_SET = new URL('../../shared/data/pii/synth-dev.json', import.meta.url);
const log = (message: string) => process.stderr.write(`[pii] ${message}\n`);

type FindPii = (text: string) => Promise<Finding[]>;

function readOptions() {
  const { values } = parseArgs({
    options: {
      direct: { type: 'boolean', default: false },
      half: { type: 'string' },
      verbose: { type: 'string', multiple: true },
    },
  });
  if (values.half !== undefined && values.half !== 'a' && values.half !== 'b') throw new Error('--half is a or b');
  return { direct: values.direct, half: values.half as 'a' | 'b' | undefined, verbose: values.verbose ?? [] };
}

function loadItems(half: 'a' | 'b' | undefined): LabelledItem[] {
  const items = JSON.parse(readFileSync(DATA_SET, 'utf8')) as LabelledItem[];
  if (half === undefined) return items;
  return items.filter((item) => ((item.template_id ?? 0) % 2 === 0) === (half === 'a'));
}

async function score(items: readonly LabelledItem[], find: FindPii): Promise<Scoreboard> {
  const scoreboard = new Scoreboard();
  for (const item of items) scoreboard.add(item, await find(item.full_text));
  return scoreboard;
}

/** Findings through the guardrail test operation of a server started for the run. */
async function scoreThroughApi(items: readonly LabelledItem[], cleanup: CleanupStack): Promise<Scoreboard> {
  log('starting the Agent Platform server');
  const platform = await startAgentPlatform(loadBenchConfig(), cleanup);
  const client = await apiKeyClient(platform);
  const guardrail = await client.call<{ id: number }>('POST', '/api/v2/guardrails', { name: 'PII bench', type: 'pii', stages: ['input'], action: 'redact', config: {} }, 201);
  log(`guardrail ${guardrail.id}: testing ${items.length} sentences`);
  return score(items, async (text) => (await client.call<{ findings: Finding[] }>('POST', `/api/v2/guardrails/${guardrail.id}/test`, { text })).findings);
}

function printMisses(scoreboard: Scoreboard, types: readonly string[]): void {
  for (const miss of scoreboard.misses.filter((entry) => types.includes(entry.entityType) || types.includes('all'))) {
    console.log(`${miss.kind.padEnd(8)} ${miss.entityType.padEnd(14)} ${JSON.stringify(miss.value).padEnd(40)} in ${JSON.stringify(miss.text.slice(0, 160))}`);
  }
}

async function main(): Promise<void> {
  const options = readOptions();
  const items = loadItems(options.half);
  const cleanup = new CleanupStack();
  try {
    const scoreboard = options.direct ? await score(items, async (text) => detectPii(text)) : await scoreThroughApi(items, cleanup);
    printMisses(scoreboard, options.verbose);
    const through = options.direct ? 'detectPii directly' : 'POST /api/v2/guardrails/{id}/test';
    console.log(`\nPII detection on synth-dev.json${options.half === undefined ? '' : ` (half ${options.half})`}: ${items.length} sentences, through ${through}`);
    console.log('A true positive: same type and overlapping span; exact: same type, start and end.\n');
    console.log(formatScoreTable(scoreboard, PII_ENTITY_TYPES));
    const timing = measureDetectionTime(items.map((item) => item.full_text));
    console.log(
      `\ndetectPii on ${timing.kilobytes} KB texts: wall time median ${timing.medianMs.toFixed(2)} ms, p95 ${timing.p95Ms.toFixed(2)} ms; ` +
        `CPU time ${timing.cpuMs.toFixed(2)} ms (${(timing.cpuMs / timing.kilobytes).toFixed(3)} ms per KB); load average ${timing.loadAverage.toFixed(1)}`,
    );
  } finally {
    await cleanup.runAll();
  }
}

await main();
