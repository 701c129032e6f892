// The routes' validators and serializers compiled at build time (src/http/precompiled-schemas.ts):
// recorded from the real app as the build records them, they are the ones a start uses, they accept,
// reject, fill in and write exactly what the runtime compiled ones do, and a schema the file does not
// hold (changed since the build) or a file from other compiler versions falls back to compiling.
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifySchemaCompiler } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  codeFileOf,
  precompiledCounts,
  recordedInputs,
  startRecordingSchemas,
  usePrecompiledSchemas,
  writeRecordedSchemas,
} from '../src/http/precompiled-schemas.js';
import { sharedSerializers } from '../src/http/response-serializers.js';
import { schemaValidatorCompiler } from '../src/http/validation.js';
import { startTestApp } from './support/app.js';
import { databaseKinds } from './support/databases.js';

type ValidatorInput = { schema: { properties?: Record<string, unknown> }; httpPart: string };
type SerializerInput = { route: Parameters<ReturnType<typeof sharedSerializers>>[0] & { schema: { properties?: Record<string, unknown> } }; externalSchemas: unknown; options: undefined };
type Validate = ReturnType<FastifySchemaCompiler<unknown>> & { errors?: { instancePath: string; keyword: string; params: unknown }[] | null };

/** Values of every JSON type and of the formats the server checks, each alone and as each property. */
const VALUES: unknown[] = ['x', '', '12', 'true', 1, -1, 1.5, 0, true, null, [], ['a'], {}, '2026-01-01T00:00:00Z', 'not a date', '00000000-0000-4000-8000-000000000000', 'a@example.com', 'https://example.com/'];

function samples(schema: { properties?: Record<string, unknown> }): unknown[] {
  const found: unknown[] = [null, {}, [], 'x', 1, true];
  for (const name of Object.keys(schema.properties ?? {})) for (const value of VALUES) found.push({ [name]: value });
  // Every property at once, with the first value its own validator would take: defaults and coercions across fields.
  for (const value of VALUES) found.push(Object.fromEntries(Object.keys(schema.properties ?? {}).map((name) => [name, value])));
  return found;
}

function validationOf(validate: Validate, sample: unknown) {
  const data: unknown = structuredClone(sample);
  const valid = (validate as (value: unknown) => boolean)(data);
  return { valid, data, errors: (validate.errors ?? []).map(({ instancePath, keyword, params }) => ({ instancePath, keyword, params })) };
}

function serializationOf(serialize: (value: unknown) => string, sample: unknown): string {
  try {
    return serialize(sample);
  } catch (error) {
    return `throws ${(error as Error).constructor.name}`;
  }
}

describe.each(databaseKinds)('route schemas compiled at build time (%s)', (kind) => {
  let folder: string;
  let file: string;
  let validatorInputs: [string, ValidatorInput][];
  let serializerInputs: [string, SerializerInput][];

  beforeAll(async () => {
    folder = mkdtempSync(join(tmpdir(), 'route-schemas-'));
    file = join(folder, 'route-schemas.cjs');
    // As scripts/compile-route-schemas.mjs does: build the app while recording, then write the file.
    startRecordingSchemas();
    const recording = await startTestApp(kind);
    await recording.close();
    validatorInputs = [...recordedInputs('validator')] as [string, ValidatorInput][];
    serializerInputs = [...recordedInputs('serializer')] as [string, SerializerInput][];
    const written = writeRecordedSchemas(file);
    expect(written.validators).toBe(validatorInputs.length);
    expect(written.serializers).toBe(serializerInputs.length);
  });
  afterAll(() => {
    usePrecompiledSchemas(undefined);
    rmSync(folder, { recursive: true, force: true });
  });

  it('holds a validator and a serializer for the routes of every module', () => {
    expect(validatorInputs.length).toBeGreaterThan(100);
    expect(serializerInputs.length).toBeGreaterThan(100);
    // A schema shared by several routes is compiled once, under the first route that has it.
    const urls = new Set(serializerInputs.map(([, input]) => input.route.url.split('/').slice(0, 4).join('/')));
    for (const prefix of ['/api/v2/agents', '/api/v2/guardrails', '/api/v2/corpora', '/api/v2/connectors', '/api/v2/evaluations', '/api/v2/openai']) expect(urls).toContain(prefix);
  });

  it('gives a start every route schema compiled, and the app validates with them', async () => {
    usePrecompiledSchemas(file);
    const before = precompiledCounts();
    const t = await startTestApp(kind);
    try {
      const after = precompiledCounts();
      expect(after.compiled - before.compiled).toBe(0);
      expect(after.loaded - before.loaded).toBe(validatorInputs.length + serializerInputs.length);
      // None is evaluated before its first call: the start neither parses nor keeps their code.
      expect(after.evaluated).toBe(before.evaluated);
      const refused = await t.app.inject({ method: 'POST', url: '/api/v2/auth/login', payload: { email: 12, password: true } });
      expect(refused.statusCode).toBe(400);
      expect(refused.json().error.code).toBe('bad_request');
      // The errors read through the function that stood for the generated one: the fields named.
      expect(JSON.stringify(refused.json().error.details)).toMatch(/email/);
      const evaluated = precompiledCounts().evaluated;
      expect(evaluated).toBeGreaterThan(after.evaluated);
      // Evaluated once: a second call runs the same function.
      await t.app.inject({ method: 'POST', url: '/api/v2/auth/login', payload: { email: 12, password: true } });
      expect(precompiledCounts().evaluated).toBe(evaluated);
    } finally {
      await t.close();
    }
  });

  it('accepts, refuses, fills in and coerces exactly what the validators compiled at start do', () => {
    usePrecompiledSchemas(join(folder, 'none.cjs'));
    const runtime = validatorInputs.map(([, input]) => schemaValidatorCompiler()(input as never) as Validate);
    usePrecompiledSchemas(file);
    const before = precompiledCounts();
    const built = validatorInputs.map(([, input]) => schemaValidatorCompiler()(input as never) as Validate);
    expect(precompiledCounts().compiled).toBe(before.compiled);
    let checked = 0;
    validatorInputs.forEach(([, input], index) => {
      expect(built[index]).not.toBe(runtime[index]);
      for (const sample of samples(input.schema)) {
        expect(validationOf(built[index]!, sample), `${input.httpPart} ${JSON.stringify(sample)}`).toEqual(validationOf(runtime[index]!, sample));
        checked++;
      }
    });
    expect(checked).toBeGreaterThan(1000);
  });

  it('writes exactly what the serializers compiled at start write', () => {
    usePrecompiledSchemas(join(folder, 'none.cjs'));
    const compile = ([, { route, externalSchemas, options }]: [string, SerializerInput]) => sharedSerializers(externalSchemas, options)(route) as (value: unknown) => string;
    const runtime = serializerInputs.map(compile);
    usePrecompiledSchemas(file);
    const before = precompiledCounts();
    const built = serializerInputs.map(compile);
    expect(precompiledCounts().compiled).toBe(before.compiled);
    serializerInputs.forEach(([, { route }], index) => {
      for (const sample of samples(route.schema)) {
        expect(serializationOf(built[index]!, sample), `${route.method} ${route.url} ${JSON.stringify(sample)}`).toBe(serializationOf(runtime[index]!, sample));
      }
    });
  });

  it('compiles a schema changed since the build, and ignores a file from other compiler versions', () => {
    usePrecompiledSchemas(file);
    const [, input] = validatorInputs.find(([, candidate]) => candidate.httpPart === 'body' && candidate.schema.properties !== undefined)!;
    const changed = { ...input, schema: { ...input.schema, required: ['added'], properties: { ...input.schema.properties, added: { type: 'integer' } } } };
    const before = precompiledCounts();
    const validate = schemaValidatorCompiler()(changed as never) as Validate;
    expect(precompiledCounts().compiled).toBe(before.compiled + 1);
    expect(validationOf(validate, { added: 'one' }).valid).toBe(false);

    const otherVersions = join(folder, 'other-versions.cjs');
    writeFileSync(otherVersions, readFileSync(file, 'utf8').replace(/^exports\.versions = .*$/m, 'exports.versions = "ajv@0.0.0";'));
    copyFileSync(codeFileOf(file), codeFileOf(otherVersions));
    usePrecompiledSchemas(otherVersions);
    const start = precompiledCounts();
    schemaValidatorCompiler()(input as never);
    expect(precompiledCounts()).toEqual({ ...start, compiled: start.compiled + 1 });
  });

  it('compiles when the index is there without its code file', () => {
    const [, input] = validatorInputs.find(([, candidate]) => candidate.httpPart === 'body')!;
    const withoutCode = join(folder, 'without-code.cjs');
    copyFileSync(file, withoutCode);
    usePrecompiledSchemas(withoutCode);
    const start = precompiledCounts();
    schemaValidatorCompiler()(input as never);
    expect(precompiledCounts()).toEqual({ ...start, compiled: start.compiled + 1 });
  });
});
