// Counting up to a limit (what a length guardrail needs): the same count as countTokens within the
// limit, a number above it otherwise, and a word whose length alone goes over is never merged.
import { describe, expect, it, vi } from 'vitest';
import { seededRandom } from './support/seeded-random.js';

const merged = { characters: 0 };
vi.mock('../src/ingest/cl100k-merge.js', async (importOriginal) => {
  const original = await importOriginal<typeof import('../src/ingest/cl100k-merge.js')>();
  return {
    ...original,
    countPreToken: (preToken: string, work?: Parameters<typeof original.countPreToken>[1]) => {
      merged.characters += preToken.length;
      return original.countPreToken(preToken, work);
    },
  };
});

const { countTokens, countTokensUpTo } = await import('../src/ingest/tokens.js');

describe('counting tokens up to a limit', () => {
  it('agrees with countTokens within the limit and passes the limit otherwise', () => {
    const random = seededRandom(11);
    const pieces = ['the ', 'ünïcode ', '中文 ', '😀', '  ', '\n', 'x'.repeat(300), '12345', '...', 'word'];
    for (let round = 0; round < 200; round++) {
      const text = Array.from({ length: 1 + Math.floor(random() * 40) }, () => pieces[Math.floor(random() * pieces.length)]).join('');
      const exact = countTokens(text);
      for (const limit of [0, 1, exact - 1, exact, exact + 1, exact * 2]) {
        if (limit < 0) continue;
        const counted = countTokensUpTo(text, limit);
        if (exact <= limit) expect(counted, JSON.stringify({ text, limit })).toBe(exact);
        else expect(counted, JSON.stringify({ text, limit })).toBeGreaterThan(limit);
      }
    }
  });

  it('does not merge a word that its length alone puts over the limit', () => {
    merged.characters = 0;
    expect(countTokensUpTo(`${'q'.repeat(1_000_000)} and more`, 10)).toBeGreaterThan(10);
    expect(merged.characters).toBe(0);
  });
});
