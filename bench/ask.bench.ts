// The ask suite: POST /api/v2/agents/{id}/responses against a fake OpenAI-compatible model on
// loopback that answers at once. What the platform adds to the model's own time, one ask at a time,
// answered whole and streamed, for an agent without a corpus and for one with a corpus of 10,000
// documents (retrieval included); then many streamed conversations at once at a model's pace, with
// the server's event-loop delay. See docs/performance.md, suite `ask`.
import { measureConversations, QUESTIONS_PER_CONVERSATION, type ConversationLoad } from './ask-load.js';
import { measureOverhead, median, type OverheadSamples } from './ask-overhead.js';
import { PACED_MODEL, setUpAsking } from './ask-setup.js';
import type { BenchConfig } from './lib/bench-config.js';
import { percentile } from './lib/percentiles.js';
import { EVENT_LOOP_SAMPLING_MS } from './lib/prometheus.js';
import { fixed, type Aim, type ReportTable, type SuiteReport } from './lib/report.js';
import type { BenchSuite, SuiteContext } from './lib/suite.js';
import { CHUNKS_PER_DOCUMENT, DOCUMENTS, corpusVocabulary, makeQueries } from './lib/zipf-corpus.js';

const WARM_UP_ASKS = 50;
const MEASURED_ASKS = 300;
/** Aims: what asking adds, median, without a corpus and with one (retrieval included). */
const OVERHEAD_AIM_MS = 3;
const OVERHEAD_WITH_CORPUS_AIM_MS = 15;
const EVENT_LOOP_P99_AIM_MS = 50;

/** Questions of a help centre, for the agent without a corpus. */
const QUESTIONS = [
  'How do I send an invoice to a customer?',
  'Why was my payroll run rejected?',
  'Can I export last year’s expenses to a spreadsheet?',
  'How do I add a second bank account?',
  'Where do I change the VAT rate of a product?',
  'How do I give my accountant read-only access?',
  'What happens to unpaid invoices after 30 days?',
  'How can I restore a deleted receipt?',
];

interface Comparison {
  label: string;
  ask: number[];
  model: number[];
}

function comparisonsOf(samples: OverheadSamples): Comparison[] {
  return [
    { label: 'answered whole (JSON), to the last byte', ask: samples.askWhole, model: samples.modelWhole },
    { label: 'streamed, to the first byte', ask: samples.askFirstByte, model: samples.modelFirstByte },
    { label: 'streamed, to the first text', ask: samples.askFirstText, model: samples.modelFirstText },
  ];
}

const overheadOf = (comparison: Comparison) => median(comparison.ask) - median(comparison.model);

function overheadTable(title: string, samples: OverheadSamples): ReportTable {
  const p95 = (values: number[]) => percentile(Float64Array.from(values).sort(), 95);
  return {
    title: `${title}: ${samples.asks} asks one after another (${samples.withPassages} with passages in the prompt), each paired with its request straight to the model`,
    header: ['measure', 'ask p50 ms', 'ask p95 ms', 'model p50 ms', 'model p95 ms', 'overhead ms (p50 − p50)', 'ratio'],
    rows: comparisonsOf(samples).map((comparison) => [
      comparison.label,
      fixed(median(comparison.ask), 2),
      fixed(p95(comparison.ask), 2),
      fixed(median(comparison.model), 2),
      fixed(p95(comparison.model), 2),
      fixed(overheadOf(comparison), 2),
      `${fixed(median(comparison.ask) / median(comparison.model), 1)}x`,
    ]),
  };
}

function overheadAims(label: string, samples: OverheadSamples, target: number): Aim[] {
  return comparisonsOf(samples).map((comparison) => ({ label: `${label}, ${comparison.label}: overhead p50`, value: overheadOf(comparison), comparison: '<', target, unit: ' ms' }));
}

function loadTable(runs: { label: string; load: ConversationLoad }[]): ReportTable {
  return {
    title: `streamed conversations at once (${QUESTIONS_PER_CONVERSATION} questions a thread, none waiting between answers), model ${PACED_MODEL}: ~200 pieces, one every 20 ms`,
    header: ['agent', 'at once', 's', 'answers', 'answers/s', 'errors', 'first text p50/p99 ms', 'whole p50/p99 ms', 'CPU ms/answer', 'CPU busy', 'loop delay p50/p99/max ms'],
    rows: runs.map(({ label, load }) => [
      label,
      String(load.conversations),
      fixed(load.seconds, 1),
      String(load.asksCompleted),
      fixed(load.asksCompleted / load.seconds, 1),
      String(load.errorCount),
      `${fixed(load.firstTextMs.p50, 1)} / ${fixed(load.firstTextMs.p99, 1)}`,
      `${fixed(load.wholeMs.p50, 0)} / ${fixed(load.wholeMs.p99, 0)}`,
      fixed(load.serverCpuMsPerAsk, 2),
      `${fixed(load.serverCpuShare * 100, 0)} %`,
      `${fixed(load.eventLoop.p50Ms, 1)} / ${fixed(load.eventLoop.p99Ms, 1)} / ${fixed(load.eventLoop.maxMs, 1)}`,
    ]),
  };
}

async function runAskSuite(context: SuiteContext): Promise<SuiteReport> {
  const { config, log } = context;
  const vocabulary = corpusVocabulary();
  const setup = await setUpAsking(vocabulary, context);
  const cycle = (count: number, offset: number) => Array.from({ length: count }, (_, i) => QUESTIONS[(i + offset) % QUESTIONS.length]!);

  log(`overhead without a corpus: ${WARM_UP_ASKS} warm-up then ${MEASURED_ASKS} questions, 4 timed requests each`);
  const bare = await measureOverhead(setup, setup.agents.instant, cycle(WARM_UP_ASKS, 0), cycle(MEASURED_ASKS, 3));
  log(`overhead with the corpus of ${DOCUMENTS} documents: ${WARM_UP_ASKS} warm-up then ${MEASURED_ASKS} queries`);
  const withCorpus = await measureOverhead(setup, setup.agents.instantWithCorpus, makeQueries(vocabulary, WARM_UP_ASKS, 11), makeQueries(vocabulary, MEASURED_ASKS, 2026), setup.corpusId);

  const settings = { conversations: config.askConversations, seconds: config.askLoadSeconds, warmupSeconds: config.warmupSeconds };
  log(`${settings.conversations} streamed conversations without a corpus: ${settings.warmupSeconds} s warm-up, ${settings.seconds} s measured`);
  const loadBare = await measureConversations(setup, setup.agents.paced, QUESTIONS, settings);
  log(`${settings.conversations} streamed conversations with the corpus: ${settings.warmupSeconds} s warm-up, ${settings.seconds} s measured`);
  const loadCorpus = await measureConversations(setup, setup.agents.pacedWithCorpus, makeQueries(vocabulary, 500, 77), settings);
  if (setup.platform.server.hasExited()) throw new Error(`the Agent Platform server died:\n${setup.platform.server.outputTail()}`);

  const loads = [
    { label: 'no corpus', load: loadBare },
    { label: `${DOCUMENTS.toLocaleString('en')} documents`, load: loadCorpus },
  ];
  return {
    title: 'ask: POST /api/v2/agents/{id}/responses against an instant OpenAI-compatible model on loopback (SQLite)',
    results: [],
    tables: [overheadTable('agent without a corpus', bare), overheadTable(`agent with ${DOCUMENTS.toLocaleString('en')} documents`, withCorpus), loadTable(loads)],
    aims: [
      ...overheadAims('no corpus', bare, OVERHEAD_AIM_MS),
      ...overheadAims(`${DOCUMENTS.toLocaleString('en')} documents`, withCorpus, OVERHEAD_WITH_CORPUS_AIM_MS),
      ...loads.flatMap(({ label, load }): Aim[] => [
        { label: `${load.conversations} conversations, ${label}: errors`, value: load.errorCount, comparison: '<=', target: 0 },
        { label: `${load.conversations} conversations, ${label}: event-loop delay p99`, value: load.eventLoop.p99Ms, comparison: '<', target: EVENT_LOOP_P99_AIM_MS, unit: ' ms' },
      ]),
    ],
    notes: [
      ...[
        { label: 'no corpus', samples: bare },
        { label: 'with the corpus', samples: withCorpus },
      ].map(
        ({ label, samples }) =>
          `${label}, as the server recorded them (medians, whole ms): latency_ms ${median(samples.serverLatency)} (question in → answer recorded), first_token_ms ${median(samples.serverFirstToken)}`,
      ),
      `retrieval alone: POST …/search of the same queries, 5 passages, p50 ${fixed(median(withCorpus.searchAlone), 2)} ms, p95 ${fixed(percentile(Float64Array.from(withCorpus.searchAlone).sort(), 95), 2)} ms`,
      ...loads.filter(({ load }) => load.errorCount > 0).map(({ label, load }) => `errors, ${label}: ${JSON.stringify(load.errors)}`),
      `event-loop delay as the server's /metrics exports it (nodejs_eventloop_lag_*): the time between ticks of a ${EVENT_LOOP_SAMPLING_MS} ms timer, so an idle loop reads about ${EVENT_LOOP_SAMPLING_MS} ms`,
      `"model" columns: the chat request the server made for the same ask, read back from the fake and sent straight to it with the same client; the server always streams from the model, so "answered whole" compares with the model's stream read to its end`,
      `corpus: ${DOCUMENTS} documents × ${CHUNKS_PER_DOCUMENT} chunks (the search suite's), full-text retrieval of 5 passages; seeded in ${setup.seedSeconds.toFixed(1)} s with the server stopped`,
    ],
  };
}

export const askSuite: BenchSuite = {
  name: 'ask',
  description: 'POST /api/v2/agents/{id}/responses: overhead over the model (whole, streamed, with a 10,000-document corpus); concurrent streamed conversations',
  timeBudgetSeconds: (config: BenchConfig) => 420 + 2 * (config.warmupSeconds + config.askLoadSeconds + 30),
  run: runAskSuite,
};
