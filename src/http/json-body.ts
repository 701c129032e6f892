// The JSON body parser: Fastify's own (which refuses __proto__ and constructor poisoning), with two
// additions. An empty or absent body reads as {}, so that a missing field is reported as missing
// rather than as "empty body". A body nested deeper than MAX_DEPTH is refused before it is parsed, since some
// later consumer (JSON.stringify, a recursive walk) would overflow the stack on it.
import type { FastifyBodyParser, FastifyInstance, preValidationHookHandler } from 'fastify';
import { BadRequest } from '../errors.js';
import { routeHooks } from './route-hooks.js';

export const MAX_JSON_DEPTH = 64;

/** Deepest nesting of arrays and objects in a JSON text, ignoring brackets inside strings. */
export function jsonDepthExceeds(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const char = text.charCodeAt(i);
    if (inString) {
      if (char === 92 /* \ */) i++;
      else if (char === 34 /* " */) inString = false;
    } else if (char === 34) inString = true;
    else if (char === 91 /* [ */ || char === 123 /* { */) {
      if (++depth > limit) return true;
    } else if (char === 93 /* ] */ || char === 125 /* } */) depth--;
  }
  return false;
}

/** The JSON parser of every route (a scope that answers malformed JSON its own way wraps it). */
export function jsonBodyParser(app: FastifyInstance): FastifyBodyParser<string> {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  return (request, text, done) => {
    if (text.trim() === '') return done(null, {});
    // Nesting deeper than the limit needs at least twice the limit in characters.
    if (text.length > MAX_JSON_DEPTH * 2 && jsonDepthExceeds(text, MAX_JSON_DEPTH)) {
      return done(new BadRequest(`JSON nested deeper than ${MAX_JSON_DEPTH} levels`), undefined);
    }
    return parseJson(request, text, done);
  };
}

export function installJsonBodyParser(app: FastifyInstance): void {
  const parse = jsonBodyParser(app);
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, parse);
  // No body at all (and so no content type): the same as an empty one, for routes that take a body.
  // Added to those routes alone, as a callback: the others (every GET) pay nothing for it.
  const emptyBody: preValidationHookHandler = (request, _reply, done) => {
    if (request.body === undefined) request.body = {};
    done();
  };
  app.addHook('onRoute', (route) => {
    if (route.schema?.body === undefined) return;
    route.preValidation = [emptyBody, ...routeHooks(route.preValidation)];
  });
}
