// From an API tool's settings and the model's arguments to the HTTP request to send, and the same
// request as people are shown it (secrets masked). Values are encoded for their place: path
// segments percent-encoded (and refused when they would be a `.` or `..` segment that climbs the
// tool's path), query values repeated for arrays, headers refused when they hold line breaks, cookies
// percent-encoded, the body as JSON. The secret is attached only once the URL is known to go where
// the tool's template fixes it.
import type { SentRequest } from '../tool.js';
import type { ApiAuth, ApiToolConfig } from './config.js';
import { BODY_PLACEHOLDER, placementsOf } from './placements.js';
import { secretForms, withoutSecret } from './secret-forms.js';
import { destinationOf, fillUrlTemplate, fixedDestinationOf, URL_PLACEHOLDER } from './url-template.js';

/** The arguments cannot make a request (a path parameter missing, a header value with a line break). */
export class ToolInputError extends Error {}

export interface BuiltRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: string | null;
}

export const MASK = '****';

/** A value as text in a URL, header or cookie: objects as JSON, null as empty. */
function asText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

function headerValue(name: string, value: unknown): string {
  const text = Array.isArray(value) ? value.map(asText).join(',') : asText(value);
  if (/[\0\r\n]/.test(text)) throw new ToolInputError(`The value of header ${name} holds a line break or a NUL character`);
  return text;
}

/** The body template with its placeholders replaced; a whole-string placeholder of an absent parameter is left out. */
function fillTemplate(template: unknown, args: Record<string, unknown>): unknown {
  const ABSENT = Symbol('absent');
  const fill = (value: unknown): unknown => {
    if (typeof value === 'string') {
      const whole = /^\{\{\s*([^{}\s]+)\s*\}\}$/.exec(value);
      if (whole) return args[whole[1]!] === undefined ? ABSENT : args[whole[1]!];
      return value.replace(BODY_PLACEHOLDER, (_match, name: string) => asText(args[name]));
    }
    if (Array.isArray(value)) return value.map(fill).map((item) => (item === ABSENT ? null : item));
    if (value !== null && typeof value === 'object') {
      const filled: Record<string, unknown> = {};
      for (const [key, item] of Object.entries(value)) {
        const result = fill(item);
        if (result !== ABSENT) filled[key] = result;
      }
      return filled;
    }
    return value;
  };
  const result = fill(template);
  return result === ABSENT ? null : result;
}

function applyAuth(auth: ApiAuth, secret: string | null, url: URL, headers: Record<string, string>): void {
  if (auth.type === 'none') return;
  if (secret === null) throw new ToolInputError('The tool has no secret set for its authentication: an owner or admin must set one');
  if (auth.type === 'bearer') headers.authorization = `Bearer ${secret}`;
  else if (auth.type === 'basic') headers.authorization = `Basic ${Buffer.from(`${auth.username}:${secret}`).toString('base64')}`;
  else if (auth.in === 'header') headers[auth.name.toLowerCase()] = secret;
  else url.searchParams.set(auth.name, secret);
}

/** Whether a path segment is `.` or `..`, also percent-encoded, once or more (a service may decode it again). */
function isDotSegment(segment: string): boolean {
  let text = segment;
  for (let round = 0; round < 5; round++) {
    if (text === '.' || text === '..') return true;
    let decoded: string;
    try {
      decoded = decodeURIComponent(text);
    } catch {
      return false;
    }
    if (decoded === text) return false;
    text = decoded;
  }
  return true;
}

/**
 * The URL with its placeholders filled, refused when a value would make a segment that climbs (`..`)
 * or when the template lets the values choose the destination (a tool saved before the rule).
 */
function filledUrl(template: string, pathValues: Map<string, string>): URL {
  const destination = fixedDestinationOf(template);
  if (destination === undefined) throw new ToolInputError('The tool’s URL has a placeholder in its scheme, host or port: an owner or admin must correct it');
  // Placeholders never span a slash, so each segment of the template is filled on its own.
  const segments = template.split('/').map((segment) => {
    const names = [...segment.matchAll(URL_PLACEHOLDER)].map((match) => match[1]!);
    const filled = fillUrlTemplate(segment, (name) => {
      const value = pathValues.get(name);
      if (value === undefined) throw new ToolInputError(`The path parameter ${name} is missing`);
      return value;
    });
    if (names.length > 0 && isDotSegment(filled)) {
      throw new ToolInputError(`The path parameter ${names.join(' and ')} cannot make a "." or ".." path segment (also percent-encoded): it would leave the tool’s path`);
    }
    return filled;
  });
  const url = new URL(segments.join('/'));
  if (destinationOf(url) !== destination) throw new ToolInputError('The path parameters would change where the request goes');
  return url;
}

/** The request for these (already validated) arguments. Throws ToolInputError when they cannot make one. */
export function buildApiRequest(config: ApiToolConfig, args: Record<string, unknown>, secret: string | null): BuiltRequest {
  const placements = placementsOf(config);
  const pathValues = new Map<string, string>();
  const query: [string, string][] = [];
  const cookies: string[] = [];
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(config.headers ?? {})) headers[name.toLowerCase()] = headerValue(name, value);
  const bodyFields: Record<string, unknown> = {};
  let bodyFieldCount = 0;

  for (const [parameter, placement] of placements) {
    const value = args[parameter];
    if (value === undefined) continue;
    switch (placement.in) {
      case 'path':
        pathValues.set(placement.name, encodeURIComponent(Array.isArray(value) ? value.map(asText).join(',') : asText(value)));
        break;
      case 'query':
        for (const item of Array.isArray(value) ? value : [value]) query.push([placement.name, asText(item)]);
        break;
      case 'header':
        headers[placement.name.toLowerCase()] = headerValue(placement.name, value);
        break;
      case 'cookie':
        cookies.push(`${placement.name}=${encodeURIComponent(asText(value))}`);
        break;
      case 'body':
        bodyFields[placement.name] = value;
        bodyFieldCount++;
        break;
    }
  }

  const url = filledUrl(config.url, pathValues);
  for (const [name, value] of query) url.searchParams.append(name, value);
  if (cookies.length > 0) headers.cookie = [headers.cookie, ...cookies].filter(Boolean).join('; ');
  applyAuth(config.auth ?? { type: 'none' }, secret, url, headers);

  let body: string | null = null;
  if (config.body !== undefined) body = JSON.stringify(fillTemplate(config.body, args));
  else if (bodyFieldCount > 0) body = JSON.stringify(bodyFields);
  if (body !== null) headers['content-type'] ??= 'application/json';
  return { method: config.method, url: url.href, headers, body };
}

/** Header names whose values are credentials whatever the tool's auth says. */
const SECRET_HEADER = /authorization|api[-_]?key|token|secret|password|session/i;

/** The request as shown to people: the secret and credential-like headers replaced by a mask. */
export function maskRequest(request: BuiltRequest, config: ApiToolConfig, secret: string | null): SentRequest {
  const forms = secretForms(config.auth ?? { type: 'none' }, secret);
  const hide = (text: string): string => withoutSecret(text, forms, MASK);
  const auth = config.auth ?? { type: 'none' };
  const url = new URL(request.url);
  if (auth.type === 'api_key' && auth.in === 'query' && url.searchParams.has(auth.name)) url.searchParams.set(auth.name, MASK);
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    if (name === 'authorization' && (auth.type === 'bearer' || auth.type === 'basic')) headers[name] = `${auth.type === 'bearer' ? 'Bearer' : 'Basic'} ${MASK}`;
    else if (SECRET_HEADER.test(name) || (auth.type === 'api_key' && auth.in === 'header' && name === auth.name.toLowerCase())) headers[name] = MASK;
    else headers[name] = hide(value);
  }
  return { method: request.method, url: hide(url.href), headers, body: request.body === null ? null : hide(request.body) };
}
