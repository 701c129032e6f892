// The credential of a request: the bearer token of its Authorization header, and the token's SHA-256,
// under which the token is stored, looked up, cached and rate-limited. Hashed once per header value
// seen lately (the hash of a token never changes; what it stands for is checked on every request).
import { LRUCache } from 'lru-cache';
import { hashToken } from './tokens.js';

// The scheme name is case-insensitive (RFC 9110 §11.1); the token is matched as sent.
const BEARER = /^Bearer +([A-Za-z0-9_-]{1,200})$/i;
const TOKEN = /^[A-Za-z0-9_-]{1,200}$/;

export interface Bearer {
  token: string;
  hash: string;
}

/**
 * Headers read lately, so that a client's every request does not hash its token again; past 10,000
 * the least recently used go first (a flood of made-up tokens only churns the cache).
 */
const recent = new LRUCache<string, Bearer>({ max: 10_000 });

/** The header's bearer token and its hash; undefined when the header is not "Bearer <token>". */
export function readBearer(authorization: string): Bearer | undefined {
  const known = recent.get(authorization);
  if (known !== undefined) return known;
  const token = BEARER.exec(authorization)?.[1];
  if (token === undefined) return undefined;
  // Frozen: shared by every request that sends the same header.
  const bearer: Bearer = Object.freeze({ token, hash: hashToken(token) });
  recent.set(authorization, bearer);
  return bearer;
}

/**
 * The bearer of a token sent without an Authorization header (the session cookie); undefined when
 * it is not of a token's form. Kept with the headers read lately, under the header that would carry it.
 */
export function bearerOfToken(token: string): Bearer | undefined {
  return TOKEN.test(token) ? readBearer(`Bearer ${token}`) : undefined;
}
