// What a request authenticates with, read once from its headers: the Authorization header, which
// always wins (and then no cookie is looked at), else the session cookie, with what a state-changing
// request made with the cookie must also carry (the CSRF header and cookie). AuthService decides
// what the credential is worth (authenticateRequest).
import type { IncomingHttpHeaders } from 'node:http';
import { BadRequest } from '../../errors.js';
import { bearerOfToken, readBearer, type Bearer } from './bearer.js';
import { CSRF_HEADER, SESSION_COOKIE, readSessionCookies } from './session-cookie.js';

/** Methods that change nothing (RFC 9110 §9.2.1): made with the cookie, they need no CSRF header. */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** What a state-changing request made with the session cookie sent to prove it comes from the site. */
export interface CsrfEvidence {
  /** X-CSRF-Token; undefined when absent (or sent as several headers). */
  header: string | undefined;
  /** The values of the ap_csrf cookie sent. */
  cookies: string[];
}

export type RequestCredential =
  | { via: 'none' }
  /** `bearer` undefined: the header is not "Bearer <token>". */
  | { via: 'authorization'; bearer: Bearer | undefined }
  /** `bearer` undefined: the cookie is not of a token's form. `csrf` undefined: a safe method, none needed. */
  | { via: 'cookie'; bearer: Bearer | undefined; csrf: CsrfEvidence | undefined };

/** The request's credential; a 400 when the Cookie header carries two different session cookies. */
export function readRequestCredential(headers: IncomingHttpHeaders, method: string): RequestCredential {
  const authorization = headers.authorization;
  if (authorization !== undefined) return { via: 'authorization', bearer: readBearer(authorization) };
  const cookies = readSessionCookies(headers.cookie);
  if (cookies.sessions.length === 0) return { via: 'none' };
  if (cookies.sessions.length > 1) {
    // Which one the user logged in with cannot be told; guessing could act as someone else.
    throw new BadRequest(`The Cookie header carries ${SESSION_COOKIE} more than once with different values; clear this site's cookies and log in again`, [
      { pointer: '/headers/cookie', message: `has ${SESSION_COOKIE} more than once` },
    ]);
  }
  const header = headers[CSRF_HEADER];
  return {
    via: 'cookie',
    bearer: bearerOfToken(cookies.sessions[0]!),
    csrf: SAFE_METHODS.has(method) ? undefined : { header: typeof header === 'string' ? header : undefined, cookies: cookies.csrfs },
  };
}

/** Whether the request would be authenticated by its session cookie (it has no Authorization header). */
export function usesSessionCookie(headers: IncomingHttpHeaders): boolean {
  return headers.authorization === undefined && readSessionCookies(headers.cookie).sessions.length > 0;
}
