// The routes' validators and serializers compiled when the server is built, not at every start: the
// build (scripts/compile-route-schemas.mjs) builds the app once with recording on, and writes the
// code Ajv and fast-json-stringify generated for every route schema into dist/route-schemas.cjs, one
// function per schema, named by a hash of the schema's text and of what else the code depends on
// (the compiler's options, the shared schemas). A start looks each schema up there and runs the
// function it finds; a schema the file does not hold (a route changed since the build, `tsx`, a
// file missing or from other compiler versions) is compiled as before. Nothing lists the routes: the
// file holds whatever the app registered when it was built.
import { createHash } from 'node:crypto';
import { existsSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

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

interface RouteSchemasModule {
  versions: string;
  validators: Record<string, (require: NodeJS.Require) => unknown>;
  serializers: Record<string, (require: NodeJS.Require) => unknown>;
}

let loaded: RouteSchemasModule | null | undefined;
let file = ROUTE_SCHEMAS_FILE;
let recorded: Record<SchemaKind, Map<string, string>> | undefined;
/** While recording, what each function was compiled from (for tests that compare the two ways). */
let inputs: Record<SchemaKind, Map<string, unknown>> = { validator: new Map(), serializer: new Map() };
// One function per schema for the process, shared by every app it builds (a test file builds several).
const made: Record<SchemaKind, Map<string, unknown>> = { validator: new Map(), serializer: new Map() };
const counts = { loaded: 0, compiled: 0 };

function routeSchemas(): RouteSchemasModule | null {
  if (loaded !== undefined) return loaded;
  loaded = null;
  if (recorded || !existsSync(file)) return loaded;
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
  const build = routeSchemas()?.[kind === 'validator' ? 'validators' : 'serializers'][key];
  let compiled: T;
  if (build) {
    counts.loaded++;
    // The runtime code the functions require is resolved from here, wherever the file is.
    compiled = build(require) as T;
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
 * A CommonJS module that gives back each function kept; each is evaluated when first asked for, with
 * the `require` of this module (the generated code requires Ajv's and fast-json-stringify's runtime).
 */
function moduleText(versions: string, kept: Record<SchemaKind, Map<string, string>>): string {
  const table = (codes: Map<string, string>) =>
    [...codes]
      .map(([key, code]) => `${JSON.stringify(key)}: function (require) {\nconst module = { exports: {} };\n${code}\nreturn module.exports;\n}`)
      .join(',\n');
  return (
    `'use strict';\n// Generated by scripts/compile-route-schemas.mjs: the routes' validators and serializers (src/http/precompiled-schemas.ts).\n` +
    `exports.versions = ${JSON.stringify(versions)};\n` +
    `exports.validators = {\n${table(kept.validator)}\n};\n` +
    `exports.serializers = {\n${table(kept.serializer)}\n};\n`
  );
}

/** What the last recording compiled each function from: the arguments its compiler was given. */
export const recordedInputs = (kind: SchemaKind): ReadonlyMap<string, unknown> => inputs[kind];

/** Writes what was recorded to `to`, stops recording, and says how many functions it holds. */
export function writeRecordedSchemas(to: string): { validators: number; serializers: number } {
  if (!recorded) throw new Error('writeRecordedSchemas: startRecordingSchemas was not called');
  writeFileSync(to, moduleText(compilerVersions(), recorded));
  const written = { validators: recorded.validator.size, serializers: recorded.serializer.size };
  recorded = undefined;
  forget();
  return written;
}
