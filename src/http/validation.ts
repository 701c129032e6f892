// Two validators: bodies are taken as sent (a string is not an integer), while path, query and
// header values, which arrive as text, are coerced to the types their schemas declare.
// Most come compiled from the build (precompiled-schemas.ts); Ajv is loaded only for a schema the
// build did not see.
import { createRequire } from 'node:module';
import type { Ajv, Options, ValidateFunction } from 'ajv';
import { createAjv } from '../ajv-instance.js';
import type { ValidatorFactory } from '@fastify/ajv-compiler';
import type { FastifySchemaCompiler } from 'fastify';
import { precompiled, schemaKey } from './precompiled-schemas.js';

/** The formats the server checks; any other (binary, of an upload's files) is documentation. */
export const VALIDATED_FORMATS = ['date-time', 'email', 'uri', 'uuid'] as const;

const require = createRequire(import.meta.url);

/** The options of the two validators: part of each compiled function's name, so a change compiles them again. */
const OPTIONS = {
  body: { coerceTypes: false, useDefaults: true, removeAdditional: false, allErrors: true, strict: false },
  text: { coerceTypes: 'array', useDefaults: true, removeAdditional: false, allErrors: true, strict: false },
} as const satisfies Record<string, Options>;

type Part = keyof typeof OPTIONS;

/** A new Ajv with the server's formats; `withCode` keeps each function's source (for the build). */
export function ajvWithFormats(options: Options, withCode = false): Ajv {
  return createAjv({ ...options, ...(withCode ? { code: { source: true } } : {}) }, VALIDATED_FORMATS);
}

const compilers = new Map<string, Ajv>();

function compileValidator(part: Part, schema: object, withCode: boolean): { compiled: ValidateFunction; code?: string } {
  const name = `${part} ${withCode}`;
  let ajv = compilers.get(name);
  if (!ajv) {
    ajv = ajvWithFormats(OPTIONS[part], withCode);
    compilers.set(name, ajv);
  }
  const compiled = ajv.compile(schema);
  if (!withCode) return { compiled };
  const standaloneCode = (require('ajv/dist/standalone/index.js') as typeof import('ajv/dist/standalone/index.js')).default;
  return { compiled, code: standaloneCode(ajv, compiled) };
}

/** The key of a route part's validator: the schema's text and the options it is compiled with. */
export function validatorKey(httpPart: string | undefined, schema: unknown): string {
  const part: Part = httpPart === 'body' ? 'body' : 'text';
  return schemaKey('validator', `${JSON.stringify(OPTIONS[part])} ${JSON.stringify(schema)}`);
}

// A validator depends on its schema's text alone: one per schema for the process, shared by every
// app it builds (a test file builds several; the CLI builds one and then runs a command).
export function schemaValidatorCompiler(): FastifySchemaCompiler<unknown> {
  return ({ schema, httpPart }) => {
    const part: Part = httpPart === 'body' ? 'body' : 'text';
    return precompiled('validator', validatorKey(httpPart, schema), (withCode) => compileValidator(part, schema as object, withCode), { schema, httpPart });
  };
}

/**
 * The validator compiler as Fastify's schema controller builds it: given there, Fastify does not
 * load its own (Ajv) at start. Its type names Ajv's compile function, while Fastify calls it with
 * the route's schema and part, as any validator compiler.
 */
export const schemaValidatorFactory = (() => schemaValidatorCompiler()) as unknown as ValidatorFactory;
