// The OpenAPI 3.1 document is generated from the route schemas, so it cannot drift from the code;
// /openapi.json serves it and /docs renders it. The document is then finished for client generators
// (finishDocument): schemas with a title become named components, every response is described and lists its headers,
// parameters with a default are optional, and what a route schema cannot say for validation (a
// multipart body beside JSON, a binary or event-stream answer) comes from the route's `x-document`.
import { isDeepStrictEqual } from 'node:util';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { SERVER_VERSION } from '../version.js';
import { describeResponse, UNDESCRIBED } from './response-descriptions.js';
import { errorResponseDocument } from './schemas.js';

export const API_TAGS = [
  { name: 'auth', description: 'Logging in, sessions and API keys' },
  { name: 'users', description: 'Users of the organization' },
  { name: 'organizations', description: 'The organization: settings, users, logo, configurations, model deployment' },
  { name: 'teams', description: 'Teams and teammates with their roles' },
  { name: 'projects', description: 'Projects, their teams and members' },
  { name: 'agents', description: 'Agents, their history and checkpoints' },
  { name: 'corpora', description: 'Corpora, their documents, processing, retrieval and events' },
  { name: 'connectors', description: 'Document-library connectors: SharePoint and OneDrive libraries synced into corpora through Microsoft Graph' },
  { name: 'email-indexing', description: 'Mailboxes (Microsoft 365, Gmail) linked to corpora through OAuth 2, their messages and attachments synced as documents' },
  { name: 'llm', description: 'LLM configurations: the models agents answer with' },
  { name: 'chat', description: 'Asking agents, chat threads, responses, feedback and chat logs' },
  { name: 'evaluations', description: 'Datasets of queries, metrics, and evaluations of agents’ checkpoints: progress, summaries, results and comparisons' },
  { name: 'analytics', description: 'Figures over time: queries, tokens, cost, votes, documents, the most active; by organization, agent, corpus, project, team or user' },
  { name: 'openai', description: "OpenAI-compatible access to agents: any OpenAI client with base_url …/api/v2/openai; errors in OpenAI's shape" },
  { name: 'a2a', description: 'Agent-to-agent (A2A): each agent’s card and its JSON-RPC endpoint, behind the a2a feature flag' },
  { name: 'notifications', description: "The caller's notifications" },
  { name: 'flags', description: 'Feature flags of the organization' },
  { name: 'legacy', description: 'The legacy generation: bare JSON bodies and arrays, trailing slash' },
  { name: 'service', description: 'Health, readiness, version and this document' },
];

/** Response headers, declared once as components and referenced by name. */
const HEADERS = {
  'X-Request-Id': { description: 'Identifier of the request, also in the error envelope and the server log', schema: { type: 'string', format: 'uuid' } },
  'Retry-After': { description: 'Seconds to wait before trying again', schema: { type: 'integer', minimum: 0 } },
  ETag: {
    description:
      'Names the answer; send it back in If-None-Match for a 304 while it is still the answer (docs/api.md, "Conditional requests"). ' +
      'An agent\'s begins with its version ("3-…"), and If-Match on update takes it or the bare version ("3"), as the answers of writes give it',
    schema: { type: 'string', examples: ['"3-kW1tq8vXh0YdI6Zb2aZ9n3Xo5qA"', '"3"'] },
  },
  'X-Total-Count': { description: 'Items in the whole list, whatever limit and offset returned', schema: { type: 'integer', minimum: 0 } },
  'Cache-Control': { description: 'How a client may keep the body, e.g. private, no-cache (keep it, and ask with If-None-Match before using it)', schema: { type: 'string' } },
} as const;
export type ResponseHeaderName = keyof typeof HEADERS;

/** The request header of a conditional read, for the GETs whose route schema does not declare it. */
const IF_NONE_MATCH = {
  in: 'header',
  name: 'if-none-match',
  required: false,
  description: 'ETags of answers held (or *); 304 with no body while one of them names the answer as it would be given now',
  schema: { type: 'string' },
};

/** How a caller authenticates: a bearer token, or the browser session's cookie (docs/api.md, "The browser session"). */
const SECURITY_SCHEMES = {
  bearer: { type: 'http', scheme: 'bearer', description: 'An API key or a session token from /api/v2/auth/login' },
  sessionCookie: {
    type: 'apiKey',
    in: 'cookie',
    name: 'ap_session',
    description:
      'The browser session: set by POST /api/v2/auth/login with "session": "cookie" (HttpOnly, SameSite=Strict), used only when the request ' +
      'has no Authorization header. A state-changing request (any method but GET, HEAD, OPTIONS) made with it must send X-CSRF-Token equal ' +
      'to the ap_csrf cookie set beside it, else 403. POST /api/v2/auth/logout ends it and clears both cookies.',
  },
} as const;

/** Documentation of an operation that is not validation: read by finishDocument, never by Fastify. */
export interface OperationDocument {
  /**
   * Responses the route schema does not list (it lists those Fastify serialises), or what replaces the
   * description and content of one it lists (an event stream): status → response object.
   */
  responses?: Record<number, object>;
  /** Request media types besides JSON (e.g. multipart/form-data), with the schema of their parts. */
  requestContent?: Record<string, object>;
  /** Responses whose body is not JSON: status → media type → media object. */
  responseContent?: Record<number, Record<string, object>>;
  /** Headers a response carries besides X-Request-Id, Retry-After and X-Total-Count, which are added where they apply. */
  responseHeaders?: Record<number, ResponseHeaderName[]>;
}

declare module 'fastify' {
  interface FastifySchema {
    'x-document'?: OperationDocument;
  }
}

export async function installOpenApi(app: FastifyInstance): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Agent Platform API',
        version: SERVER_VERSION,
        description: 'Build agents, feed them documents, chat with them, evaluate them, and roll them back to any checkpoint.',
        license: { name: 'UNLICENSED' },
      },
      // Relative: the document describes the server that serves it, wherever it is deployed.
      servers: [{ url: '/', description: 'The server that serves this document' }],
      tags: API_TAGS,
      components: { securitySchemes: SECURITY_SCHEMES },
      // Either scheme: a request with an Authorization header is authenticated by it alone.
      security: [{ bearer: [] }, { sessionCookie: [] }],
    },
    // The reference page is listed under the path people type, without the plugin's trailing slash.
    transform: ({ schema, url }) => ({ schema, url: url === '/docs/' ? '/docs' : url }),
    transformObject: (documentObject) =>
      'openapiObject' in documentObject ? finishDocument(documentObject.openapiObject as OpenApiDocument) : documentObject.swaggerObject,
    // Shared schemas (added with app.addSchema) become components named by their $id.
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => String(json.$id ?? `schema${i}`) },
  });

  // The reference page is a plugin's route; give it the tag, summary and name the catalogue expects.
  app.addHook('onRoute', (route) => {
    if (route.method === 'GET' && route.url === '/docs') {
      route.schema = {
        ...route.schema,
        hide: false,
        operationId: 'getApiReference',
        tags: ['service'],
        summary: 'Interactive API reference',
        security: [],
        'x-document': {
          responseContent: { 200: { 'text/html': { schema: { type: 'string' } } } },
          responses: { 200: { description: 'The interactive reference page (HTML)' }, 429: errorResponseDocument(429) },
        },
      };
    }
  });
  // No policy of its own: the page and its assets carry the server's (content-security-policy.ts).
  await app.register(swaggerUi, { routePrefix: '/docs' });

  let document: string | undefined;
  app.get(
    '/openapi.json',
    {
      config: { public: true },
      schema: {
        operationId: 'getOpenApiDocument',
        tags: ['service'],
        summary: 'The OpenAPI 3.1 document of every operation',
        security: [],
        'x-document': {
          responseContent: { 200: { 'application/json': { schema: { type: 'object', description: 'An OpenAPI 3.1 document' } } } },
          responses: { 200: { description: 'This document' }, 429: errorResponseDocument(429) },
        },
      },
    },
    async (_request, reply) => {
      document ??= JSON.stringify(app.swagger());
      return reply.type('application/json; charset=utf-8').send(document);
    },
  );
}

type Json = Record<string, any>;
interface OpenApiDocument extends Json {
  paths: Record<string, Record<string, Json>>;
  components: Json;
}

const NAMED = /^[A-Z][A-Za-z0-9]*$/;

/** The generated document, finished for readers and client generators. Pure: the input is not changed. */
export function finishDocument(generated: OpenApiDocument): OpenApiDocument {
  const doc: OpenApiDocument = structuredClone(generated);
  const schemas: Json = (doc.components.schemas ??= {});
  doc.components.headers = { ...HEADERS };
  for (const item of Object.values(doc.paths)) {
    for (const [method, operation] of Object.entries(item)) finishOperation(operation, method, schemas);
  }
  // Components may themselves hold titled schemas (ErrorEnvelope's parts do not, but later ones may).
  for (const [name, schema] of Object.entries(schemas)) schemas[name] = nameSchemas(schema, schemas, true);
  return doc;
}

function finishOperation(operation: Json, method: string, schemas: Json): void {
  const extra: OperationDocument = asSwaggerWritesIt(operation['x-document'] ?? {});
  delete operation['x-document'];

  // A parameter with a default may be left out: the server fills the default in.
  for (const parameter of operation.parameters ?? []) {
    if (parameter.in !== 'path' && parameter.schema?.default !== undefined) parameter.required = false;
  }

  for (const [status, response] of Object.entries(extra.responses ?? {})) operation.responses[status] = { ...operation.responses[status], ...response };
  // A GET that answers 304 reads If-None-Match, whether its route schema declares the header or not.
  const parameters: Json[] = operation.parameters ?? [];
  if (method === 'get' && operation.responses['304'] && !parameters.some((p) => p.in === 'header' && String(p.name).toLowerCase() === 'if-none-match')) {
    operation.parameters = [...parameters, IF_NONE_MATCH];
  }
  if (extra.requestContent) {
    operation.requestBody ??= { required: true, content: {} };
    for (const [type, media] of Object.entries(extra.requestContent)) operation.requestBody.content[type] = media;
  }
  if (operation.requestBody) operation.requestBody.content = nameSchemas(operation.requestBody.content, schemas);

  const isLegacyList = (operation.parameters ?? []).some((p: Json) => p.in === 'query' && p.name === 'limit');
  for (const [status, response] of Object.entries<Json>(operation.responses ?? {})) {
    const content = extra.responseContent?.[Number(status)];
    if (content) response.content = content;
    if (response.content) response.content = nameSchemas(response.content, schemas);
    if (!response.description || response.description === UNDESCRIBED) response.description = describeResponse(operation, method, status, response) ?? UNDESCRIBED;
    const names: ResponseHeaderName[] = ['X-Request-Id', ...(extra.responseHeaders?.[Number(status)] ?? [])];
    if (status === '429' || status === '503') names.push('Retry-After');
    if (isLegacyList && status === '200') names.push('X-Total-Count');
    response.headers = {
      ...response.headers,
      ...Object.fromEntries(names.map((name) => [name, { $ref: `#/components/headers/${name}` }])),
    };
  }
}

/**
 * A schema of x-document as @fastify/swagger writes those of route schemas (const as a one-value enum),
 * so that a named schema used both there and in a route schema is one component, not two that differ.
 */
function asSwaggerWritesIt(value: any): any {
  if (Array.isArray(value)) return value.map(asSwaggerWritesIt);
  if (value === null || typeof value !== 'object') return value;
  const copy: Json = {};
  for (const [key, child] of Object.entries(value)) {
    if (['examples', 'example', 'default', 'enum'].includes(key)) copy[key] = child;
    else if (key === 'const') copy.enum = [child];
    else if (key === 'properties') copy[key] = Object.fromEntries(Object.entries(child as Json).map(([name, schema]) => [name, asSwaggerWritesIt(schema)]));
    else copy[key] = asSwaggerWritesIt(child);
  }
  return copy;
}

/**
 * Every schema with a title of the form `Name` becomes components.schemas.Name and is referenced
 * where it was; two different schemas under one name are a mistake of ours, and fail loudly.
 */
function nameSchemas(value: any, schemas: Json, isComponentRoot = false): any {
  if (Array.isArray(value)) return value.map((item) => nameSchemas(item, schemas));
  if (value === null || typeof value !== 'object') return value;
  const copy: Json = {};
  for (const [key, child] of Object.entries(value)) {
    // Literal values (examples, defaults, enumerations) are data, not schemas.
    copy[key] = ['examples', 'example', 'default', 'enum', 'const'].includes(key) ? child : nameSchemas(child, schemas);
  }
  const title = copy.title;
  if (isComponentRoot || typeof title !== 'string' || !NAMED.test(title)) return copy;
  const { description, ...rest } = copy;
  const existing = schemas[title];
  if (existing === undefined) schemas[title] = copy;
  else if (!isDeepStrictEqual(withoutAnnotations(existing), withoutAnnotations(rest))) throw new Error(`Two different schemas are named ${title} in the OpenAPI document`);
  // @fastify/swagger moves the examples of a body's top schema to its media object: keep them on the component too.
  else if (existing.examples === undefined && rest.examples !== undefined) existing.examples = rest.examples;
  const reference: Json = { $ref: `#/components/schemas/${title}` };
  // A description proper to this use stays beside the reference (OpenAPI 3.1 allows it).
  if (description !== undefined && description !== schemas[title].description) reference.description = description;
  return reference;
}

/** What may differ between two uses of one named schema: its description and whether it carries its examples. */
function withoutAnnotations(schema: Json): Json {
  const { description: _description, examples: _examples, ...rest } = schema;
  return rest;
}
