import { describe, expect, it } from 'vitest';
import { collapseLines } from '../src/ingest/block-list.js';

/** The definition: each line with its white space collapsed, blank lines dropped. */
const lineByLine = (text: string) =>
  text
    .split('\n')
    .map((line) => line.replace(/\s+/g, ' ').trim())
    .filter((line) => line !== '')
    .join('\n');

describe('collapseLines', () => {
  it('collapses each line and drops blank ones, whatever white space the text holds', () => {
    const pieces = ['a', 'b', 'x y', ' ', '  ', '\n', '\t', '\r', '\r\n', '\u00a0', '\u2028', '\u3000', '\v', '\f', '\n \n'];
    let state = 1;
    const next = () => (state = (state * 1103515245 + 12345) & 0x7fffffff);
    for (let i = 0; i < 20_000; i++) {
      const text = Array.from({ length: next() % 12 }, () => pieces[next() % pieces.length]).join('');
      expect(collapseLines(text), JSON.stringify(text)).toBe(lineByLine(text));
    }
    expect(collapseLines('  One  line \n\n\t second\r\n')).toBe('One line\nsecond');
  });
});
