// Reciprocal rank fusion (Cormack, Clarke & Büttcher, 2009): each ranking gives an item 1/(k + rank),
// rank counted from 1, and the item's score is the sum. Scores of different kinds (BM25, cosine
// distance) never have to be compared, only positions; k = 60 damps the weight of the very top ranks.

export const RRF_K = 60;

export interface FusedItem {
  id: number;
  score: number;
}

/**
 * The items of all rankings (each best first, without repeats), by fused score, best first. Equal
 * scores keep the order in which the rankings first reach the items: better rank first, and at equal
 * rank the earlier ranking first.
 */
export function reciprocalRankFusion(rankings: readonly (readonly number[])[], k = RRF_K): FusedItem[] {
  const scores = new Map<number, number>();
  const deepest = Math.max(0, ...rankings.map((ranking) => ranking.length));
  for (let rank = 0; rank < deepest; rank++) {
    for (const ranking of rankings) {
      const id = ranking[rank];
      if (id !== undefined) scores.set(id, (scores.get(id) ?? 0) + 1 / (k + rank + 1));
    }
  }
  // Array.prototype.sort is stable: equal scores stay in the order the map was filled.
  return [...scores].map(([id, score]) => ({ id, score })).sort((a, b) => b.score - a.score);
}
