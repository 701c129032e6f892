// The credential of a request: the bearer token of its Authorization header, and the token's SHA-256,
// under which the token is stored, looked up, cached and rate-limited. Hashed once per request.
import { hashToken } from './tokens.js';

// The scheme name is case-insensitive (RFC 9110 §11.1); the token is matched as sent.
const BEARER = /^Bearer +([A-Za-z0-9_-]{1,200})$/i;

export interface Bearer {
  token: string;
  hash: string;
}

/** The header's bearer token and its hash; undefined when the header is not "Bearer <token>". */
export function readBearer(authorization: string): Bearer | undefined {
  const token = BEARER.exec(authorization)?.[1];
  return token === undefined ? undefined : { token, hash: hashToken(token) };
}
