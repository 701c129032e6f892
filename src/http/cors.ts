// Cross-origin calls from browsers (CORS_ORIGINS): off unless origins are configured. Preflights are
// answered in the onRequest hook, before the rate limit and authentication, as browsers send them
// without credentials. Other origins authenticate with a bearer token, never with the session cookie:
// the cookie is for the console served by this server (same origin). So credentials mode stays off
// (no Access-Control-Allow-Credentials: a browser shows no answer to a request that carried cookies),
// X-CSRF-Token is not an allowed header (a page of another origin cannot send it), and `*` stays safe.
import cors from '@fastify/cors';
import type { FastifyInstance } from 'fastify';

/** Response headers a browser script may read: the request id, versions, totals and back-off. */
export const EXPOSED_HEADERS = ['X-Request-Id', 'ETag', 'X-Total-Count', 'Retry-After'];
const ALLOWED_HEADERS = ['Authorization', 'Content-Type', 'If-Match', 'If-None-Match'];
const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'];
const PREFLIGHT_CACHE_SECONDS = 600;

export async function installCors(app: FastifyInstance, origins: string[]): Promise<void> {
  if (origins.length === 0) return;
  const anyOrigin = origins.includes('*');
  const allowed = new Set(origins);
  await app.register(cors, {
    // A refused origin gets no CORS headers (its preflight a 404): the browser then blocks the call.
    origin: anyOrigin ? '*' : (origin, callback) => callback(null, origin !== undefined && allowed.has(origin)),
    methods: METHODS,
    allowedHeaders: ALLOWED_HEADERS,
    exposedHeaders: EXPOSED_HEADERS,
    // Never true: it would let the allowed origins make the browser use the session cookie.
    credentials: false,
    maxAge: PREFLIGHT_CACHE_SECONDS,
    strictPreflight: true,
  });
}
