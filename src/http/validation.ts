// Two validators: bodies are taken as sent (a string is not an integer), while path, query and
// header values, which arrive as text, are coerced to the types their schemas declare.
import { Ajv, type Options } from 'ajv';
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

export function schemaValidatorCompiler(): FastifySchemaCompiler<unknown> {
  const strict = buildAjv(false);
  const coercing = buildAjv('array');
  return ({ schema, httpPart }) => (httpPart === 'body' ? strict : coercing).compile(schema as object);
}
