// Answers a second with a fixed number of clients: each client asks a question (answered whole, as
// JSON), reads the answer to its end and asks the next at once, over its own kept-alive connection;
// the server's CPU time over the measured seconds, per answer. The same for the real route and the
// bare forwarding one, so that the two compare. Every answer must be a 201 whose status is
// `completed`; anything else is counted as an error, by kind.
import { Agent } from 'node:http';
import { performance } from 'node:perf_hooks';
import { timedRequest } from './lib/http-timing.js';
import { percentile } from './lib/percentiles.js';
import { processCpuSeconds } from './lib/process-cpu.js';

export interface AskTarget {
  /** The ask's URL: …/api/v2/agents/{id}/responses. */
  url: string;
  headers: Record<string, string>;
  /** The process answering, whose CPU time is read. */
  serverPid: number;
  questions: string[];
}

export interface ClientsLoad {
  clients: number;
  seconds: number;
  answers: number;
  answersPerSecond: number;
  /** Server CPU time (user + system) per answer; NaN where /proc cannot be read. */
  serverCpuMsPerAnswer: number;
  p50Ms: number;
  p99Ms: number;
  errors: Record<string, number>;
  errorCount: number;
}

interface Tally {
  times: number[];
  errors: Map<string, number>;
}

async function client(target: AskTarget, agent: Agent, offset: number, until: number, tally: Tally): Promise<void> {
  const fail = (kind: string) => void tally.errors.set(kind, (tally.errors.get(kind) ?? 0) + 1);
  const headers = { ...target.headers, 'content-type': 'application/json' };
  for (let next = offset; performance.now() < until; next++) {
    const query = target.questions[next % target.questions.length]!;
    try {
      const response = await timedRequest(target.url, { method: 'POST', headers, body: JSON.stringify({ query }), agent, keepBody: true, timeoutMs: 30_000 });
      if (response.status !== 201) {
        fail(`HTTP ${response.status}`);
        continue;
      }
      const answer = JSON.parse(response.body!.toString('utf8')) as { data?: { status?: string } };
      if (answer.data?.status !== 'completed') fail(`answer ${answer.data?.status ?? 'without a status'}`);
      else tally.times.push(response.ms);
    } catch (error) {
      fail(`connection: ${error instanceof Error ? error.message.slice(0, 80) : String(error)}`);
    }
  }
}

async function runClients(target: AskTarget, clients: number, seconds: number): Promise<Tally & { seconds: number }> {
  const agent = new Agent({ keepAlive: true, maxSockets: clients });
  const tally: Tally = { times: [], errors: new Map() };
  const started = performance.now();
  try {
    const until = started + seconds * 1000;
    await Promise.all(Array.from({ length: clients }, (_, index) => client(target, agent, index * 5, until, tally)));
  } finally {
    agent.destroy();
  }
  return { ...tally, seconds: (performance.now() - started) / 1000 };
}

/** A warm-up (dropped), then the measured seconds between two readings of the server's CPU time. */
export async function measureClients(target: AskTarget, settings: { clients: number; seconds: number; warmupSeconds: number }): Promise<ClientsLoad> {
  await runClients(target, settings.clients, settings.warmupSeconds);
  const cpuBefore = processCpuSeconds(target.serverPid);
  const run = await runClients(target, settings.clients, settings.seconds);
  const cpuAfter = processCpuSeconds(target.serverPid);
  const cpuSeconds = cpuBefore === undefined || cpuAfter === undefined ? Number.NaN : cpuAfter - cpuBefore;
  const sorted = Float64Array.from(run.times).sort();
  return {
    clients: settings.clients,
    seconds: run.seconds,
    answers: run.times.length,
    answersPerSecond: run.times.length / run.seconds,
    serverCpuMsPerAnswer: (cpuSeconds * 1000) / run.times.length,
    p50Ms: percentile(sorted, 50),
    p99Ms: percentile(sorted, 99),
    errors: Object.fromEntries(run.errors),
    errorCount: [...run.errors.values()].reduce((sum, count) => sum + count, 0),
  };
}
