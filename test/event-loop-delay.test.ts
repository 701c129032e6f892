// The event loop's delay histogram, sampled with a clock and a timer the test drives: each tick
// records how much later than due it ran.
import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { EVENT_LOOP_DELAY_METRIC, recordEventLoopDelay } from '../src/observability/event-loop-delay.js';

describe('event loop delay', () => {
  it('records how late each tick ran, in seconds, from the moment it was due', async () => {
    const registry = new Registry();
    let ms = 1000;
    let tick: () => void = () => undefined;
    let interval = 0;
    recordEventLoopDelay(registry, {
      now: () => ms,
      every: (run, intervalMs) => {
        tick = run;
        interval = intervalMs;
      },
    });

    ms += interval; // on time
    tick();
    ms += interval + 1500; // the loop was held for a second and a half
    tick();
    ms += interval + 30;
    tick();

    const metric = await registry.getSingleMetric(EVENT_LOOP_DELAY_METRIC)!.get();
    // A histogram's values name their series (…_bucket, …_sum, …_count), which MetricValue's type leaves out.
    const values = metric.values as { metricName?: string; labels: { le?: number | string }; value: number }[];
    const value = (name: string, le?: number) => values.find((v) => v.metricName === name && (le === undefined || v.labels.le === le))!.value;
    expect(value(`${EVENT_LOOP_DELAY_METRIC}_count`)).toBe(3);
    expect(value(`${EVENT_LOOP_DELAY_METRIC}_sum`)).toBeCloseTo(1.53);
    expect(value(`${EVENT_LOOP_DELAY_METRIC}_bucket`, 0.002)).toBe(1);
    expect(value(`${EVENT_LOOP_DELAY_METRIC}_bucket`, 0.05)).toBe(2);
    expect(value(`${EVENT_LOOP_DELAY_METRIC}_bucket`, 1)).toBe(2);
    expect(value(`${EVENT_LOOP_DELAY_METRIC}_bucket`, 2.5)).toBe(3);
  });
});
