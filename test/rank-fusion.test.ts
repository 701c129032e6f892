import { describe, expect, it } from 'vitest';
import { RRF_K, reciprocalRankFusion } from '../src/modules/retrieval/rank-fusion.js';

describe('reciprocal rank fusion', () => {
  it('sums 1/(k + rank) over the rankings, with k = 60 and ranks from 1', () => {
    expect(RRF_K).toBe(60);
    const fused = reciprocalRankFusion([
      [1, 2, 3],
      [3, 4, 1],
    ]);
    expect(fused.map((item) => item.id)).toEqual([1, 3, 2, 4]);
    expect(fused[0]!.score).toBeCloseTo(1 / 61 + 1 / 63, 12);
    expect(fused[1]!.score).toBeCloseTo(1 / 63 + 1 / 61, 12);
    expect(fused[2]!.score).toBeCloseTo(1 / 62, 12);
    expect(fused[3]!.score).toBeCloseTo(1 / 62, 12);
  });

  it('puts an item both rankings found above one found first by only one', () => {
    const fused = reciprocalRankFusion([
      [10, 20],
      [30, 20],
    ]);
    expect(fused.map((item) => item.id)).toEqual([20, 10, 30]);
  });

  it('breaks ties by rank, then by the order of the rankings', () => {
    const fused = reciprocalRankFusion([
      [5, 6],
      [7, 8],
    ]);
    expect(fused.map((item) => item.id)).toEqual([5, 7, 6, 8]);
  });

  it('takes any k, one ranking, or none', () => {
    expect(reciprocalRankFusion([[1, 2]], 0)).toEqual([
      { id: 1, score: 1 },
      { id: 2, score: 0.5 },
    ]);
    expect(reciprocalRankFusion([[], []])).toEqual([]);
    expect(reciprocalRankFusion([])).toEqual([]);
  });
});
