// RESPONSE_SCHEMA_CHECK=true: every answer of a route is checked against the response its route
// documents for its status (its schema, and the media types of x-document), and one that does not
// match fails loudly: a 500 in its place and the reason on standard error. The schema is the
// documented contract (the OpenAPI document is made from it), while the serialiser only copies what it names and coerces the rest, and the listings'
// fast paths send JSON the database wrote (src/db/json-projection.ts) past it: only a check of what
// is actually sent sees a drift. The test suite runs with it on; it costs a validation of every body
// (and keeps a copy of a streamed one until it ends), so production leaves it off.
import { Readable, Transform } from 'node:stream';
import type { Ajv, ValidateFunction } from 'ajv';
import type { FastifyInstance, FastifyReply, FastifyRequest, FastifySchema, onSendAsyncHookHandler, preSerializationAsyncHookHandler } from 'fastify';
import { ajvWithFormats } from './validation.js';

/** What an answer broke: the route, the status and each problem, for a person to read. */
export class ResponseSchemaViolation extends Error {
  constructor(request: FastifyRequest, status: number, problems: string[], body: string) {
    super(
      `${request.method} ${request.url} answered ${status} in a way its documented responses do not allow:\n` +
        problems.map((problem) => `  ${problem}\n`).join('') +
        `  body: ${body.length > 2000 ? `${body.slice(0, 2000)}…` : body}`,
    );
    this.name = 'ResponseSchemaViolation';
  }
}

const isJson = (mediaType: string) => /^application\/([\w.+-]*\+)?json$/.test(mediaType);

/** "text/csv; charset=utf-8" → "text/csv". */
const essence = (contentType: string) => contentType.split(';')[0]!.trim().toLowerCase();

type Content = Record<string, { schema?: object }>;

const mediaOf = (content: Content) => new Map(Object.entries(content).map(([type, media]) => [essence(type), media.schema]));

/**
 * The media types a route documents for a status, each with its schema, as the OpenAPI document
 * has them (openapi.ts finishOperation): x-document's responseContent, else the content of its
 * responses, else the route's response schema as JSON. undefined: the status is not documented.
 */
function documentedMedia(schema: FastifySchema | undefined, status: number): Map<string, object | undefined> | undefined {
  const extra = schema?.['x-document'];
  const content = extra?.responseContent?.[status] ?? (extra?.responses?.[status] as { content?: Content } | undefined)?.content;
  if (content) return mediaOf(content);
  const responses = schema?.response as Record<string, object> | undefined;
  const declared = responses?.[String(status)] ?? responses?.[`${String(status)[0]}xx`] ?? responses?.default;
  // A response schema may itself list its media types (Fastify and @fastify/swagger read `content`).
  const declaredContent = (declared as { content?: Content } | undefined)?.content;
  if (declaredContent) return mediaOf(declaredContent);
  if (declared) return new Map([['application/json', declared]]);
  return extra?.responses?.[status] ? new Map() : undefined;
}

const asList = <T>(hooks: T | T[] | undefined): T[] => (hooks === undefined ? [] : Array.isArray(hooks) ? hooks : [hooks]);

/** The documented shared schemas are referred to as components (errorResponseDocument): here by their ids. */
function withSharedReferences(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withSharedReferences);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, child]) => [key, key === '$ref' && typeof child === 'string' ? child.replace('#/components/schemas/', '') : withSharedReferences(child)]),
  );
}

// One checker for the process, shared by every app it builds (a test file builds several): a
// validator depends on its schema's text and the shared schemas alone, the same in every app.
let checker: Ajv | undefined;
const validators = new Map<string, ValidateFunction>();

export function installResponseSchemaCheck(app: FastifyInstance): void {
  // The same schema object answers every response of its route: its text is read once.
  const ofObject = new WeakMap<object, ValidateFunction>();

  function validatorOf(schema: object): ValidateFunction {
    const known = ofObject.get(schema);
    if (known) return known;
    const key = JSON.stringify(schema);
    let validate = validators.get(key);
    if (!validate) {
      checker ??= ajvWithFormats({ strict: false, allErrors: true });
      for (const [id, shared] of Object.entries(app.getSchemas())) if (!checker.getSchema(id)) checker.addSchema(shared as object, id);
      validate = checker.compile(withSharedReferences(schema) as object);
      validators.set(key, validate);
    }
    ofObject.set(schema, validate);
    return validate;
  }

  /**
   * What is wrong with the answer's status and media type, if anything, and the schema its body is
   * to be checked against (none for a body that is not JSON: event streams, files, CSV).
   */
  function documentedSchema(request: FastifyRequest, reply: FastifyReply, contentType: unknown): { problem?: string; schema?: object } {
    const routeSchema = request.routeOptions.schema;
    // Not a route of ours (Fastify's 404, the console's and the reference page's files).
    if (routeSchema?.response === undefined && routeSchema?.['x-document'] === undefined) return {};
    const media = documentedMedia(routeSchema, reply.statusCode);
    if (media === undefined) return { problem: `the status ${reply.statusCode} is not among the route's documented responses` };
    // A HEAD answer carries the headers of its GET, never a body.
    if (request.method === 'HEAD') return {};
    if (contentType === undefined) return media.size === 0 ? {} : { problem: 'no content type, where the route documents a body' };
    const type = essence(String(contentType));
    if (!media.has(type)) return { problem: `sent ${type}, where the route documents ${[...media.keys()].join(' or ') || 'no body'}` };
    const schema = media.get(type);
    return isJson(type) && schema !== undefined ? { schema } : {};
  }

  function fail(request: FastifyRequest, reply: FastifyReply, problems: string[], text: string): never {
    const violation = new ResponseSchemaViolation(request, reply.statusCode, problems, text);
    process.stderr.write(`${violation.message}\n`);
    throw violation;
  }

  function checkBody(request: FastifyRequest, reply: FastifyReply, schema: object, text: string): void {
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch (error) {
      fail(request, reply, [`not JSON: ${(error as Error).message}`], text);
    }
    const validate = validatorOf(schema);
    if (validate(body)) return;
    fail(request, reply, (validate.errors ?? []).map((issue) => `${issue.instancePath || '/'} ${issue.message ?? issue.keyword} ${JSON.stringify(issue.params)}`), text);
  }

  /**
   * An object about to be serialised: what the serialiser would write, without the coercions it makes
   * to fit the schema (null as "", a number as a string). Errors are left to the check of what is
   * sent: a door may still rewrite the error envelope into its own shape (the OpenAI routes).
   */
  const checkObject: preSerializationAsyncHookHandler = async (request, reply, payload) => {
    if (reply.statusCode >= 400) return payload;
    // The serialiser sets the content type after this hook: JSON unless the route chose another.
    const { problem, schema } = documentedSchema(request, reply, reply.getHeader('content-type') ?? 'application/json');
    const text = JSON.stringify(payload);
    if (problem) fail(request, reply, [problem], text);
    if (schema) checkBody(request, reply, schema, text);
    return payload;
  };

  /** What is sent, once every other hook has had its say. */
  const checkSent: onSendAsyncHookHandler = async (request, reply, payload) => {
    const empty = payload === null || payload === undefined || payload === '';
    const { problem, schema } = documentedSchema(request, reply, empty ? undefined : reply.getHeader('content-type'));
    if (problem) fail(request, reply, [problem], typeof payload === 'string' ? payload : '(not text)');
    if (!schema || empty) return payload;
    if (typeof payload === 'string' || Buffer.isBuffer(payload)) checkBody(request, reply, schema, payload.toString());
    else if (payload instanceof Readable) return checkedStream(request, reply, schema, payload);
    return payload;
  };

  // A route's own hooks run after those of the app and its plugins: these are the last.
  app.addHook('onRoute', (route) => {
    route.preSerialization = [...asList(route.preSerialization), checkObject];
    route.onSend = [...asList(route.onSend), checkSent];
  });

  /** A streamed body passes as it comes; a copy is checked at its end, and a body that fails breaks off the stream. */
  function checkedStream(request: FastifyRequest, reply: FastifyReply, schema: object, body: Readable): Readable {
    const chunks: Buffer[] = [];
    const copy = new Transform({
      transform(chunk: Buffer | string, _encoding, done) {
        const bytes = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk);
        chunks.push(bytes);
        done(null, bytes);
      },
      flush(done) {
        try {
          checkBody(request, reply, schema, Buffer.concat(chunks).toString());
          done();
        } catch (error) {
          done(error as Error);
        }
      },
    });
    body.on('error', (error) => copy.destroy(error));
    return body.pipe(copy);
  }
}
