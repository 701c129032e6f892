// Schemas shared by every route: the error envelope, the success envelope, pages, identifiers and
// timestamps. Defined once here and used by reference, so that the OpenAPI document and the
// serialisers agree everywhere.
import { Type, type Static, type TObject, type TProperties, type TSchema } from '@sinclair/typebox';
import { ERROR_CODES, type ErrorCode } from '../errors.js';

export const ErrorEnvelope = Type.Object(
  {
    success: Type.Literal(false),
    message: Type.String({ description: 'What went wrong, for a person to read' }),
    error: Type.Object({
      // A plain enum, which client generators turn into an enumeration type.
      code: Type.Unsafe<ErrorCode>({
        type: 'string',
        enum: [...ERROR_CODES],
        description: 'Stable machine-readable code, e.g. not_found; finer than the status where a client acts on it (feature_disabled beside forbidden)',
      }),
      request_id: Type.String({ description: 'Quote it when reporting a problem; it is in the server log' }),
      details: Type.Array(
        Type.Object({
          pointer: Type.String({ description: 'JSON pointer of the field, prefixed by the request part: /body/name, /query/page' }),
          message: Type.String(),
        }),
      ),
    }),
  },
  {
    $id: 'ErrorEnvelope',
    title: 'ErrorEnvelope',
    description: 'The body of every error, in both generations',
    examples: [
      {
        success: false,
        message: 'Agent 42 not found',
        error: { code: 'not_found', request_id: '0b6f1c9e-5d1a-4f0e-9a53-6f0c2a7d8e11', details: [] },
      },
      {
        success: false,
        message: 'The request is invalid',
        error: { code: 'bad_request', request_id: '7c1d2e3f-4a5b-4c6d-8e9f-0a1b2c3d4e5f', details: [{ pointer: '/body/name', message: 'must NOT have fewer than 1 characters' }] },
      },
    ],
  },
);

/**
 * Names a resource schema: the OpenAPI document lists it as components.schemas.<title>, with its
 * example, and refers to it wherever it is used (client generators turn it into a named type).
 * Documentation only: validation and serialisation ignore both keywords.
 */
export function named<T extends TSchema>(title: string, schema: T, example?: Static<T>): T {
  return Object.assign(schema, { title }, example === undefined ? {} : { examples: [example] });
}

/**
 * Examples of a request body, typed by its schema so that they cannot drift from it. @fastify/swagger
 * moves them to the body's media type in the OpenAPI document (example, or examples when several),
 * where test/request-examples.test.ts validates each. Documentation only: validation ignores them.
 */
export function withExamples<T extends TSchema>(schema: T, ...examples: [Static<T>, ...Static<T>[]]): T {
  return Object.assign(schema, { examples });
}

/** A request media type besides JSON, for x-document (multipart/form-data, text/csv): its schema with an example, typed by it. */
export function mediaWithExample<T extends TSchema>(schema: T, example: Static<T>, more: { encoding?: object } = {}) {
  return { schema, example, ...more };
}

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'Malformed request: bad JSON, a schema violation (one detail per problem) or a bad parameter',
  401: 'No credentials, or credentials that are invalid, expired or revoked',
  403: 'The caller may see the resource but may not do this (forbidden), or the feature is turned off for the organization (feature_disabled)',
  404: 'No such record, or one the caller may not see',
  409: 'Conflicts with an existing record',
  412: 'If-Match does not hold the current version',
  413: 'Body or upload over the configured limit',
  415: 'A file type that cannot be processed',
  429: 'Too many requests for this credential; see Retry-After',
  500: 'A fault of the server; the request id finds it in the log',
  502: 'A model, tool or connector answered with an error (upstream_error); the message says which, never its secrets',
  503: 'The database or another dependency is unavailable; see Retry-After',
  504: 'A model, tool or connector did not answer in time (upstream_timeout)',
};

function errorResponse(status: number): TSchema {
  return Type.Ref(ErrorEnvelope, { description: ERROR_DESCRIPTIONS[status] });
}

/** An error answer as an OpenAPI response object, for routes whose schema does not list it (x-document). */
export function errorResponseDocument(status: number) {
  return { description: ERROR_DESCRIPTIONS[status]!, content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorEnvelope' } } } };
}

/**
 * Every status a route under /api/ may answer besides its own: bad input, credentials, a body over
 * the limit, too many requests, faults.
 */
const COMMON_ERRORS = [400, 401, 413, 429, 500, 503];
const PUBLIC_ERRORS = [400, 413, 429, 500, 503];

/** The response map of a route: its success schemas plus an error envelope for each status it names. */
export function responses(
  success: Record<number, TSchema>,
  errors: number[] = [],
  options: { public?: boolean } = {},
): Record<number, TSchema> {
  const statuses = new Set([...(options.public ? PUBLIC_ERRORS : COMMON_ERRORS), ...errors]);
  const result: Record<number, TSchema> = { ...success };
  for (const status of [...statuses].sort()) result[status] = errorResponse(status);
  return result;
}

/** The latest generation's success body; named <Data>Envelope when its data is named. */
export function Envelope<T extends TSchema>(data: T, description?: string) {
  return Type.Object(
    { success: Type.Literal(true), message: Type.String(), data },
    { ...(data.title === undefined ? {} : { title: `${data.title}Envelope` }), ...(description === undefined ? {} : { description }) },
  );
}

export const Id = (description: string) => Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER, description });

export const Timestamp = (description: string) => Type.String({ format: 'date-time', description });

export const NullableTimestamp = (description: string) => Type.Union([Timestamp(description), Type.Null()]);

/** When a resource was created and last changed, and by whom (as e-mails). */
export function AuditFields(noun: string) {
  return {
    created_on: Timestamp(`When the ${noun} was created`),
    created_by: Type.String({ description: `E-mail of who created the ${noun}` }),
    modified_on: Timestamp(`When the ${noun} last changed`),
    modified_by: Type.String({ description: `E-mail of who last changed the ${noun}` }),
  };
}

/** Path parameters: each named identifier a positive integer. */
export function IdParams<K extends string>(...names: K[]): TObject<Record<K, ReturnType<typeof Id>>> {
  const properties = Object.fromEntries(names.map((name) => [name, Id(`Identifier of the ${name.replace(/_id$/, '').replace(/_/g, ' ')}`)]));
  return Type.Object(properties as Record<K, ReturnType<typeof Id>>);
}

/** Query parameters of a paginated list, plus the list's own filters. */
export function PageQuery<P extends TProperties>(pageSizeMax: number, filters: P) {
  return Type.Object({
    page: Type.Integer({ minimum: 1, maximum: 1_000_000, default: 1, description: 'Page number, from 1' }),
    page_size: Type.Integer({ minimum: 1, maximum: pageSizeMax, default: 20, description: `Items a page, at most ${pageSizeMax}` }),
    ...filters,
  });
}

/** A whole (unpaginated) list in the latest generation; named <Item>List when its item is named. */
export function List<T extends TSchema>(item: T) {
  return Type.Object({ items: Type.Array(item) }, item.title === undefined ? {} : { title: `${item.title}List` });
}

/** What a deletion answers: the identifier of what was deleted. */
export const Deleted = named('Deleted', Type.Object({ id: Type.Integer({ description: 'Identifier of what was deleted' }) }), { id: 7 });

/** A page of a list in the latest generation; named <Item>Page when its item is named. */
export function Page<T extends TSchema>(item: T) {
  return Type.Object(
    {
      items: Type.Array(item),
      page: Type.Integer(),
      page_size: Type.Integer(),
      total: Type.Integer({ description: 'Items across all pages' }),
    },
    item.title === undefined ? {} : { title: `${item.title}Page` },
  );
}


export function ok<T>(message: string, data: T): { success: true; message: string; data: T } {
  return { success: true, message, data };
}

/** The same envelope around data already written as JSON (a listing the database wrote), as its text. */
export function okJson(message: string, dataJson: string): string {
  return `{"success":true,"message":${JSON.stringify(message)},"data":${dataJson}}`;
}
