// The ask suite: POST /api/v2/agents/{id}/responses against a fake OpenAI-compatible model on
// loopback that answers a fixed reply of ten words at once. What the platform adds to the model's own
// time, one ask at a time, answered whole and streamed, for an agent without a corpus and for one with
// a corpus of 200 documents (retrieval included), beside a bare Fastify route forwarding to the same
// model; answers a second and server CPU per answer with 8 clients, the bare route beside; then many
// streamed conversations at once at a model's pace, with the server's event-loop delay. The rows of
// of the speed aims about answers come from here. See docs/performance.md, suite `ask`.
import { measureClients, type ClientsLoad } from './ask-clients.js';
import { measureConversations, QUESTIONS_PER_CONVERSATION, type ConversationLoad } from './ask-load.js';
import { measureOverhead, median, type OverheadSamples } from './ask-overhead.js';
import { ASK_CORPUS_DOCUMENTS, PACED_MODEL, setUpAsking } from './ask-setup.js';
import type { BenchConfig } from './lib/bench-config.js';
import { SPEED_FIGURES, judgedRow } from './lib/speed-aims.js';
import { percentile } from './lib/percentiles.js';
import { EVENT_LOOP_SAMPLING_MS } from './lib/prometheus.js';
import { fixed, type Aim, type SpeedRow, type ReportTable, type SuiteReport } from './lib/report.js';
import type { BenchSuite, SuiteContext } from './lib/suite.js';
import { CHUNKS_PER_DOCUMENT, corpusVocabulary, makeQueries } from './lib/zipf-corpus.js';
import { HELP_CENTRE_QUESTIONS } from './lib/help-centre-questions.js';

const WARM_UP_ASKS = 50;
const MEASURED_ASKS = 300;
/** Aims of the speed aims: what asking adds, median, without a corpus and with one (retrieval included). */
const OVERHEAD_AIM_MS = 3;
const OVERHEAD_WITH_CORPUS_AIM_MS = 5;
const EVENT_LOOP_P99_AIM_MS = 50;
/** The clients asking at once, its aims for them: answers a second, server CPU per answer. */
const CLIENTS_AT_ONCE = 8;
const ANSWERS_PER_SECOND_AIM = 300;
const CPU_PER_ANSWER_AIM_MS = 2;
const CORPUS_LABEL = `${ASK_CORPUS_DOCUMENTS} documents`;

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

/** The bare forwarding route against the model, where it was timed. */
function bareComparisonsOf(samples: OverheadSamples): Comparison[] {
  if (samples.bareWhole.length === 0) return [];
  return [
    { label: 'bare Fastify forwarding: answered whole', ask: samples.bareWhole, model: samples.modelWhole },
    { label: 'bare Fastify forwarding: streamed, to the first text', ask: samples.bareFirstText, model: samples.modelFirstText },
  ];
}

const overheadOf = (comparison: Comparison) => median(comparison.ask) - median(comparison.model);

function overheadTable(title: string, samples: OverheadSamples): ReportTable {
  const p95 = (values: number[]) => percentile(Float64Array.from(values).sort(), 95);
  return {
    title: `${title}: ${samples.asks} asks one after another (${samples.withPassages} with passages in the prompt), each paired with its request straight to the model`,
    header: ['measure', 'ask p50 ms', 'ask p95 ms', 'model p50 ms', 'model p95 ms', 'overhead ms (p50 − p50)', 'ratio'],
    rows: [...comparisonsOf(samples), ...bareComparisonsOf(samples)].map((comparison) => [
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

function clientsTable(runs: { label: string; load: ClientsLoad }[]): ReportTable {
  return {
    title: `${CLIENTS_AT_ONCE} clients asking at once, answered whole (each asks again as soon as its answer is read), the ten-word model`,
    header: ['target', 's', 'answers', 'answers/s', 'p50 ms', 'p99 ms', 'server CPU ms/answer', 'errors'],
    rows: runs.map(({ label, load }) => [
      label,
      fixed(load.seconds, 1),
      String(load.answers),
      fixed(load.answersPerSecond, 0),
      fixed(load.p50Ms, 2),
      fixed(load.p99Ms, 2),
      fixed(load.serverCpuMsPerAnswer, 2),
      String(load.errorCount),
    ]),
  };
}

function speedRowsOf(noCorpus: OverheadSamples, withCorpus: OverheadSamples, clients: { ours: ClientsLoad; bare: ClientsLoad }): SpeedRow[] {
  const [whole, , firstText] = comparisonsOf(noCorpus) as [Comparison, Comparison, Comparison];
  const [bareWhole, bareFirstText] = bareComparisonsOf(noCorpus) as [Comparison, Comparison];
  const [wholeCorpus, , firstTextCorpus] = comparisonsOf(withCorpus) as [Comparison, Comparison, Comparison];
  const ms = { unit: 'ms', digits: 2 } as const;
  return [
    judgedRow(SPEED_FIGURES.answerOverhead, { ...ms, value: overheadOf(whole), bare: overheadOf(bareWhole), comparison: '<', target: OVERHEAD_AIM_MS }),
    judgedRow(SPEED_FIGURES.answerOverheadCorpus, { ...ms, value: overheadOf(wholeCorpus), comparison: '<', target: OVERHEAD_WITH_CORPUS_AIM_MS }),
    judgedRow(SPEED_FIGURES.firstToken, { ...ms, value: overheadOf(firstText), bare: overheadOf(bareFirstText), comparison: '<', target: OVERHEAD_AIM_MS }),
    judgedRow(SPEED_FIGURES.firstTokenCorpus, { ...ms, value: overheadOf(firstTextCorpus), comparison: '<', target: OVERHEAD_WITH_CORPUS_AIM_MS }),
    judgedRow(SPEED_FIGURES.cpuPerAnswer, { ...ms, value: clients.ours.serverCpuMsPerAnswer, bare: clients.bare.serverCpuMsPerAnswer, comparison: '<', target: CPU_PER_ANSWER_AIM_MS }),
    judgedRow(SPEED_FIGURES.answersPerSecond, {
      value: clients.ours.answersPerSecond,
      bare: clients.bare.answersPerSecond,
      comparison: '>=',
      target: ANSWERS_PER_SECOND_AIM,
      unit: 'answers/s',
      digits: 0,
    }),
  ];
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
  const cycle = (count: number, offset: number) => Array.from({ length: count }, (_, i) => HELP_CENTRE_QUESTIONS[(i + offset) % HELP_CENTRE_QUESTIONS.length]!);

  log(`overhead without a corpus: ${WARM_UP_ASKS} warm-up then ${MEASURED_ASKS} questions, 6 timed requests each (2 to the bare route)`);
  const noCorpus = await measureOverhead(setup, setup.agents.instant, cycle(WARM_UP_ASKS, 0), cycle(MEASURED_ASKS, 3), { withBare: true });
  log(`overhead with the corpus of ${ASK_CORPUS_DOCUMENTS} documents: ${WARM_UP_ASKS} warm-up then ${MEASURED_ASKS} queries`);
  const corpusQueries = makeQueries(vocabulary, MEASURED_ASKS, 2026);
  const withCorpus = await measureOverhead(setup, setup.agents.instantWithCorpus, makeQueries(vocabulary, WARM_UP_ASKS, 11), corpusQueries, { corpusId: setup.corpusId });

  const clientSettings = { clients: CLIENTS_AT_ONCE, seconds: config.durationSeconds, warmupSeconds: config.warmupSeconds };
  const askUrl = (agentId: number) => `${setup.platform.server.baseUrl}/api/v2/agents/${agentId}/responses`;
  const ours = { headers: setup.client.authorizationHeaders(), serverPid: setup.platform.server.pid };
  const clientRuns: { label: string; load: ClientsLoad }[] = [];
  for (const [label, target] of [
    ['agent-platform, no corpus', { ...ours, url: askUrl(setup.agents.instant), questions: HELP_CENTRE_QUESTIONS }],
    [`agent-platform, ${CORPUS_LABEL}`, { ...ours, url: askUrl(setup.agents.instantWithCorpus), questions: corpusQueries }],
    ['bare Fastify forwarding', { url: `${setup.bare.baseUrl}/api/v2/agents/1/responses`, headers: {}, serverPid: setup.bare.pid, questions: HELP_CENTRE_QUESTIONS }],
  ] as const) {
    log(`${CLIENTS_AT_ONCE} clients, ${label}: ${clientSettings.warmupSeconds} s warm-up, ${clientSettings.seconds} s measured`);
    clientRuns.push({ label, load: await measureClients(target, clientSettings) });
  }
  const [clientsOurs, clientsCorpus, clientsBare] = clientRuns.map((run) => run.load) as [ClientsLoad, ClientsLoad, ClientsLoad];

  const settings = { conversations: config.askConversations, seconds: config.askLoadSeconds, warmupSeconds: config.warmupSeconds };
  log(`${settings.conversations} streamed conversations without a corpus: ${settings.warmupSeconds} s warm-up, ${settings.seconds} s measured`);
  const loadBare = await measureConversations(setup, setup.agents.paced, HELP_CENTRE_QUESTIONS, settings);
  log(`${settings.conversations} streamed conversations with the corpus: ${settings.warmupSeconds} s warm-up, ${settings.seconds} s measured`);
  const loadCorpus = await measureConversations(setup, setup.agents.pacedWithCorpus, makeQueries(vocabulary, 500, 77), settings);
  if (setup.platform.server.hasExited()) throw new Error(`the Agent Platform server died:\n${setup.platform.server.outputTail()}`);

  const loads = [
    { label: 'no corpus', load: loadBare },
    { label: CORPUS_LABEL, load: loadCorpus },
  ];
  return {
    title: 'ask: POST /api/v2/agents/{id}/responses against an instant OpenAI-compatible model on loopback answering ten words (SQLite)',
    results: [],
    tables: [overheadTable('agent without a corpus', noCorpus), overheadTable(`agent with ${CORPUS_LABEL}`, withCorpus), clientsTable(clientRuns), loadTable(loads)],
    aims: [
      ...overheadAims('no corpus', noCorpus, OVERHEAD_AIM_MS),
      ...overheadAims(CORPUS_LABEL, withCorpus, OVERHEAD_WITH_CORPUS_AIM_MS),
      ...[clientsOurs, clientsCorpus].map((load, index): Aim => ({ label: `${CLIENTS_AT_ONCE} clients, ${clientRuns[index]!.label}: errors`, value: load.errorCount, comparison: '<=', target: 0 })),
      ...loads.flatMap(({ label, load }): Aim[] => [
        { label: `${load.conversations} conversations, ${label}: errors`, value: load.errorCount, comparison: '<=', target: 0 },
        { label: `${load.conversations} conversations, ${label}: event-loop delay p99`, value: load.eventLoop.p99Ms, comparison: '<', target: EVENT_LOOP_P99_AIM_MS, unit: ' ms' },
      ]),
    ],
    notes: [
      ...[
        { label: 'no corpus', samples: noCorpus },
        { label: 'with the corpus', samples: withCorpus },
      ].map(
        ({ label, samples }) =>
          `${label}, as the server recorded them (medians, whole ms): latency_ms ${median(samples.serverLatency)} (question in → answer recorded), first_token_ms ${median(samples.serverFirstToken)}`,
      ),
      `retrieval alone: POST …/search of the same queries, 5 passages, p50 ${fixed(median(withCorpus.searchAlone), 2)} ms, p95 ${fixed(percentile(Float64Array.from(withCorpus.searchAlone).sort(), 95), 2)} ms`,
      ...loads.filter(({ load }) => load.errorCount > 0).map(({ label, load }) => `errors, ${label}: ${JSON.stringify(load.errors)}`),
      ...clientRuns.filter(({ load }) => load.errorCount > 0).map(({ label, load }) => `errors, ${CLIENTS_AT_ONCE} clients, ${label}: ${JSON.stringify(load.errors)}`),
      `bare Fastify forwarding (bench/bare-forward.ts): the ask's path, the question sent to the same model with fetch, the answer handed back; no credential, agent, retrieval or record`,
      `event-loop delay as the server's /metrics exports it (nodejs_eventloop_lag_*): the time between ticks of a ${EVENT_LOOP_SAMPLING_MS} ms timer, so an idle loop reads about ${EVENT_LOOP_SAMPLING_MS} ms`,
      `"model" columns: the chat request the server made for the same ask, read back from the fake and sent straight to it with the same client; the server asks the model for an answer sent whole whole (stream false) and for a streamed one streamed, as the bare route does`,
      `corpus: ${ASK_CORPUS_DOCUMENTS} documents × ${CHUNKS_PER_DOCUMENT} chunks (the first of the search suite's), full-text retrieval of 5 passages; seeded in ${setup.seedSeconds.toFixed(1)} s with the server stopped`,
    ],
    speedRows: speedRowsOf(noCorpus, withCorpus, { ours: clientsOurs, bare: clientsBare }),
  };
}

export const askSuite: BenchSuite = {
  name: 'ask',
  description:
    'POST /api/v2/agents/{id}/responses: overhead over the model (whole, streamed, with a 200-document corpus) beside a bare forwarding route; ' +
    '8 clients: answers/s and server CPU; concurrent streamed conversations',
  timeBudgetSeconds: (config: BenchConfig) =>
    420 + 3 * (config.warmupSeconds + config.durationSeconds + 20) + 2 * (config.warmupSeconds + config.askLoadSeconds + 30),
  run: runAskSuite,
};
