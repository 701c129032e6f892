// Many streamed conversations at once: each simulated user asks a question with stream: true, reads
// the events to the end, and asks the next one in the same thread at once (no time to think: the
// pessimistic case), opening a new thread every few questions. Every answer must end with
// response.completed and status completed; anything else is an error, counted by kind. The server's
// event-loop delay over the run is read from its /metrics (reset by a scrape just before).
import { Agent } from 'node:http';
import { performance } from 'node:perf_hooks';
import type { AskSetup } from './ask-setup.js';
import { percentile } from './lib/percentiles.js';
import { processCpuSeconds } from './lib/process-cpu.js';
import { scrapeEventLoopDelay, type EventLoopDelay } from './lib/prometheus.js';
import { isAskDelta, timedEventStream } from './lib/sse-timing.js';

/** Questions of one conversation: the first opens a thread, the others continue it. */
export const QUESTIONS_PER_CONVERSATION = 4;

export interface ConversationLoad {
  conversations: number;
  /** From the first question sent to the last answer read. */
  seconds: number;
  asksCompleted: number;
  errors: Record<string, number>;
  errorCount: number;
  firstTextMs: { p50: number; p99: number };
  wholeMs: { p50: number; p99: number };
  /** Server CPU per completed ask, and its share of one CPU over the run. */
  serverCpuMsPerAsk: number;
  serverCpuShare: number;
  eventLoop: EventLoopDelay;
}

interface Tally {
  firstText: number[];
  whole: number[];
  errors: Map<string, number>;
}

/** One ask of a conversation; the thread it went to, or undefined when it failed (counted). */
async function askInThread(setup: AskSetup, agent: Agent, agentId: number, query: string, threadId: number | undefined, tally: Tally) {
  const fail = (kind: string) => void tally.errors.set(kind, (tally.errors.get(kind) ?? 0) + 1);
  try {
    const streamed = await timedEventStream(`${setup.platform.server.baseUrl}/api/v2/agents/${agentId}/responses`, {
      method: 'POST',
      headers: { ...setup.client.authorizationHeaders(), 'content-type': 'application/json' },
      body: JSON.stringify({ query, stream: true, ...(threadId === undefined ? {} : { thread_id: threadId }) }),
      agent,
      isContent: isAskDelta,
      timeoutMs: 30_000,
    });
    if (streamed.status !== 200) return fail(`HTTP ${streamed.status}`);
    const created = streamed.events.find((event) => event.event === 'response.created');
    const last = streamed.events.at(-1);
    if (last?.event === 'error') return fail(`error event ${(JSON.parse(last.data) as { code: string }).code}`);
    if (created === undefined || last?.event !== 'response.completed') return fail('stream ended without response.completed');
    if ((JSON.parse(last.data) as { status: string }).status !== 'completed') return fail('response not completed');
    tally.firstText.push(streamed.firstContentMs);
    tally.whole.push(streamed.ms);
    return (JSON.parse(created.data) as { thread_id: number }).thread_id;
  } catch (error) {
    return fail(`connection: ${error instanceof Error ? error.message.slice(0, 80) : String(error)}`);
  }
}

async function converse(setup: AskSetup, agent: Agent, agentId: number, questions: string[], offset: number, until: number, tally: Tally) {
  let next = offset;
  while (performance.now() < until) {
    let threadId: number | undefined;
    for (let turn = 0; turn < QUESTIONS_PER_CONVERSATION && performance.now() < until; turn++) {
      threadId = await askInThread(setup, agent, agentId, questions[next++ % questions.length]!, threadId, tally);
      if (threadId === undefined) break;
    }
  }
}

async function runConversations(setup: AskSetup, agentId: number, questions: string[], conversations: number, seconds: number): Promise<Tally & { seconds: number }> {
  const agent = new Agent({ keepAlive: true, maxSockets: conversations });
  const tally: Tally = { firstText: [], whole: [], errors: new Map() };
  const started = performance.now();
  try {
    const until = started + seconds * 1000;
    await Promise.all(Array.from({ length: conversations }, (_, user) => converse(setup, agent, agentId, questions, user * 7, until, tally)));
  } finally {
    agent.destroy();
  }
  return { ...tally, seconds: (performance.now() - started) / 1000 };
}

const sortedOf = (values: number[]) => Float64Array.from(values).sort();

/** A warm-up (dropped), then the measured run between two scrapes of the server's metrics. */
export async function measureConversations(
  setup: AskSetup,
  agentId: number,
  questions: string[],
  settings: { conversations: number; seconds: number; warmupSeconds: number },
): Promise<ConversationLoad> {
  await runConversations(setup, agentId, questions, settings.conversations, settings.warmupSeconds);
  const pid = setup.platform.server.pid;
  await scrapeEventLoopDelay(setup.platform.server.baseUrl);
  const cpuBefore = processCpuSeconds(pid);
  const run = await runConversations(setup, agentId, questions, settings.conversations, settings.seconds);
  const cpuAfter = processCpuSeconds(pid);
  const eventLoop = await scrapeEventLoopDelay(setup.platform.server.baseUrl);
  const cpuSeconds = cpuBefore === undefined || cpuAfter === undefined ? Number.NaN : cpuAfter - cpuBefore;
  const firstText = sortedOf(run.firstText);
  const whole = sortedOf(run.whole);
  return {
    conversations: settings.conversations,
    seconds: run.seconds,
    asksCompleted: run.whole.length,
    errors: Object.fromEntries(run.errors),
    errorCount: [...run.errors.values()].reduce((sum, count) => sum + count, 0),
    firstTextMs: { p50: percentile(firstText, 50), p99: percentile(firstText, 99) },
    wholeMs: { p50: percentile(whole, 50), p99: percentile(whole, 99) },
    serverCpuMsPerAsk: (cpuSeconds * 1000) / run.whole.length,
    serverCpuShare: cpuSeconds / run.seconds,
    eventLoop,
  };
}
