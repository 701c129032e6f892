// The load generator: autocannon, warmed up then measured, with latencies taken from each response
// (autocannon's own histogram rounds to whole milliseconds, too coarse for sub-millisecond routes).
import autocannon from 'autocannon';
import { percentile } from './percentiles.js';
import { processCpuSeconds } from './process-cpu.js';

export interface LoadTarget {
  /** Name shown in the table. */
  name: string;
  url: string;
  method?: 'GET' | 'PUT' | 'POST' | 'DELETE';
  headers?: Record<string, string>;
  body?: string;
  /**
   * Bodies sent in turn, shared by all connections (each request takes the next one), for a route
   * whose cost depends on its input (search queries). Overrides `body`.
   */
  bodies?: string[];
  /** The server's process id, to measure the CPU time it spends per request. */
  serverPid?: number;
}

export interface LoadSettings {
  durationSeconds: number;
  warmupSeconds: number;
  connections: number;
}

export interface LoadResult {
  name: string;
  durationSeconds: number;
  connections: number;
  /** Responses received, whatever their status. */
  responses: number;
  requestsPerSecond: number;
  p50Ms: number;
  p95Ms: number;
  p99Ms: number;
  /** Responses whose status was not 200, by status. */
  non200: Record<string, number>;
  non200Count: number;
  /** Connection errors and timeouts: requests that got no response. */
  failures: number;
  /** Server CPU time (user + system) per response, in microseconds; NaN when it cannot be read. */
  serverCpuMicrosPerRequest: number;
}

/** Seconds a single request may take before autocannon counts it a timeout. */
const REQUEST_TIMEOUT_SECONDS = 10;

interface RawRun {
  result: autocannon.Result;
  latenciesMs: number[];
}

/** A setupRequest that gives each request the next body of the list, round and round. */
function rotatingBodies(bodies: string[]): (request: autocannon.RequestParams) => autocannon.RequestParams {
  if (bodies.length === 0) throw new Error('a load target with bodies needs at least one');
  let next = 0;
  return (request) => ({ ...request, body: bodies[next++ % bodies.length]! });
}

function runOnce(target: LoadTarget, connections: number, durationSeconds: number): Promise<RawRun> {
  const latenciesMs: number[] = [];
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: target.url,
        method: target.method ?? 'GET',
        headers: target.headers ?? {},
        ...(target.body === undefined ? {} : { body: target.body }),
        ...(target.bodies === undefined ? {} : { requests: [{ setupRequest: rotatingBodies(target.bodies) }] }),
        connections,
        duration: durationSeconds,
        timeout: REQUEST_TIMEOUT_SECONDS,
      },
      (error, result) => (error ? reject(error) : resolve({ result, latenciesMs })),
    );
    instance.on('response', (_client, _status, _bytes, responseTime) => {
      latenciesMs.push(responseTime);
    });
  });
}

function summarise(target: LoadTarget, connections: number, { result, latenciesMs }: RawRun, serverCpuSeconds: number): LoadResult {
  const non200: Record<string, number> = {};
  for (const [status, { count }] of Object.entries(result.statusCodeStats)) {
    if (status !== '200') non200[status] = count;
  }
  const sorted = Float64Array.from(latenciesMs).sort();
  return {
    name: target.name,
    durationSeconds: result.duration,
    connections,
    responses: latenciesMs.length,
    requestsPerSecond: latenciesMs.length / result.duration,
    p50Ms: percentile(sorted, 50),
    p95Ms: percentile(sorted, 95),
    p99Ms: percentile(sorted, 99),
    non200,
    non200Count: Object.values(non200).reduce((sum, count) => sum + count, 0),
    failures: result.errors + result.timeouts,
    serverCpuMicrosPerRequest: (serverCpuSeconds * 1e6) / latenciesMs.length,
  };
}

/** Loads the target for the warm-up (results dropped), then for the measured duration. */
export async function measureLoad(target: LoadTarget, settings: LoadSettings): Promise<LoadResult> {
  await runOnce(target, settings.connections, settings.warmupSeconds);
  const cpuBefore = target.serverPid === undefined ? undefined : processCpuSeconds(target.serverPid);
  const run = await runOnce(target, settings.connections, settings.durationSeconds);
  const cpuAfter = target.serverPid === undefined ? undefined : processCpuSeconds(target.serverPid);
  const serverCpuSeconds = cpuBefore === undefined || cpuAfter === undefined ? Number.NaN : cpuAfter - cpuBefore;
  return summarise(target, settings.connections, run, serverCpuSeconds);
}

/**
 * Throws when most requests failed: figures about error responses say nothing about the route. A
 * few failures are reported in the table instead.
 */
export function assertMostlySuccessful(result: LoadResult): void {
  const attempts = result.responses + result.failures;
  const bad = result.non200Count + result.failures;
  if (attempts === 0 || bad * 2 > attempts) {
    const statuses = Object.entries(result.non200).map(([status, count]) => `${status}: ${count}`).join(', ') || 'none';
    throw new Error(
      `${result.name}: ${bad} of ${attempts} requests failed (non-200 responses: ${statuses}; connection errors and timeouts: ${result.failures})`,
    );
  }
}
