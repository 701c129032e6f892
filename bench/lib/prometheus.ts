// Reading the server's own Prometheus metrics (GET /metrics, open when METRICS_TOKEN is unset).
// Node's event-loop delay comes from prom-client's default metrics: a monitorEventLoopDelay
// histogram that prom-client resets at every scrape, so the figures of one scrape cover the time
// since the previous one. Its samples are the time between two ticks of a 10 ms timer, so an idle
// loop reads about 10 ms, not 0.

/** prom-client's default sampling interval of the event loop (eventLoopMonitoringPrecision). */
export const EVENT_LOOP_SAMPLING_MS = 10;

export interface EventLoopDelay {
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

/** The value of an unlabelled sample of the exposition text; NaN when absent. */
export function sampleValue(text: string, name: string): number {
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${name} `));
  return line === undefined ? Number.NaN : Number(line.slice(name.length + 1).split(' ')[0]);
}

/** Scrapes /metrics; the event-loop delay since the previous scrape. */
export async function scrapeEventLoopDelay(baseUrl: string): Promise<EventLoopDelay> {
  const response = await fetch(`${baseUrl}/metrics`, { signal: AbortSignal.timeout(10_000) });
  const text = await response.text();
  if (response.status !== 200) throw new Error(`GET /metrics answered ${response.status}: ${text.slice(0, 300)}`);
  const ms = (name: string) => sampleValue(text, name) * 1000;
  const delay = { p50Ms: ms('nodejs_eventloop_lag_p50_seconds'), p99Ms: ms('nodejs_eventloop_lag_p99_seconds'), maxMs: ms('nodejs_eventloop_lag_max_seconds') };
  if (!Number.isFinite(delay.p99Ms)) throw new Error('GET /metrics has no nodejs_eventloop_lag_p99_seconds');
  return delay;
}
