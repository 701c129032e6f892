// A token limit over a stream reads a long word piece by piece (a model writing one "word" of tens of
// thousands of characters, 4 at a time) with work linear in the word: the scanner of pre-tokens is
// counted, never timed.
import { describe, expect, it, vi } from 'vitest';

const scanned = { characters: 0 };
vi.mock('../src/ingest/pre-tokens.js', async (importOriginal) => {
  const original = await importOriginal<typeof import('../src/ingest/pre-tokens.js')>();
  return {
    ...original,
    preTokenEnd: (text: string, start: number, end: number) => {
      const found = original.preTokenEnd(text, start, end);
      scanned.characters += found - start;
      return found;
    },
  };
});

const { lengthDetector } = await import('../src/guardrails/length-limit.js');

function streamWord(length: number, max_tokens: number): { characters: number; findings: number } {
  scanned.characters = 0;
  const run = lengthDetector({ max_tokens }).start();
  let findings = 0;
  const word = 'x'.repeat(length);
  for (let at = 0; at < length; at += 4) {
    run.append(word.slice(at, at + 4));
    findings += run.collect(false).detections.length;
  }
  findings += run.collect(true).detections.length;
  return { characters: scanned.characters, findings };
}

describe('a token limit over a stream', () => {
  it('scans a long streamed word a bounded number of times over, not once per piece', () => {
    for (const length of [10_000, 40_000]) {
      const { characters, findings } = streamWord(length, 1_000_000);
      expect(findings).toBe(0);
      expect(characters, `${length} characters`).toBeLessThanOrEqual(4 * length);
    }
  });

  it('still finds the word that goes over the limit, once it ends', () => {
    expect(streamWord(40_000, 100).findings).toBe(1);
  });
});
