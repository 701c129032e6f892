// How long work waits for the event loop, as a Prometheus histogram: a timer asks to run every
// SAMPLE_MS and records how much later than asked it ran. A loop held up by synchronous work (a large
// JSON body, a regular expression, a PDF parsed in the main thread) shows as samples in the high
// buckets, whatever else the process does.
//
// prom-client's default nodejs_eventloop_lag_* gauges (from monitorEventLoopDelay) are served too;
// they are percentiles of the time since the previous scrape, reset by each scrape, so a second
// scraper halves their window and instances cannot be added up, and their 10 ms sampling interval is
// counted in (an idle process shows about 0.01 s). A histogram's buckets add up over time and over
// instances: histogram_quantile(0.99, sum by (le) (rate(…_bucket[5m]))).
import { performance } from 'node:perf_hooks';
import { Histogram, type Registry } from 'prom-client';

export const EVENT_LOOP_DELAY_METRIC = 'agent_platform_event_loop_delay_seconds';

/** Often enough to see a stall of a few tens of milliseconds; 40 wake-ups a second cost nothing measurable. */
const SAMPLE_MS = 25;

/** From 2 ms: the timers' own granularity (a millisecond) puts an idle loop's samples in the first bucket. */
const BUCKETS = [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export interface DelaySampling {
  /** Milliseconds from a fixed point; performance.now by default. */
  now?: () => number;
  /** Calls the function every intervalMs; an unreferenced setInterval by default (it keeps no process alive). */
  every?: (run: () => void, intervalMs: number) => void;
}

/** Declares the histogram in the registry and starts sampling; once per process. */
export function recordEventLoopDelay(registry: Registry, sampling: DelaySampling = {}): void {
  const now = sampling.now ?? (() => performance.now());
  const every = sampling.every ?? ((run, intervalMs) => setInterval(run, intervalMs).unref());
  const delays = new Histogram({
    name: EVENT_LOOP_DELAY_METRIC,
    help: `How much later than due the event loop ran a timer, sampled every ${SAMPLE_MS} ms`,
    buckets: BUCKETS,
    registers: [registry],
  });
  let due = now() + SAMPLE_MS;
  every(() => {
    const ranAt = now();
    delays.observe(Math.max(0, ranAt - due) / 1000);
    due = ranAt + SAMPLE_MS;
  }, SAMPLE_MS);
}
