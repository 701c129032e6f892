// Validators of values against the server's own OpenAPI document: its component schemas loaded into
// Ajv (JSON Schema 2020-12, OpenAPI 3.1's dialect) with the formats the server checks, so that
// `{ $ref: '#/components/schemas/X' }` and inline schemas that refer to components compile.
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { App } from '../../src/app.js';
import { VALIDATED_FORMATS } from '../../src/http/validation.js';

export interface OpenApiDocument {
  paths: Record<string, Record<string, any>>;
  components: { schemas: Record<string, any> };
}

export async function fetchOpenApiDocument(app: App): Promise<OpenApiDocument> {
  const reply = await app.inject({ method: 'GET', url: '/openapi.json' });
  if (reply.statusCode !== 200) throw new Error(`/openapi.json answered ${reply.statusCode}`);
  return JSON.parse(reply.body);
}

/** Compiles a schema of the document (a media type's, or a reference to a component). */
export function schemaValidator(document: OpenApiDocument): (schema: object) => ValidateFunction {
  // discriminator and example are OpenAPI's keywords, not validation: strict off lets Ajv pass them by.
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats.default(ajv, [...VALIDATED_FORMATS]);
  ajv.addFormat('binary', true);
  for (const [name, schema] of Object.entries(document.components.schemas)) ajv.addSchema(schema, `#/components/schemas/${name}`);
  return (schema) => ajv.compile(schema);
}

/** Every operation of the document, with its method, path and operation object. */
export function operationsOf(document: OpenApiDocument) {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, operation]) => ({ label: `${method.toUpperCase()} ${path}`, operation })),
  );
}
