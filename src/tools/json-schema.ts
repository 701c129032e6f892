// The parameters of a tool are a JSON Schema: an API tool's checked as one when it is saved (against
// the meta-schema, its patterns, and compiled), and every tool's used to check the model's arguments at
// every call. One Ajv instance, validators kept by schema text so that a tool's schema is compiled once.
// Its patterns run on RE2 (src/tools/schema-patterns.ts), never on the native engine: arguments come
// from the model, and may be written by whoever got text in front of it.
import type { ErrorObject, ValidateFunction } from 'ajv';
import { createAjv, lazyAjv } from '../ajv-instance.js';
import { PatternRefused, TooMuchPatternWork } from '../regexp/index.js';
import { linearRegExpEngine, patternProblems, withPatternBudget } from './schema-patterns.js';

// OpenAPI's formats that JSON Schema does not define: accepted as annotations.
const OPENAPI_FORMATS = ['int32', 'int64', 'float', 'double', 'byte', 'binary', 'password'];

const ajv = lazyAjv(() => {
  // Of these formats only `regex` reads the value as a pattern, and only compiles it (natively, never run).
  const made = createAjv({ allErrors: true, strict: false, useDefaults: true, logger: false, code: { regExp: linearRegExpEngine } }, 'all');
  for (const format of OPENAPI_FORMATS) made.addFormat(format, true);
  return made;
});

const VALIDATORS_KEPT = 500;
const validators = new Map<string, ValidateFunction>();

/**
 * Validators by schema object too: a tool's schema is the same object at every call of an answer, and
 * writing it out as text to find its validator costs more than the check itself.
 */
const validatorsBySchema = new WeakMap<object, ValidateFunction>();

function validatorOf(schema: Record<string, unknown>): ValidateFunction {
  const known = validatorsBySchema.get(schema);
  if (known !== undefined) return known;
  const key = JSON.stringify(schema);
  let validate = validators.get(key);
  if (validate === undefined) {
    validate = ajv().compile(schema);
    if (validators.size >= VALIDATORS_KEPT) validators.delete(validators.keys().next().value!);
    validators.set(key, validate);
  }
  validatorsBySchema.set(schema, validate);
  return validate;
}

export interface SchemaProblem {
  /** JSON pointer inside the schema or the value. */
  path: string;
  message: string;
}

const asProblems = (errors: ErrorObject[] | null | undefined): SchemaProblem[] =>
  (errors ?? []).slice(0, 10).map((error) => ({ path: error.instancePath, message: error.message ?? 'is not valid' }));

/**
 * Schemas, as JSON text, that schemaProblems found valid in another thread: an import's reading
 * thread checks the parameters of every operation it makes, since compiling a large schema holds
 * the event loop tens of milliseconds (GitHub's rulesets). Each is taken by the next schemaProblems
 * of the same text here, once; its validator is then compiled at the tool's first call.
 */
const checkedElsewhere = new Set<string>();
const CHECKED_ELSEWHERE_KEPT = 1_000;

/** Trusts, once, that the schema of this JSON text is valid: schemaProblems found none in another thread. */
export function trustSchemaCheckedElsewhere(text: string): void {
  if (checkedElsewhere.size >= CHECKED_ELSEWHERE_KEPT) checkedElsewhere.delete(checkedElsewhere.values().next().value!);
  checkedElsewhere.add(text);
}

/** Problems of a schema as a JSON Schema (meta-schema, patterns RE2 cannot run, then compilation); empty when it is one. */
export function schemaProblems(schema: Record<string, unknown>): SchemaProblem[] {
  if (checkedElsewhere.size > 0 && checkedElsewhere.delete(JSON.stringify(schema))) return [];
  if (!ajv().validateSchema(schema)) return asProblems(ajv().errors);
  const patterns = patternProblems(schema);
  if (patterns.length > 0) return patterns.slice(0, 10);
  try {
    validatorOf(schema);
    return [];
  } catch (error) {
    return [{ path: '', message: (error as Error).message }];
  }
}

/**
 * Checks arguments against the schema, filling its defaults in a copy. The patterns of one check share
 * one budget of steps: a string too long for them is a problem, not a stall.
 */
export function checkArguments(schema: Record<string, unknown>, input: unknown): { ok: true; value: Record<string, unknown> } | { ok: false; problems: SchemaProblem[] } {
  const value = structuredClone(input) as Record<string, unknown>;
  try {
    const validate = validatorOf(schema);
    return withPatternBudget(() => validate(value)) ? { ok: true, value } : { ok: false, problems: asProblems(validate.errors) };
  } catch (error) {
    if (error instanceof TooMuchPatternWork) return { ok: false, problems: [{ path: '', message: error.message }] };
    // A schema saved before its patterns were checked for RE2.
    if (error instanceof PatternRefused) return { ok: false, problems: [{ path: '', message: `cannot be checked: a pattern of the parameters ${error.message}` }] };
    throw error;
  }
}

/** Problems as one sentence: `id must be integer; q is required`. */
export function describeProblems(problems: SchemaProblem[]): string {
  return problems.map((problem) => `${problem.path === '' ? 'the value' : problem.path.slice(1).replaceAll('/', '.')} ${problem.message}`).join('; ');
}
