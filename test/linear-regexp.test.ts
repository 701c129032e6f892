// Patterns from users, imported documents and models run on RE2 (src/regexp): the same answers as the
// native engine where both can run a pattern, refusals with the reason where RE2 cannot, and the work
// of a check bounded by the pattern's size and the text's length, counted rather than timed.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { RE2JS } from 're2js';
import { compileLinear, MAX_PROGRAM_SIZE, PatternRefused, TooMuchPatternWork, WORK_BUDGET, WorkMeter } from '../src/regexp/index.js';

afterEach(() => vi.restoreAllMocks());

describe('linear regular expressions', () => {
  // Each pattern against each text, by RE2 and by the native engine with the u flag: the same verdicts.
  const TEXTS = ['', 'a', 'abc', 'ABC', 'a\nb', 'a\rb', 'a\u2028b', 'x y', 'x\u00a0y', 'x\u3000y', 'x\vy', 'é', '😀', 'caf\u00e9', '[:]', 'a]', '\b', 'line1\nline2', 'id-42', '2024-01-31'];
  const PATTERNS: [string, string][] = [
    ['^a.b$', ''],
    ['^a.b$', 's'],
    ['^.$', ''],
    ['\\s', ''],
    ['^x\\Sy$', ''],
    ['[\\s]', ''],
    ['^[^\\s]+$', ''],
    ['\\u00e9', ''],
    ['\\u{1F600}', ''],
    ['\\uD83D\\uDE00', ''],
    ['[\\u00e0-\\u00ff]', ''],
    ['\\cJ', ''],
    ['[\\b]', ''],
    ['[[:]', ''],
    ['[^]', ''],
    ['^[^]$', ''],
    ['\\bABC\\b', 'i'],
    ['^line2$', 'm'],
    ['^line2$', ''],
    ['^\\d{4}-\\d{2}-\\d{2}$', ''],
    ['^[a-z]+-\\d+$', ''],
    ['\\p{L}', ''],
    ['^\\P{L}+$', ''],
    ['(?<word>[a-z]+)', ''],
    ['\\/|\\.|[\\-]', ''],
    ['^(?:x|[^x])+$', ''],
  ];
  it.each(PATTERNS)('reads %s (flags %j) as the native engine does', (source, flags) => {
    const linear = compileLinear(source, flags);
    const native = new RegExp(source, `${flags}u`);
    for (const text of TEXTS) expect(linear.test(text), JSON.stringify(text)).toBe(native.test(text));
  });

  it.each([
    ['(?=a)b', /cannot run.*\(\?=/],
    ['(?!a)b', /cannot run/],
    ['(?<=a)b', /cannot run/],
    ['(a)\\1', /cannot run.*\\1/],
    ['(?<n>a)\\k<n>', /cannot run/],
    ['a{1001}', /repeat count/],
    ['(unclosed', /is not a valid regular expression/],
    ['\\p{Script=Greek}', /cannot run/],
  ])('refuses %s with the reason', (source, reason) => {
    expect(() => compileLinear(source)).toThrow(PatternRefused);
    expect(() => compileLinear(source)).toThrow(reason);
  });

  it('refuses a pattern that compiles to too many instructions, and flags other than i, m and s', () => {
    expect(() => compileLinear('[ab]{1000}'.repeat(11))).toThrow(new RegExp(`at most ${MAX_PROGRAM_SIZE}`));
    expect(() => compileLinear('a', 'g')).toThrow(/only i, m and s/);
  });

  it('checks hostile texts against ^(a+)+$ on RE2, never on the native engine, in steps bounded by size × length', () => {
    const nativeRuns = vi.spyOn(RegExp.prototype, 'exec');
    const re2Runs = vi.spyOn(RE2JS.prototype, 'test');
    const pattern = compileLinear('^(a+)+$');
    for (const text of ['a'.repeat(30) + '!', 'a'.repeat(100_000) + '!']) {
      const meter = new WorkMeter();
      meter.spend(pattern, text);
      expect(pattern.test(text)).toBe(false);
      expect(pattern.workOf(text)).toBe(pattern.programSize * (text.length + 1));
    }
    expect(pattern.test('aaaa')).toBe(true);
    expect(re2Runs).toHaveBeenCalledTimes(3);
    expect(nativeRuns.mock.calls.filter(([text]) => String(text).startsWith('aaaa'))).toEqual([]);
    expect(pattern.programSize).toBeLessThan(20);
  });

  it('meters the checks of one piece of work against one budget, refusing before the step that would exceed it', () => {
    const pattern = compileLinear('^(a|b|c)*d$');
    const fits = 'a'.repeat(pattern.charactersWithin(WORK_BUDGET) - 1);
    new WorkMeter().spend(pattern, fits);
    const meter = new WorkMeter();
    meter.spend(pattern, fits.slice(0, fits.length / 2));
    expect(() => meter.spend(pattern, fits)).toThrow(TooMuchPatternWork);
    expect(() => new WorkMeter().spend(pattern, `${fits}a`)).toThrow(/has a string of \d+ characters, more than the pattern/);
  });
});
