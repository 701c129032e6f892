// Regular expressions that users, imported documents and models write, run by re2js (RE2 in
// JavaScript) instead of the native engine. RE2 never backtracks: checking a text takes at most the
// pattern's program size in steps for each character, whatever the pattern, where the native engine
// can take exponential time (`^(a+)+$` over thirty characters holds the server for seconds). Patterns
// are written in ECMAScript's syntax (JSON Schema's `pattern`, a metric's pattern) and read as with the
// `u` flag; those RE2 runs with the same meaning are taken, the rest (lookaround, backreferences,
// repetition counts above 1000) refused with the reason. Program size times characters is still a
// product, so a pattern's size is capped and each check is given a budget of steps.
import { LRUCache } from 'lru-cache';
import { RE2JS } from 're2js';
import { ecmaToRe2 } from './ecma-to-re2.js';

/** Most instructions one pattern may compile to: the steps a check takes for each character, at most. */
export const MAX_PROGRAM_SIZE = 10_000;
/**
 * Steps (instructions × characters) one check may take: one tool call's arguments, one answer read by
 * one metric. About a tenth of a second where RE2 cannot use its DFA and steps through every instruction.
 */
export const WORK_BUDGET = 4_000_000;

/** A pattern that is not taken; the message says why, as a predicate (`is not …`, `uses …`). */
export class PatternRefused extends Error {}

/** A check that would take more steps than its budget; the message is a predicate (`has a string …`). */
export class TooMuchPatternWork extends Error {}

export class LinearRegExp {
  readonly programSize: number;

  constructor(
    readonly source: string,
    readonly flags: string,
    private readonly re2: RE2JS,
  ) {
    this.programSize = re2.programSize();
  }

  /** The most characters a check may read within `steps`. */
  charactersWithin(steps: number): number {
    return Math.floor(steps / this.programSize);
  }

  /** The most steps a check of `text` takes. */
  workOf(text: string): number {
    return this.programSize * (text.length + 1);
  }

  /** Whether the pattern matches somewhere in the text, as RegExp.prototype.test. */
  test(text: string): boolean {
    return this.re2.test(text);
  }

  toString(): string {
    return `/${this.source}/${this.flags}`;
  }
}

/** Counts the steps of the checks of one piece of work (a tool call's arguments) against one budget. */
export class WorkMeter {
  private spent = 0;

  constructor(private readonly budget: number = WORK_BUDGET) {}

  /** Counts the check of `text`; throws TooMuchPatternWork, before any step, when it would exceed the budget. */
  spend(pattern: LinearRegExp, text: string): void {
    this.spent += pattern.workOf(text);
    if (this.spent > this.budget) {
      throw new TooMuchPatternWork(`has a string of ${text.length} characters, more than the pattern ${pattern} can check (at most ${pattern.charactersWithin(this.budget) - 1} characters for it)`);
    }
  }
}

const FLAGS = /^[ims]*$/;
const COMPILED_KEPT = 1_000;
/** Patterns compiled, and refusals: a tool's patterns are compiled when saved and again for its validator. */
const compiled = new LRUCache<string, LinearRegExp | PatternRefused>({ max: COMPILED_KEPT });

function compileOnce(source: string, flags: string): LinearRegExp | PatternRefused {
  try {
    // Syntax only: the native engine compiles the pattern here but never runs it.
    new RegExp(source, `${flags}u`);
  } catch (error) {
    return new PatternRefused(`is not a valid regular expression: ${(error as Error).message}`);
  }
  let re2: RE2JS;
  try {
    re2 = RE2JS.compile(ecmaToRe2(source, flags.includes('s')), (flags.includes('i') ? RE2JS.CASE_INSENSITIVE : 0) | (flags.includes('m') ? RE2JS.MULTILINE : 0));
  } catch (error) {
    const reason = (error as Error).message.replace(/^error parsing regexp: /, '');
    return new PatternRefused(`uses what the server's linear-time engine (RE2) cannot run, such as lookaround, backreferences or a repetition count above 1000: ${reason}`);
  }
  const pattern = new LinearRegExp(source, flags, re2);
  if (pattern.programSize > MAX_PROGRAM_SIZE) {
    return new PatternRefused(`is too large: it compiles to ${pattern.programSize} instructions, at most ${MAX_PROGRAM_SIZE} are allowed (fewer or smaller repetition counts)`);
  }
  return pattern;
}

/**
 * The pattern compiled for RE2, read as ECMAScript with the `u` flag and these flags (among i, m, s).
 * Throws PatternRefused with the reason when it cannot be taken.
 */
export function compileLinear(source: string, flags = ''): LinearRegExp {
  if (!FLAGS.test(flags)) throw new PatternRefused(`has flags ${JSON.stringify(flags)}: only i, m and s are allowed`);
  const key = `${flags}/${source}`;
  let pattern = compiled.get(key);
  if (pattern === undefined) {
    pattern = compileOnce(source, flags);
    compiled.set(key, pattern);
  }
  if (pattern instanceof PatternRefused) throw pattern;
  return pattern;
}
