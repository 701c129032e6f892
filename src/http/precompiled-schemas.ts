// The routes' validators and serializers compiled when the server is built, not at every start: the
// build (scripts/compile-route-schemas.mjs) builds the app once with recording on, and writes the
// code Ajv and fast-json-stringify generated for every route schema into dist/route-schemas.cjs.code,
// one module per schema, named by a hash of the schema's text and of what else the code depends on
// (the compiler's options, the shared schemas); dist/route-schemas.cjs says where each one lies in
// that file. A start looks each schema up there and gets a function that reads and evaluates its
// code at its first call: the code of the routes nobody calls is neither parsed nor kept in memory
// (all of it, held as one module's source, was 11 MB of the idle heap). A schema the file does not
// hold (a route changed since the build, `tsx`, a file missing or from other compiler versions) is
// compiled as before. Nothing lists the routes: the file holds whatever the app registered when it
// was built.
import { createHash } from 'node:crypto';
import { closeSync, existsSync, openSync, readSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { compileFunction } from 'node:vm';

export type SchemaKind = 'validator' | 'serializer';

/** dist/route-schemas.cjs, found from src/http/ (tests, `tsx`) as from dist/http/ (production). */
export const ROUTE_SCHEMAS_FILE = fileURLToPath(new URL('../../dist/route-schemas.cjs', import.meta.url));

const require = createRequire(import.meta.url);

/**
 * The versions of the compilers and of the runtime code the generated functions require: code from
 * other versions is not used.
 */
function compilerVersions(): string {
  const version = (name: string) => (require(`${name}/package.json`) as { version: string }).version;
  return ['ajv', 'ajv-formats', 'fast-json-stringify'].map((name) => `${name}@${version(name)}`).join(' ');
}

/** A schema's name in the file: its text and what its code depends on, hashed. */
export function schemaKey(kind: SchemaKind, ...texts: string[]): string {
  const hash = createHash('sha256').update(kind);
  for (const text of texts) hash.update('\0').update(text);
  return hash.digest('base64url');
}

/** Where a schema's code lies in the code file: byte offset and byte length. */
type CodeRange = readonly [offset: number, length: number];

interface RouteSchemasModule {
  versions: string;
  validators: Record<string, CodeRange>;
  serializers: Record<string, CodeRange>;
}

/** The file of the generated code, beside the index (`route-schemas.cjs` → `route-schemas.cjs.code`). */
export const codeFileOf = (indexFile: string): string => `${indexFile}.code`;

let loaded: RouteSchemasModule | null | undefined;
let file = ROUTE_SCHEMAS_FILE;
let recorded: Record<SchemaKind, Map<string, string>> | undefined;
/** While recording, what each function was compiled from (for tests that compare the two ways). */
let inputs: Record<SchemaKind, Map<string, unknown>> = { validator: new Map(), serializer: new Map() };
// One function per schema for the process, shared by every app it builds (a test file builds several).
const made: Record<SchemaKind, Map<string, unknown>> = { validator: new Map(), serializer: new Map() };
/** loaded: found in the build's file; evaluated: of those, whose code has run (at a first call); compiled: made here. */
const counts = { loaded: 0, evaluated: 0, compiled: 0 };

function routeSchemas(): RouteSchemasModule | null {
  if (loaded !== undefined) return loaded;
  loaded = null;
  if (recorded || !existsSync(file) || !existsSync(codeFileOf(file))) return loaded;
  const module = require(file) as RouteSchemasModule;
  if (module.versions === compilerVersions()) loaded = module;
  return loaded;
}

function forget(): void {
  loaded = undefined;
  made.validator.clear();
  made.serializer.clear();
}

/**
 * The function for this key: made before in this process, else compiled at build time, else made
 * now by `compile`. While recording, `compile` is asked for the code too (`withCode`), to be kept.
 */
export function precompiled<T>(kind: SchemaKind, key: string, compile: (withCode: boolean) => { compiled: T; code?: string }, input?: unknown): T {
  const known = made[kind].get(key);
  if (known !== undefined) return known as T;
  const range = routeSchemas()?.[kind === 'validator' ? 'validators' : 'serializers'][key];
  let compiled: T;
  if (range) {
    counts.loaded++;
    compiled = evaluatedAtFirstCall(kind, codeFileOf(file), range) as T;
  } else {
    counts.compiled++;
    const result = compile(recorded !== undefined);
    if (recorded && result.code !== undefined) {
      recorded[kind].set(key, result.code);
      inputs[kind].set(key, input);
    }
    compiled = result.compiled;
  }
  made[kind].set(key, compiled);
  return compiled;
}

/** The generated module at `range` of `codeFile`, run now; what it exports (the validator or serializer). */
function evaluate(codeFile: string, range: CodeRange): AnyFunction {
  const [offset, length] = range;
  const bytes = Buffer.alloc(length);
  const fd = openSync(codeFile, 'r');
  try {
    if (readSync(fd, bytes, 0, length, offset) !== length) throw new Error(`${codeFile} is shorter than its index says: build again`);
  } finally {
    closeSync(fd);
  }
  const module = { exports: {} as unknown };
  // The runtime code the functions require (Ajv's, ajv-formats') is resolved from here, wherever the file is.
  compileFunction(`'use strict';\n${bytes.toString('utf8')}`, ['require', 'module', 'exports'], { filename: codeFile })(require, module, module.exports);
  counts.evaluated++;
  return module.exports as AnyFunction;
}

type AnyFunction = ((...args: unknown[]) => unknown) & { errors?: unknown };

/**
 * A function that stands for the generated one and evaluates it at its first call. A validator's
 * `errors` (Fastify reads them after a call that returned false) are the generated function's.
 */
function evaluatedAtFirstCall(kind: SchemaKind, codeFile: string, range: CodeRange): AnyFunction {
  let generated: AnyFunction | undefined;
  const real = () => (generated ??= evaluate(codeFile, range));
  if (kind === 'serializer') return (value: unknown) => real()(value);
  const validate = ((...args: unknown[]) => real()(...args)) as AnyFunction;
  Object.defineProperty(validate, 'errors', {
    get: () => real().errors,
    set: (errors: unknown) => {
      real().errors = errors;
    },
  });
  return validate;
}

/** How many schemas this process found compiled and how many it compiled itself. */
export const precompiledCounts = (): Readonly<typeof counts> => ({ ...counts });

/** Read the compiled schemas from another file (tests); undefined: the default one again. */
export function usePrecompiledSchemas(from: string | undefined): void {
  file = from ?? ROUTE_SCHEMAS_FILE;
  forget();
}

/** From now on, every schema is compiled and its code kept, for writeRecordedSchemas. */
export function startRecordingSchemas(): void {
  recorded = { validator: new Map(), serializer: new Map() };
  inputs = { validator: new Map(), serializer: new Map() };
  forget();
}

/**
 * The code file (each function's CommonJS module, one after the other) and the index: a CommonJS
 * module that says where each one lies. Each is evaluated at its first call, with the `require` of
 * this module (the generated code requires Ajv's and fast-json-stringify's runtime).
 */
function filesOf(versions: string, kept: Record<SchemaKind, Map<string, string>>): { index: string; code: Buffer } {
  const parts: Buffer[] = [];
  let offset = 0;
  const table = (codes: Map<string, string>) =>
    [...codes]
      .map(([key, code]) => {
        const bytes = Buffer.from(`${code}\n`, 'utf8');
        parts.push(bytes);
        offset += bytes.length;
        return `${JSON.stringify(key)}: [${offset - bytes.length}, ${bytes.length}]`;
      })
      .join(',\n');
  const index =
    `'use strict';\n// Generated by scripts/compile-route-schemas.mjs: where the routes' validators and serializers lie in the .code file beside (src/http/precompiled-schemas.ts).\n` +
    `exports.versions = ${JSON.stringify(versions)};\n` +
    `exports.validators = {\n${table(kept.validator)}\n};\n` +
    `exports.serializers = {\n${table(kept.serializer)}\n};\n`;
  return { index, code: Buffer.concat(parts) };
}

/** What the last recording compiled each function from: the arguments its compiler was given. */
export const recordedInputs = (kind: SchemaKind): ReadonlyMap<string, unknown> => inputs[kind];

/** Writes what was recorded to `to` and its code file, stops recording, and says how many functions it holds. */
export function writeRecordedSchemas(to: string): { validators: number; serializers: number } {
  if (!recorded) throw new Error('writeRecordedSchemas: startRecordingSchemas was not called');
  const { index, code } = filesOf(compilerVersions(), recorded);
  // The code first: an index never names a code file older than itself.
  writeFileSync(codeFileOf(to), code);
  writeFileSync(to, index);
  const written = { validators: recorded.validator.size, serializers: recorded.serializer.size };
  recorded = undefined;
  forget();
  return written;
}
