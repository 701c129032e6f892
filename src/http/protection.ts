// What guards every request before a handler runs: security headers, the request id, the rate
// limit per credential, and authentication. Order matters: the rate limit comes before the
// credential is looked up, so that a flood of bad tokens costs no more than a flood of good ones.
import { createHash } from 'node:crypto';
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest, onRequestHookHandler } from 'fastify';
import type { Config } from '../config.js';
import { AppError } from '../errors.js';
import { CONTENT_SECURITY_POLICY } from './content-security-policy.js';
import type { AuthService } from '../modules/auth/auth.service.js';
import { bearerOfToken, readBearer } from '../modules/auth/bearer.js';
import { readRequestCredential, type RequestCredential } from '../modules/auth/request-credential.js';
import { sessionCookieToken } from '../modules/auth/session-cookie.js';
import { hashToken } from '../modules/auth/tokens.js';
import { openRateLimitStore } from './rate-limit-store.js';
import { routeHooks } from './route-hooks.js';

/** Routes served by plugins that cannot carry our route config, and are public by design. */
const PUBLIC_PLUGIN_PREFIXES = ['/docs'];

/**
 * One bucket per credential; requests without one share their address's bucket. The session cookie
 * is its token: the same bucket as that token sent as Bearer (an Authorization header wins, as in
 * authentication). A Cookie header with several session cookies names no one credential: the address.
 */
function rateLimitKey(request: FastifyRequest): string {
  const authorization = request.headers.authorization;
  if (authorization) {
    // A malformed header is a bucket of its own, as any other credential.
    const hash = readBearer(authorization)?.hash ?? createHash('sha256').update(authorization).digest('hex');
    return `credential:${hash}`;
  }
  // An empty Authorization header is no credential, yet it keeps the cookie out, as in authentication.
  const cookieToken = authorization === undefined ? sessionCookieToken(request.headers.cookie) : undefined;
  if (cookieToken !== undefined) return `credential:${bearerOfToken(cookieToken)?.hash ?? hashToken(cookieToken)}`;
  return `address:${request.ip}`;
}

/**
 * The security headers of every answer, declared here once: they do not depend on the request, so
 * they are set as one precomputed object (building them per request, as the Fastify plugin does,
 * costs more than the rest of a small GET). They are the ones helmet sets by default, but for the
 * Content-Security-Policy, which is ours (content-security-policy.ts), and Strict-Transport-Security,
 * which belongs to the proxy that serves HTTPS: sent from here it would pin the name to HTTPS for a
 * year, on a deployment that may serve plain HTTP.
 */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  // A page of the server opened by another site's window gets no handle on it, nor it on the page.
  'cross-origin-opener-policy': 'same-origin',
  // The API is called from other origins by design (browsers' fetch with a bearer token).
  'cross-origin-resource-policy': 'cross-origin',
  // Asks the browser to keep the origin in a process of its own.
  'origin-agent-cluster': '?1',
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
  'x-dns-prefetch-control': 'off',
  // Old Internet Explorer: a download is saved, never opened in the site's context.
  'x-download-options': 'noopen',
  // For browsers without frame-ancestors (the policy says 'none').
  'x-frame-options': 'SAMEORIGIN',
  'x-permitted-cross-domain-policies': 'none',
  // The old XSS auditors did more harm than good: off.
  'x-xss-protection': '0',
  'content-security-policy': CONTENT_SECURITY_POLICY,
});

export async function installProtection(app: FastifyInstance, config: Config, auth: AuthService): Promise<void> {
  // Hooks of every request take a callback rather than returning a promise: one promise less each.
  app.addHook('onRequest', (request, reply, done) => {
    reply.headers(SECURITY_HEADERS).header('x-request-id', request.id);
    done();
  });

  // Counted where every process of the deployment sees the same numbers (see rate-limit-store.ts);
  // the login limits of auth.routes.ts are counted in the same store.
  const store = await openRateLimitStore(config.rateLimitStore, app.database, app.log);
  app.addHook('onClose', () => store.close());
  app.log.debug(`Rate limits are counted in ${store.description}`);
  await app.register(rateLimit, {
    ...store.options,
    max: config.limits.requestsPerMinute,
    timeWindow: 60_000,
    keyGenerator: rateLimitKey,
    errorResponseBuilder: (_request, context) =>
      new AppError(429, 'rate_limited', `Rate limit of ${context.max} requests a minute exceeded; retry in ${Math.ceil(context.ttl / 1000)} s`, [], {
        'retry-after': String(Math.ceil(context.ttl / 1000)),
      }),
  });

  // Every route requires a credential unless it declares config.public. Added per route (after
  // the rate limit's own hook) rather than globally, so that unknown URLs answer 404, not 401.
  // The credential is the Authorization header, else the session cookie (request-credential.ts).
  // A callback: a caller cached under the current epoch is known at once (authenticateRequestNow), with
  // no promise; anything else (a first use, a refusal, a transaction open on SQLite, PostgreSQL) awaits.
  const authenticate: onRequestHookHandler = (request, _reply, done) => {
    let credential: RequestCredential;
    try {
      credential = readRequestCredential(request.headers, request.method);
    } catch (error) {
      return done(error as Error);
    }
    const known = auth.authenticateRequestNow(credential);
    if (known !== undefined) {
      request.actor = known;
      return done();
    }
    auth.authenticateRequest(credential).then((actor) => {
      request.actor = actor;
      done();
    }, done);
  };
  app.addHook('onRoute', (route) => {
    const isPublic = route.config?.public === true || PUBLIC_PLUGIN_PREFIXES.some((prefix) => route.url.startsWith(prefix));
    if (isPublic) return;
    route.onRequest = [...routeHooks(route.onRequest), authenticate];
  });
}
