// The regular expressions of a tool's parameters (`pattern`, and the names of `patternProperties`):
// found in the schema with their JSON pointers, so that one RE2 cannot run is refused where it stands
// when the tool is saved or imported; and the engine Ajv runs them with (src/regexp: RE2, linear in
// the text), metered so that one call's arguments cost a bounded number of steps, however long.
import type { Options } from 'ajv';
import { compileLinear, MAX_PROGRAM_SIZE, PatternRefused, WorkMeter } from '../regexp/index.js';

type RegExpEngine = NonNullable<NonNullable<Options['code']>['regExp']>;
type RegExpLike = ReturnType<RegExpEngine>;

/** Most instructions the patterns of one schema may compile to together: compiling is paid when it is saved. */
const MAX_SCHEMA_PROGRAM_SIZE = 5 * MAX_PROGRAM_SIZE;

// The keywords whose values are schemas, a list of schemas, or a map of names to schemas (draft-07
// and later). Others (`enum`, `const`, `default`, `examples`) hold values, whose `pattern` is data.
const SCHEMA_KEYWORDS = ['additionalItems', 'additionalProperties', 'contains', 'else', 'if', 'items', 'not', 'propertyNames', 'then', 'unevaluatedItems', 'unevaluatedProperties'];
const SCHEMA_LIST_KEYWORDS = ['allOf', 'anyOf', 'items', 'oneOf', 'prefixItems'];
const SCHEMA_MAP_KEYWORDS = ['$defs', 'definitions', 'dependencies', 'dependentSchemas', 'patternProperties', 'properties'];

const escapePointer = (name: string) => name.replaceAll('~', '~0').replaceAll('/', '~1');
const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);

/** Every pattern of the schema and its subschemas, with its JSON pointer inside the schema. */
function* patternsOf(schema: unknown, pointer = ''): Generator<{ pointer: string; source: string }> {
  if (!isObject(schema)) return;
  if (typeof schema.pattern === 'string') yield { pointer: `${pointer}/pattern`, source: schema.pattern };
  if (isObject(schema.patternProperties)) {
    for (const source of Object.keys(schema.patternProperties)) yield { pointer: `${pointer}/patternProperties/${escapePointer(source)}`, source };
  }
  for (const keyword of SCHEMA_KEYWORDS) yield* patternsOf(schema[keyword], `${pointer}/${keyword}`);
  for (const keyword of SCHEMA_LIST_KEYWORDS) {
    const list = schema[keyword];
    if (Array.isArray(list)) for (const [index, item] of list.entries()) yield* patternsOf(item, `${pointer}/${keyword}/${index}`);
  }
  for (const keyword of SCHEMA_MAP_KEYWORDS) {
    const map = schema[keyword];
    if (isObject(map)) for (const [name, item] of Object.entries(map)) yield* patternsOf(item, `${pointer}/${keyword}/${escapePointer(name)}`);
  }
}

/** Each pattern of the schema RE2 cannot run, with its pointer; stops at the first that makes the whole too large. */
export function patternProblems(schema: Record<string, unknown>): { path: string; message: string }[] {
  const problems: { path: string; message: string }[] = [];
  let programSize = 0;
  for (const { pointer, source } of patternsOf(schema)) {
    try {
      programSize += compileLinear(source).programSize;
    } catch (error) {
      if (!(error instanceof PatternRefused)) throw error;
      problems.push({ path: pointer, message: `the pattern ${error.message}` });
      continue;
    }
    if (programSize > MAX_SCHEMA_PROGRAM_SIZE) {
      problems.push({ path: pointer, message: `the patterns compile to more than ${MAX_SCHEMA_PROGRAM_SIZE} instructions together: use fewer or smaller ones` });
      break;
    }
  }
  return problems;
}

/** The meter of the check running now: checks are synchronous, so one at a time. */
let meter: WorkMeter | undefined;

/** Runs a check with a budget of steps for all the patterns it tests; throws TooMuchPatternWork beyond it. */
export function withPatternBudget<T>(check: () => T): T {
  const outer = meter;
  meter = new WorkMeter();
  try {
    return check();
  } finally {
    meter = outer;
  }
}

/** Ajv's engine for `pattern` and `patternProperties`: RE2 through src/regexp, each test counted. */
export const linearRegExpEngine: RegExpEngine = Object.assign(
  (source: string): RegExpLike => {
    const pattern = compileLinear(source);
    return {
      test(text: string): boolean {
        (meter ?? new WorkMeter()).spend(pattern, text);
        return pattern.test(text);
      },
      // Ajv keeps one compiled pattern per distinct text of this.
      toString: () => pattern.toString(),
    } as RegExpLike;
  },
  // Only read when Ajv writes standalone code, which this server does not.
  { code: 'linearRegExpEngine' },
);
