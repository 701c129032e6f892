// Conditional reads for every other GET that answers JSON (docs/api.md, "Conditional requests"): the
// routes that name their answers by versions (the agents, the corpora, the document listings) set
// their ETag before reading; every other JSON 200 of a GET gets one here, from its bytes — a hash of
// the caller and of the body as sent — and a 304 in place of the body when If-None-Match holds it.
// The handler has run, so the caller was authorised exactly as for a 200 (a caller who may no longer
// read gets its 404, never a 304); what a 304 saves here is the transfer, not the reading.
// Streams (event streams, long listings) and bodies over FALLBACK_TAG_MAX_BYTES are left alone: a
// stream's bytes are not known before they are sent, and hashing costs 5–10 ms a MiB on a loaded
// machine (docs/api.md): at most ~2.5 ms at the bound.
import type { FastifyInstance, FastifySchema, onSendAsyncHookHandler, RouteOptions } from 'fastify';
import { bytesTag, conditionalReadDocument, notModified } from './conditional-get.js';
import type { OperationDocument } from './openapi.js';

/** Bodies up to this size get a tag of their bytes; a larger one is sent without. */
export const FALLBACK_TAG_MAX_BYTES = 256 * 1024;

const asList = <T>(hooks: T | T[] | undefined): T[] => (hooks === undefined ? [] : Array.isArray(hooks) ? hooks : [hooks]);

/**
 * Whether a route's 200 is JSON, and it does not name its answers itself: a schema for its 200 and no
 * other media type documented for it (files, event streams, HTML), no 304 of its own.
 */
function answersPlainJson(schema: FastifySchema | undefined): boolean {
  const response = schema?.response as Record<string, unknown> | undefined;
  if (response?.['200'] === undefined) return false;
  const extra = schema?.['x-document'];
  if (extra?.responseContent?.[200] !== undefined || extra?.responses?.[304] !== undefined) return false;
  return (extra?.responseHeaders?.[200] ?? []).every((header) => header !== 'ETag');
}

/** The route's documentation with the 304 and the ETag: in the OpenAPI document, and for the response check. */
function withConditionalRead(extra: OperationDocument | undefined): OperationDocument {
  return {
    ...extra,
    responses: { ...extra?.responses, ...conditionalReadDocument.responses },
    responseHeaders: { ...extra?.responseHeaders, 200: [...(extra?.responseHeaders?.[200] ?? []), 'ETag'], 304: ['ETag'] },
  };
}

const tagTheBytes: onSendAsyncHookHandler = async (request, reply, payload) => {
  if (reply.statusCode !== 200 || reply.hasHeader('etag')) return payload;
  if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return payload;
  if (payload.length > FALLBACK_TAG_MAX_BYTES) return payload;
  const actor = request.actor as typeof request.actor | null;
  const tag = bytesTag([actor?.organizationId ?? null, actor?.userId ?? null, actor?.role ?? null], payload);
  void reply.header('etag', tag);
  if (!notModified(request.headers['if-none-match'], tag)) return payload;
  void reply.code(304);
  reply.removeHeader('content-type');
  reply.removeHeader('content-length');
  return null;
};

/** Installs the tag of the bytes on every GET route that answers plain JSON; before the response check, which must see the 304. */
export function installConditionalJson(app: FastifyInstance): void {
  app.addHook('onRoute', (route: RouteOptions) => {
    const methods = asList(route.method);
    if (!methods.every((method) => method === 'GET' || method === 'HEAD') || !answersPlainJson(route.schema)) return;
    route.schema = { ...route.schema, 'x-document': withConditionalRead(route.schema?.['x-document']) };
    route.onSend = [...asList(route.onSend), tagTheBytes];
  });
}
