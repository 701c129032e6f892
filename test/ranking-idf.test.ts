// A term's IDF never falls below 0, nor a score out of 0–1, even when the statistics count a term in
// more chunks than they count chunks (two statements, with chunks stored between them).
import { describe, expect, it } from 'vitest';
import { inverseDocumentFrequency, QueryScorer, type CorpusStatistics } from '../src/search/ranking.js';

const statistics = (chunks: number, frequencies: Record<string, number>): CorpusStatistics => ({
  chunks,
  averageLength: 6,
  documentFrequency: new Map(Object.entries(frequencies)),
});

describe('inverse document frequency', () => {
  it('is above 0 for a term in every chunk, and in more than half', () => {
    expect(inverseDocumentFrequency(statistics(10, { common: 10 }), 'common')).toBeGreaterThan(0);
    expect(inverseDocumentFrequency(statistics(10, { common: 8 }), 'common')).toBeGreaterThan(0);
  });

  it('takes a count above the chunks as all of them', () => {
    const counted = statistics(1, { report: 4 });
    expect(inverseDocumentFrequency(counted, 'report')).toBe(inverseDocumentFrequency(statistics(1, { report: 1 }), 'report'));
    const scorer = new QueryScorer(['annual', 'report', 'budget'], statistics(1, { annual: 4, report: 4, budget: 5 }));
    const score = scorer.score({ title: 'report', heading: '', body: 'annual report budget', length: 3 });
    expect(score).toBeGreaterThanOrEqual(0);
    expect(score).toBeLessThanOrEqual(1);
  });
});
