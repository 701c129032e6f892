// An OpenAPI 3 or Swagger 2 document for importing API tools: fetched from a URL through the egress
// client or given in the request (a JSON object, or JSON or YAML text), bounded in bytes, YAML
// aliases and operations, then parsed and its $refs resolved by @apidevtools/swagger-parser. The
// parser never reads a file or a URL by itself: references outside the document are left as they
// are (and refused when an imported operation uses one).
// The fetch runs on the event loop; the parse and the dereference (a second for GitHub's 13 MB) run
// in the reading thread (operations-thread.ts), which loads the parser (some 10 MB of modules), as
// does the parse of a preview (no dereference, but some 200 ms of JSON or seconds of YAML).
import { AppError, BadRequest, PayloadTooLarge } from '../../../errors.js';
import type { EgressClient } from '../../../net/egress.js';

/** How large a document may be: the settings LIMIT_TOOL_IMPORT_BYTES and LIMIT_TOOL_IMPORT_OPERATIONS. */
export interface DocumentLimits {
  /** Most bytes of a document's text (fetched or given). */
  bytes: number;
  /** Most operations a document may describe. */
  operations: number;
  /** How long resolving the $refs may take (5 s unless given). */
  dereferenceTimeoutMs?: number;
}
/** Most YAML aliases (`*name`) resolved: a few expand a small text into billions of nodes. */
const MAX_YAML_ALIASES = 100;
/** How long resolving the $refs may take while a request waits; a job gives more (`dereferenceTimeoutMs`). */
const DEREFERENCE_TIMEOUT_MS = 5_000;
/** Deepest nesting of a document: real ones stay far below; the parser and the schema copies recurse. */
export const MAX_DOCUMENT_DEPTH = 128;

export type OpenApiDocument = Record<string, any>;

export interface DocumentSource {
  url?: string | undefined;
  document?: unknown;
}

async function parseText(text: string, maxBytes: number): Promise<unknown> {
  if (Buffer.byteLength(text) > maxBytes) throw new PayloadTooLarge(`The document is larger than ${maxBytes} bytes`);
  if (/^\s*[{[]/.test(text)) {
    try {
      return JSON.parse(text);
    } catch {
      // YAML is a superset of JSON: its parser says where the text goes wrong.
    }
  }
  const { parse: parseYaml } = await import('yaml');
  try {
    return parseYaml(text, { maxAliasCount: MAX_YAML_ALIASES });
  } catch (error) {
    const message = (error as Error).message.split('\n')[0];
    throw new BadRequest(`The document is neither JSON nor YAML: ${message}`, [{ pointer: '/body/openapi', message: message ?? 'cannot be parsed' }]);
  }
}

/** The document's text at its URL (UTF-8 bytes), through the egress client (its address rules), at most `maxBytes`. */
export async function fetchDocument(egress: EgressClient, url: string, timeoutMs: number, maxBytes: number): Promise<Buffer> {
  const response = await egress.request(url, {
    headers: { accept: 'application/json, application/yaml;q=0.9, text/yaml;q=0.9, */*;q=0.1' },
    maxBytes,
    timeoutMs,
  });
  if (response.status >= 400) throw new BadRequest(`The document URL answered HTTP ${response.status}`, [{ pointer: '/body/openapi/url', message: `answered HTTP ${response.status}` }]);
  return response.body;
}

/** Whether objects and arrays nest deeper than the limit (walked without recursion). */
function nestsDeeperThan(value: unknown, limit: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [item, depth] = stack.pop()!;
    if (item === null || typeof item !== 'object') continue;
    if (depth >= limit) return true;
    for (const child of Object.values(item)) if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
  }
  return false;
}

function countOperations(document: OpenApiDocument): number {
  let count = 0;
  for (const item of Object.values(document.paths ?? {})) {
    if (item !== null && typeof item === 'object') count += Object.keys(item).filter((key) => HTTP_KEYS.has(key)).length;
  }
  return count;
}

export const HTTP_KEYS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);

/** Exactly one of url and document, else a 400 on `at`. */
export function requireOneSource(source: DocumentSource, at: string): void {
  if ((source.url === undefined) === (source.document === undefined)) {
    throw new BadRequest(`Give the OpenAPI document either as ${at.slice(6).replace(/\//g, '.')}.url or as ${at.slice(6).replace(/\//g, '.')}.document`, [{ pointer: at, message: 'needs exactly one of url and document' }]);
  }
}

/** The parsed document checked to be OpenAPI 3 or Swagger 2 with paths, within the bounds. */
function checkedDocument(raw: unknown, limits: DocumentLimits): OpenApiDocument {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) throw new BadRequest('The OpenAPI document is not an object');
  if (nestsDeeperThan(raw, MAX_DOCUMENT_DEPTH)) throw new BadRequest(`The OpenAPI document nests deeper than ${MAX_DOCUMENT_DEPTH} levels`);
  const version = (raw as OpenApiDocument).openapi ?? (raw as OpenApiDocument).swagger;
  if (typeof version !== 'string' || !/^(3\.[01]\.\d+|2\.0)$/.test(version)) {
    throw new BadRequest('The document is not OpenAPI 3.0, 3.1 or Swagger 2.0 (no "openapi": "3.x.y" or "swagger": "2.0")');
  }
  if ((raw as OpenApiDocument).paths === null || typeof (raw as OpenApiDocument).paths !== 'object') throw new BadRequest('The OpenAPI document has no paths');
  const operations = countOperations(raw as OpenApiDocument);
  if (operations > limits.operations) throw new PayloadTooLarge(`The document describes ${operations} operations; at most ${limits.operations} can be imported from`);
  return raw as OpenApiDocument;
}

/**
 * The document given (its text, or the object a request body held), bounded, parsed and checked to
 * be OpenAPI 3 or Swagger 2 with paths, its $refs left as they are: enough to list its operations (a
 * preview), not to import them. Synchronous work that grows with the document: run in a thread.
 */
export async function readOpenApiDocument(source: { text?: string; document?: unknown }, limits: DocumentLimits): Promise<OpenApiDocument> {
  return checkedDocument(source.text !== undefined ? await parseText(source.text, limits.bytes) : source.document, limits);
}

/**
 * The document given (its text, or the object a request body held), bounded, parsed and its $refs
 * resolved. Synchronous work of up to a second or more on a large document: run in a thread.
 */
export async function parseOpenApiDocument(source: { text?: string; document?: unknown }, limits: DocumentLimits): Promise<OpenApiDocument> {
  const raw = await readOpenApiDocument(source, limits);
  try {
    const options = { resolve: { external: false, file: false, http: false }, timeoutMs: limits.dereferenceTimeoutMs ?? DEREFERENCE_TIMEOUT_MS };
    const { default: SwaggerParser } = await import('@apidevtools/swagger-parser');
    return (await SwaggerParser.dereference(raw as never, options as never)) as unknown as OpenApiDocument;
  } catch (error) {
    if (error instanceof AppError) throw error;
    const message = error instanceof RangeError ? 'it is nested too deeply' : (error as Error).message.split('\n')[0];
    throw new BadRequest(`The OpenAPI document cannot be read: ${message}`);
  }
}
