// From a dereferenced OpenAPI 3 / Swagger 2 document to API tool settings, one tool per chosen
// operation: its parameters in path, query, header and cookie become properties of the tool's
// parameters (named as models accept, with the name on the wire kept in `locations`), a JSON request
// body's top-level properties become body parameters (nested objects kept whole; a body that is not
// an object becomes one `body` parameter), and the URL is the server's URL joined with the path.
import { AppError, BadRequest } from '../../../errors.js';
import type { ApiToolConfig, ParameterPlace } from '../config.js';
import { HTTP_KEYS, type OpenApiDocument } from './document.js';
import { copySchema, externalReference, SchemaBudget } from './schema-copy.js';
import { authOfOperation } from './security.js';
import { fixedDestinationOf } from '../url-template.js';
import { fittedToolName, toolNameOf } from './tool-names.js';

export interface ImportedOperation {
  /** operationId, or `METHOD /path` when the operation has none. */
  key: string;
  /** JSON pointer of the operation in the document, e.g. `/paths/~1pets~1{petId}/get`. */
  pointer: string;
  name: string;
  description: string;
  config: ApiToolConfig;
}

export interface OperationRef {
  method: string;
  path: string;
  pathItem: Record<string, any>;
  operation: Record<string, any>;
}

const SUPPORTED_METHODS = new Set(['get', 'post', 'put', 'patch', 'delete']);
const PLACES = new Set<ParameterPlace>(['path', 'query', 'header', 'cookie']);

export function operationKey(ref: OperationRef): string {
  return typeof ref.operation.operationId === 'string' && ref.operation.operationId !== '' ? ref.operation.operationId : `${ref.method.toUpperCase()} ${ref.path}`;
}

/** A key of a JSON pointer, escaped (RFC 6901). */
const pointerKey = (key: string) => key.replace(/~/g, '~0').replace(/\//g, '~1');

/** Where the operation is in the document, as a JSON pointer. */
export const operationPointer = (ref: Pick<OperationRef, 'method' | 'path'>) => `/paths/${pointerKey(ref.path)}/${ref.method}`;

/**
 * An operation that cannot be made a tool: the refusal (a 400 or a 413 when it is the only one asked
 * for) and the JSON pointer of the part of the document that is the reason.
 */
export class OperationRefused extends Error {
  constructor(
    readonly operation: string,
    readonly pointer: string,
    readonly refusal: AppError,
  ) {
    super(refusal.message);
    this.name = 'OperationRefused';
  }
}

function listOperations(document: OpenApiDocument): OperationRef[] {
  const found: OperationRef[] = [];
  for (const [path, pathItem] of Object.entries(document.paths ?? {})) {
    if (pathItem === null || typeof pathItem !== 'object') continue;
    for (const [method, operation] of Object.entries(pathItem as Record<string, any>)) {
      if (HTTP_KEYS.has(method) && operation !== null && typeof operation === 'object') found.push({ method, path, pathItem: pathItem as Record<string, any>, operation });
    }
  }
  return found;
}

/** One operation of a document as a preview lists it: the key an import takes, and what it is. */
export interface OperationSummary {
  operation: string;
  method: string;
  path: string;
  summary: string;
  pointer: string;
}

/** Every operation of the document, in its order, for choosing which to import. */
export function summariseOperations(document: OpenApiDocument): OperationSummary[] {
  return listOperations(document).map((ref) => {
    const { summary, description } = ref.operation as { summary?: unknown; description?: unknown };
    const text = typeof summary === 'string' && summary.trim() !== '' ? summary : typeof description === 'string' ? description.split('\n')[0]!.slice(0, 300) : '';
    return { operation: operationKey(ref), method: ref.method.toUpperCase(), path: ref.path, summary: text, pointer: operationPointer(ref) };
  });
}

/** The chosen operations (by operationId or `METHOD /path`); every operation when none is named. */
export function chooseOperations(document: OpenApiDocument, chosen: string[] | undefined, maxTools: number): OperationRef[] {
  const all = listOperations(document);
  if (chosen === undefined) {
    if (all.length > maxTools) throw new BadRequest(`The document describes ${all.length} operations: choose at most ${maxTools} in openapi.operations`, [{ pointer: '/body/openapi/operations', message: 'is required for a document of this size' }]);
    if (all.length === 0) throw new BadRequest('The document describes no operation');
    return all;
  }
  const byKey = new Map<string, OperationRef>();
  for (const ref of all) {
    byKey.set(operationKey(ref), ref);
    byKey.set(`${ref.method.toUpperCase()} ${ref.path}`, ref);
  }
  const unknown = chosen.map((key, index) => ({ key, index })).filter(({ key }) => !byKey.has(key));
  if (unknown.length > 0) {
    throw new BadRequest(
      `The document has no operation ${unknown.map(({ key }) => `"${key}"`).join(', ')}`,
      unknown.map(({ index }) => ({ pointer: `/body/openapi/operations/${index}`, message: 'names no operation of the document (operationId or METHOD /path)' })),
    );
  }
  return [...new Set(chosen.map((key) => byKey.get(key)!))];
}

function substituteVariables(url: string, variables: Record<string, any> | undefined): string {
  return url.replace(/\{([^{}]+)\}/g, (match, name: string) => {
    const value = variables?.[name]?.default;
    return value === undefined ? match : String(value);
  });
}

/** The base URL of an operation: the override, else the document's servers (or Swagger 2's host and basePath). */
function serverUrlOf(document: OpenApiDocument, ref: OperationRef, sourceUrl: string | undefined, override: string | undefined): string {
  let base: string | undefined = override;
  if (base === undefined && document.swagger !== undefined) {
    const scheme = Array.isArray(document.schemes) && document.schemes.length > 0 ? document.schemes.includes('https') ? 'https' : String(document.schemes[0]) : undefined;
    const host = typeof document.host === 'string' ? document.host : sourceUrl ? new URL(sourceUrl).host : undefined;
    if (host !== undefined) base = `${scheme ?? (sourceUrl ? new URL(sourceUrl).protocol.slice(0, -1) : 'https')}://${host}${document.basePath ?? ''}`;
  } else if (base === undefined) {
    const servers = ref.operation.servers ?? ref.pathItem.servers ?? document.servers;
    const server = Array.isArray(servers) ? servers[0] : undefined;
    if (server && typeof server.url === 'string') base = substituteVariables(server.url, server.variables);
  }
  if (base === undefined) throw new BadRequest('The document names no server: give openapi.server_url', [{ pointer: '/body/openapi/server_url', message: 'is required for this document' }]);
  let href: string;
  try {
    href = new URL(base, sourceUrl).href.replace(/\/+$/, '');
  } catch {
    throw new BadRequest(`The document's server URL "${base.slice(0, 200)}" is relative or invalid: give openapi.server_url`, [{ pointer: '/body/openapi/server_url', message: 'is required for this document' }]);
  }
  if (fixedDestinationOf(href) === undefined) {
    throw new BadRequest(`The server URL "${href.slice(0, 200)}" has a placeholder (a variable without a default value) in its scheme, host or port: give openapi.server_url`, [
      { pointer: '/body/openapi/server_url', message: override === undefined ? 'is required for this document' : 'must not have placeholders in its scheme, host or port' },
    ]);
  }
  return href;
}

/** A parameter and its JSON pointer in the document. */
type PlacedParameter = { parameter: Record<string, any>; pointer: string };

/** Parameters of the path item and the operation, the operation's winning on the same name and place. */
function parametersOf(ref: OperationRef): PlacedParameter[] {
  const merged = new Map<string, PlacedParameter>();
  const listed = (owner: Record<string, any>, at: string): PlacedParameter[] =>
    Array.isArray(owner.parameters) ? owner.parameters.map((parameter: Record<string, any>, index: number) => ({ parameter, pointer: `${at}/parameters/${index}` })) : [];
  for (const placed of [...listed(ref.pathItem, `/paths/${pointerKey(ref.path)}`), ...listed(ref.operation, operationPointer(ref))]) {
    const { parameter, pointer } = placed;
    if (parameter === null || typeof parameter !== 'object') continue;
    // The parser leaves a reference to another file as it is: dropping it would make a tool without a parameter the API needs.
    if (typeof parameter.$ref === 'string') throw new OperationRefused(operationKey(ref), pointer, externalReference(parameter.$ref));
    merged.set(`${parameter.in}\u0000${parameter.name}`, placed);
  }
  return [...merged.values()];
}

/** Swagger 2 writes a parameter's schema inline with the parameter. */
function parameterSchema(parameter: Record<string, any>): unknown {
  if (parameter.schema !== undefined) return parameter.schema;
  if (parameter.content !== null && typeof parameter.content === 'object') return (Object.values(parameter.content)[0] as Record<string, any> | undefined)?.schema ?? {};
  const { name: _name, in: _in, required: _required, description: _description, allowEmptyValue: _allow, collectionFormat: _format, ...schema } = parameter;
  return schema;
}

/** The JSON request body's schema and pointer, undefined when there is none; refused when the body is not JSON. */
function requestBodyOf(ref: OperationRef, key: string, parameters: PlacedParameter[]): { schema: unknown; required: boolean; pointer: string } | undefined {
  const swaggerBody = parameters.find(({ parameter }) => parameter.in === 'body');
  if (swaggerBody) return { schema: swaggerBody.parameter.schema ?? {}, required: swaggerBody.parameter.required === true, pointer: `${swaggerBody.pointer}/schema` };
  const form = parameters.find(({ parameter }) => parameter.in === 'formData');
  if (form) throw new OperationRefused(key, form.pointer, new BadRequest(`Operation ${key} takes a form, not JSON: it cannot be imported as an API tool`));
  const body = ref.operation.requestBody;
  const at = `${operationPointer(ref)}/requestBody`;
  if (body === undefined || body === null) return undefined;
  if (typeof body.$ref === 'string') throw new OperationRefused(key, at, externalReference(body.$ref));
  const content: Record<string, any> = body.content ?? {};
  const type = Object.keys(content).find((media) => /^application\/(.+\+)?json\b/i.test(media) || media === '*/*');
  if (type === undefined) {
    throw new OperationRefused(key, `${at}/content`, new BadRequest(`Operation ${key} takes ${Object.keys(content).join(', ') || 'no body type'}, not JSON: it cannot be imported as an API tool`));
  }
  return { schema: content[type]?.schema ?? {}, required: body.required === true, pointer: `${at}/content/${pointerKey(type)}/schema` };
}

/** The work of `make` on the part of the operation at `pointer`: a refusal there names that part. */
function at<T>(key: string, pointer: string, make: () => T): T {
  try {
    return make();
  } catch (error) {
    if (error instanceof AppError) throw new OperationRefused(key, pointer, error);
    if (error instanceof RangeError) throw new OperationRefused(key, pointer, new BadRequest(`Operation ${key} is nested too deeply to be imported`));
    throw error;
  }
}

function withDescription(schema: unknown, description: unknown): Record<string, unknown> {
  const copy = schema !== null && typeof schema === 'object' ? { ...(schema as Record<string, unknown>) } : {};
  if (typeof description === 'string' && description !== '' && copy.description === undefined) copy.description = description.slice(0, 1000);
  return copy;
}

export interface ImportOptions {
  sourceUrl: string | undefined;
  serverUrl: string | undefined;
  namePrefix: string;
  /** Most schema parts copied for one operation. */
  maxSchemaParts: number;
}

/** The tool settings of one operation; an operation that cannot be one throws OperationRefused. */
export function importOperation(document: OpenApiDocument, ref: OperationRef, options: ImportOptions): ImportedOperation {
  const key = operationKey(ref);
  const pointer = operationPointer(ref);
  if (!SUPPORTED_METHODS.has(ref.method)) throw new OperationRefused(key, pointer, new BadRequest(`Operation ${key} uses ${ref.method.toUpperCase()}: API tools call GET, POST, PUT, PATCH or DELETE`));
  const budget = new SchemaBudget(key, options.maxSchemaParts);
  const properties: Record<string, unknown> = {};
  const required: string[] = [];
  const locations: NonNullable<ApiToolConfig['locations']> = {};
  const taken = new Set<string>();
  const propertyName = (wire: string, place: string): string => {
    let name = toolNameOf(wire).replace(/^-/, '_');
    if (taken.has(name)) name = toolNameOf(`${name}_${place}`);
    for (let n = 2; taken.has(name); n++) name = toolNameOf(`${wire}_${place}_${n}`);
    taken.add(name);
    return name;
  };

  const parameters = parametersOf(ref);
  for (const { parameter, pointer: parameterPointer } of parameters) {
    if (!PLACES.has(parameter.in) || typeof parameter.name !== 'string') continue;
    const name = propertyName(parameter.name, parameter.in);
    properties[name] = withDescription(at(key, parameterPointer, () => copySchema(parameterSchema(parameter), budget)), parameter.description);
    locations[name] = { in: parameter.in, name: parameter.name };
    if (parameter.required === true || parameter.in === 'path') required.push(name);
  }

  let body: unknown;
  const requestBody = requestBodyOf(ref, key, parameters);
  if (requestBody !== undefined) {
    const schema = at(key, requestBody.pointer, () => copySchema(requestBody.schema, budget)) as Record<string, any>;
    const fields = schema.properties;
    if (fields !== null && typeof fields === 'object' && schema.type !== 'array' && schema.allOf === undefined && schema.oneOf === undefined && schema.anyOf === undefined) {
      const fieldsRequired = new Set<string>(requestBody.required && Array.isArray(schema.required) ? schema.required : []);
      for (const [field, fieldSchema] of Object.entries(fields as Record<string, unknown>)) {
        const name = propertyName(field, 'body');
        properties[name] = fieldSchema;
        locations[name] = { in: 'body', name: field };
        if (fieldsRequired.has(field)) required.push(name);
      }
    } else {
      const name = propertyName('body', 'body');
      properties[name] = withDescription(schema, ref.operation.requestBody?.description ?? 'The request body');
      locations[name] = 'body';
      body = `{{${name}}}`;
      if (requestBody.required) required.push(name);
    }
  }

  const summary = [ref.operation.summary, ref.operation.description].filter((text) => typeof text === 'string' && text.trim() !== '').join('. ');
  const serverPointer = ref.operation.servers !== undefined ? `${pointer}/servers` : ref.pathItem.servers !== undefined ? `/paths/${pointerKey(ref.path)}/servers` : document.swagger !== undefined ? '/host' : '/servers';
  const serverUrl = at(key, serverPointer, () => serverUrlOf(document, ref, options.sourceUrl, options.serverUrl));
  return {
    key,
    pointer,
    name: fittedToolName(`${options.namePrefix}${key === ref.operation.operationId ? key : `${ref.method} ${ref.path}`}`),
    description: (summary === '' ? `${ref.method.toUpperCase()} ${ref.path}` : summary).slice(0, 2000),
    config: {
      method: ref.method.toUpperCase() as ApiToolConfig['method'],
      url: `${serverUrl}${ref.path}`,
      parameters: { type: 'object', properties, ...(required.length > 0 ? { required } : {}) },
      locations,
      ...(body === undefined ? {} : { body }),
      auth: authOfOperation(document, ref.operation),
    },
  };
}
