// Whether regular expressions could backtrack catastrophically, decided by recheck (an automaton-based
// ReDoS checker with a fuzzing fallback) before a pattern is saved. recheck's asynchronous check runs
// off the event loop: in its native build (the `recheck-linux-x64` package and its siblings, binaries
// shipped inside npm packages) where the platform has one, else in a worker thread of its own running
// its JavaScript build. A pattern it cannot show safe in time is refused like an unsafe one.
// recheck (some 4 MB of JavaScript) is loaded when a pattern is first checked, not at start.
import { LRUCache } from 'lru-cache';

export interface PatternVerdict {
  safe: boolean;
  /** Why it was refused, in words (empty when safe). */
  reason: string;
}

export interface PatternCheckOptions {
  /** recheck's own limit for one pattern. */
  perPatternMs: number;
  /** Every check still running after this is cancelled, and its pattern refused. */
  totalMs: number;
}

const TOO_SLOW = 'it could not be shown safe in time';

/** A verdict worth remembering: safe or vulnerable, not a check cut short. */
type Checked = PatternVerdict & { lasting: boolean };

async function checkOne(source: string, flags: string, perPatternMs: number, signal: AbortSignal): Promise<Checked> {
  try {
    const { check } = await import('recheck');
    const result = await check(source, flags, { timeout: perPatternMs, signal });
    if (result.status === 'safe') return { safe: true, reason: '', lasting: true };
    if (result.status === 'vulnerable') {
      return { safe: false, reason: `it could backtrack catastrophically (${result.complexity.type} time on some inputs)`, lasting: true };
    }
    const error = result.error;
    if (error.kind === 'timeout' || error.kind === 'cancel') return { safe: false, reason: TOO_SLOW, lasting: false };
    return { safe: false, reason: `it could not be checked (${error.message})`, lasting: error.kind !== 'unexpected' };
  } catch {
    return { safe: false, reason: 'it could not be checked', lasting: false };
  }
}

/** Remembered verdicts: saving a guardrail again with the same patterns does not check them again. */
const known = new LRUCache<string, PatternVerdict>({ max: 5_000 });

/** One verdict per pattern, in order. Never throws. */
export async function checkPatterns(sources: readonly string[], flags: string, options: PatternCheckOptions): Promise<PatternVerdict[]> {
  const key = (source: string) => `${flags}/${source}`;
  const unknown = [...new Set(sources.filter((source) => !known.has(key(source))))];
  const found = new Map<string, PatternVerdict>();
  if (unknown.length > 0) {
    const deadline = new AbortController();
    const timer = setTimeout(() => deadline.abort(), options.totalMs);
    try {
      const verdicts = await Promise.all(unknown.map((source) => checkOne(source, flags, options.perPatternMs, deadline.signal)));
      verdicts.forEach((verdict, index) => {
        const source = unknown[index]!;
        found.set(source, { safe: verdict.safe, reason: verdict.reason });
        if (verdict.lasting) known.set(key(source), found.get(source)!);
      });
    } finally {
      clearTimeout(timer);
    }
  }
  return sources.map((source) => known.get(key(source)) ?? found.get(source)!);
}
