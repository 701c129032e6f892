// What the egress client does between hops: where a redirect leads and with which method, body and
// headers; and how a failed connection is told to the user.
import type { IncomingMessage } from 'node:http';
import { EgressFailed, EgressRefused, describeUrl } from './egress-errors.js';

export interface OutgoingRequest {
  url: URL;
  method: string;
  headers: Record<string, string>;
  body: string | Uint8Array | undefined;
}

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

// Headers that may follow a redirect to another origin. Everything else (Authorization, Cookie,
// api-key, x-api-key and whatever a provider invents) stays with the origin it was meant for.
const CROSS_ORIGIN_HEADERS = new Set(['accept', 'accept-language', 'user-agent', 'content-type']);

/** The next request when the response is a redirect to follow, else undefined. */
export function redirectTarget(current: OutgoingRequest, response: IncomingMessage): OutgoingRequest | undefined {
  const status = response.statusCode ?? 0;
  const location = response.headers.location;
  if (!REDIRECT_STATUSES.has(status) || location === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(location, current.url);
  } catch {
    throw new EgressFailed('redirects', `${describeUrl(current.url)} answered with a redirect to an invalid URL`);
  }
  // As browsers do: 303 always, and 301/302 after a POST, continue with a GET without the body;
  // 307 and 308 repeat the request as it was.
  const becomesGet = status === 303 ? current.method !== 'HEAD' : (status === 301 || status === 302) && current.method === 'POST';
  const headers = { ...current.headers };
  if (becomesGet) {
    delete headers['content-type'];
    delete headers['content-length'];
  }
  const sameOrigin = url.origin === current.url.origin;
  const kept = sameOrigin ? headers : Object.fromEntries(Object.entries(headers).filter(([name]) => CROSS_ORIGIN_HEADERS.has(name)));
  return { url, method: becomesGet ? 'GET' : current.method, headers: kept, body: becomesGet ? undefined : current.body };
}

const CONNECTION_WORDS: Record<string, string> = {
  ECONNREFUSED: 'the connection was refused',
  ECONNRESET: 'the connection was reset',
  EPIPE: 'the connection was closed',
  ETIMEDOUT: 'the connection timed out',
  EHOSTUNREACH: 'the host cannot be reached',
  ENETUNREACH: 'the network cannot be reached',
  ENOTFOUND: 'the host name does not resolve',
  EAI_AGAIN: 'the host name could not be resolved now',
  HPE_INVALID_CONSTANT: 'the answer is not valid HTTP',
  HPE_HEADER_OVERFLOW: 'the answer headers are too large',
};

/** The error to throw for a failed hop: ours pass through, the rest become an EgressFailed. */
export function connectionFailure(error: unknown, url: URL): Error {
  if (error instanceof EgressRefused || error instanceof EgressFailed) return error;
  const code = (error as NodeJS.ErrnoException).code ?? '';
  const words =
    CONNECTION_WORDS[code] ??
    (code.startsWith('ERR_TLS') || /CERT|SSL/.test(code) ? 'the TLS certificate could not be verified' : 'the connection failed');
  return new EgressFailed('connection', `Could not fetch ${describeUrl(url)}: ${words}`);
}
