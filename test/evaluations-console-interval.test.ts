// The console's interval of a change between two runs (console/src/pages/evaluations/paired-interval.ts):
// a paired t interval on the per-query differences.
import { describe, expect, it } from 'vitest';
import { pairedChange } from '../console/src/pages/evaluations/paired-interval.js';

describe('the paired change of a metric between two runs', () => {
  it('is nothing without a pair, and a mean without an interval with one', () => {
    expect(pairedChange([])).toBeNull();
    expect(pairedChange([[0.5, 1]])).toEqual({ n: 1, mean: 0.5, low: null, high: null });
  });

  it('gives the t interval of the differences (df = n − 1)', () => {
    // Differences 1, 0, 1, 1: mean 0.75, s = 0.5, t(0.975, 3) = 3.182, half-width 3.182 · 0.5 / 2.
    const change = pairedChange([
      [0, 1],
      [1, 1],
      [0, 1],
      [0, 1],
    ])!;
    expect(change.n).toBe(4);
    expect(change.mean).toBeCloseTo(0.75, 10);
    expect(change.low).toBeCloseTo(0.75 - 0.7955, 4);
    expect(change.high).toBeCloseTo(0.75 + 0.7955, 4);
  });

  it('is a point when every query changed alike: pairing removes the spread between questions', () => {
    const change = pairedChange([
      [0.1, 0.3],
      [0.5, 0.7],
      [0.9, 1.1],
    ])!;
    expect(change.mean).toBeCloseTo(0.2, 10);
    expect(change.low).toBeCloseTo(0.2, 10);
    expect(change.high).toBeCloseTo(0.2, 10);
  });

  it('narrows as the pairs grow (t tends to 1.96)', () => {
    const pairs = (n: number) => Array.from({ length: n }, (_, index) => [0, index % 2] as const);
    const small = pairedChange(pairs(10))!;
    const large = pairedChange(pairs(1000))!;
    expect(large.high! - large.low!).toBeLessThan(small.high! - small.low!);
    expect((large.high! - large.mean) / Math.sqrt(0.25 / 1000)).toBeCloseTo(1.96, 1);
  });
});
