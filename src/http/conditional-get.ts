// Conditional reads (RFC 9110 §8.8.3, §13.1.2): an entity tag for what a GET answers, and the test of
// a request's If-None-Match against it. A route computes its tag from what decides the answer's bytes
// — the versions of the resources read, the query, what the caller may see, the representation — with
// the caller already authorised (a caller who may no longer read gets the 404, never a 304), and
// answers 304 without reading the rows when the tag is one the client holds.
import { createHash } from 'node:crypto';
import { Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * A strong entity tag naming the parts: a hash, so that it reveals none of them (ids, versions, an
 * epoch), and so that parts of another organization or query never give the same tag.
 */
export function entityTag(parts: readonly (string | number | null)[]): string {
  return `"${opaqueHash(parts)}"`;
}

/** The hash of the parts and, after them, the bytes given: 27 characters of base64url. */
function opaqueHash(parts: readonly (string | number | null)[], bytes?: string | Buffer): string {
  const hash = createHash('sha256');
  for (const part of parts) hash.update(`${part === null ? '\u0001' : typeof part === 'number' ? `n${part}` : `s${part}`}\u0000`);
  if (bytes !== undefined) hash.update(bytes);
  return hash.digest('base64url').slice(0, 27);
}

/**
 * An agent's tag: its version, then the hash of the rest (`"3-…"`), so that If-Match, which compares
 * the version alone, takes the tag GET gives as well as the bare version the body carries.
 */
export function versionedEntityTag(version: number, parts: readonly (string | number | null)[]): string {
  return `"${version}-${opaqueHash(parts)}"`;
}

/** One entity tag of a list: weak (`W/"…"`) or strong (`"…"`); its opaque part is printable ASCII or obs-text, no `"`. */
const ENTITY_TAG = /^(?:W\/)?"([\x21\x23-\x7e\x80-\xff]*)"$/;

/**
 * The opaque tags of an If-None-Match value (their weak prefix dropped: the comparison is weak), `*`,
 * or undefined when there is none or it is malformed — a field that cannot be read is ignored, and the
 * request answered as an unconditional one.
 */
export function heldTags(header: string | string[] | undefined): '*' | string[] | undefined {
  const value = Array.isArray(header) ? header.join(',') : header;
  if (value === undefined || value.trim() === '') return undefined;
  if (value.trim() === '*') return '*';
  const tags: string[] = [];
  for (const item of value.split(',')) {
    const trimmed = item.trim();
    if (trimmed === '') continue; // a list may hold empty elements (RFC 9110 §5.6.1)
    const match = ENTITY_TAG.exec(trimmed);
    if (match === null) return undefined;
    tags.push(match[1]!);
  }
  return tags.length === 0 ? undefined : tags;
}

/**
 * Whether a GET with this If-None-Match is answered 304 for the current tag: `*` matches any current
 * representation, a list matches when one of its tags is the current one by weak comparison (the
 * opaque parts equal, W/ or not).
 */
export function notModified(header: string | string[] | undefined, currentTag: string): boolean {
  const held = heldTags(header);
  if (held === undefined) return false;
  if (held === '*') return true;
  const current = ENTITY_TAG.exec(currentTag)?.[1];
  return current !== undefined && held.includes(current);
}

/**
 * Sets the ETag of the answer and, when the request's If-None-Match holds it, answers 304 with no
 * body: true when it did (the route then reads and sends nothing more). Call it once the caller is
 * authorised for the resource.
 */
export function answeredNotModified(request: FastifyRequest, reply: FastifyReply, tag: string): boolean {
  reply.header('etag', tag);
  if (!notModified(request.headers['if-none-match'], tag)) return false;
  void reply.code(304).send();
  return true;
}

/** An entity tag of the bytes of an answer, for the caller's parts (conditional-json.ts): two callers never share one. */
export function bytesTag(parts: readonly (string | number | null)[], payload: string | Buffer): string {
  return `"${opaqueHash(parts, payload)}"`;
}

/** The If-None-Match request header, as a route schema declares it (validation and the OpenAPI document). */
export const IfNoneMatchHeaders = Type.Object({
  'if-none-match': Type.Optional(Type.String({ description: 'ETags of answers held (or *); 304 with no body while one of them names the answer as it would be given now' })),
});

/** What a route answering conditional reads documents beside its 200: the 304, and the ETag of both. */
export const conditionalReadDocument = {
  responses: { 304: { description: 'Not modified: the answer named by If-None-Match is still the one this request would be given' } },
  responseHeaders: { 200: ['ETag' as const], 304: ['ETag' as const] },
};
