// Two validators: bodies are taken as sent (a string is not an integer), while path, query and
// header values, which arrive as text, are coerced to the types their schemas declare.
import { Ajv, type Options, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';

/** The formats the server checks; any other (binary, of an upload's files) is documentation. */
export const VALIDATED_FORMATS = ['date-time', 'email', 'uri', 'uuid'] as const;

function buildAjv(coerceTypes: Options['coerceTypes']): Ajv {
  const ajv = new Ajv({
    coerceTypes,
    useDefaults: true,
    removeAdditional: false,
    // One detail per problem, not only the first.
    allErrors: true,
    strict: false,
  });
  addFormats.default(ajv, [...VALIDATED_FORMATS]);
  return ajv;
}

// Compiled once per process and shared by every app it builds: a validator depends on its schema's
// text alone, and compiling the routes' schemas is most of the time an app takes to build (a test
// file builds several; the CLI builds one and then runs a command).
let compilers: { strict: Ajv; coercing: Ajv } | undefined;
const validators = new Map<string, ValidateFunction>();

export function schemaValidatorCompiler(): FastifySchemaCompiler<unknown> {
  return ({ schema, httpPart }) => {
    compilers ??= { strict: buildAjv(false), coercing: buildAjv('array') };
    const body = httpPart === 'body';
    const key = `${body ? 'body' : 'text'} ${JSON.stringify(schema)}`;
    let validate = validators.get(key);
    if (!validate) {
      validate = (body ? compilers.strict : compilers.coercing).compile(schema as object);
      validators.set(key, validate);
    }
    return validate;
  };
}
