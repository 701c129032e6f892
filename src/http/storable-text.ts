// Text that a database cannot store is refused at the door, on both databases alike. PostgreSQL
// refuses the NUL character (U+0000) in text columns, SQLite keeps it but truncates at it in places;
// either way the client meant something else, so every request is checked here, before any handler
// or lookup runs, and answered 400 with the field named.
import type { FastifyInstance } from 'fastify';
import { BadRequest, type ErrorDetail } from '../errors.js';

const NUL = '\u0000';
const UNSTORABLE = 'contains the NUL character (U+0000), which cannot be stored';

/** JSON pointers of the strings (and object keys) in a parsed value that hold a NUL character. */
export function pointersToUnstorableText(value: unknown, pointer: string, found: ErrorDetail[] = []): ErrorDetail[] {
  if (typeof value === 'string') {
    if (value.includes(NUL)) found.push({ pointer, message: UNSTORABLE });
  } else if (Array.isArray(value)) {
    value.forEach((item, index) => pointersToUnstorableText(item, `${pointer}/${index}`, found));
  } else if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      const at = `${pointer}/${key.replaceAll('~', '~0').replaceAll('/', '~1')}`;
      if (key.includes(NUL)) found.push({ pointer: at.replaceAll(NUL, '\\u0000'), message: UNSTORABLE });
      pointersToUnstorableText(item, at, found);
    }
  }
  return found;
}

export function refuseUnstorableText(parts: Record<string, unknown>): void {
  const found: ErrorDetail[] = [];
  for (const [name, value] of Object.entries(parts)) pointersToUnstorableText(value, `/${name}`, found);
  const first = found[0];
  if (first) throw new BadRequest(`${first.pointer} ${first.message}`, found);
}

/**
 * Checks the query string before authentication (a token lookup with a NUL is a 400 too), and
 * path parameters and the body once parsed. The URL is checked raw first: most requests have no
 * "%00" and cost one search.
 */
export function installStorableTextCheck(app: FastifyInstance): void {
  app.addHook('onRequest', (request, _reply, done) => {
    if (request.url.includes('%00') || request.url.includes(NUL)) {
      try {
        refuseUnstorableText({ query: request.query, params: request.params });
      } catch (error) {
        return done(error as Error);
      }
    }
    done();
  });
  // A callback rather than a promise: most requests (every GET) have no body to check.
  app.addHook('preValidation', (request, _reply, done) => {
    if (request.body !== undefined && request.body !== null) {
      try {
        refuseUnstorableText({ body: request.body });
      } catch (error) {
        return done(error as Error);
      }
    }
    done();
  });
}
