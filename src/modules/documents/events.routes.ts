// GET /api/v2/corpora/{corpus_id}/events: the corpus's document progress as Server-Sent Events
// (the stream itself is DocumentProgress's).
import { Readable } from 'node:stream';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { IdParams, responses } from '../../http/schemas.js';

/** The data of each event of the stream (documentation; the stream is written by DocumentProgress). */
const DocumentProgressEvent = Type.Object(
  {
    document_id: Type.Integer(),
    step: Type.String({ description: 'queued, extracting, chunking, embedding or indexed' }),
    is_failed: Type.Boolean(),
    error: Type.Union([Type.String(), Type.Null()], { description: 'Why the document failed, when it did' }),
    created_on: Type.String({ format: 'date-time' }),
  },
  {
    title: 'DocumentProgressEvent',
    examples: [{ document_id: 42, step: 'indexed', is_failed: false, error: null, created_on: '2026-11-20T10:15:30.123Z' }],
  },
);

/** Last-Event-ID, or ?after=: the event after which to resume; undefined to start from now. */
function resumePoint(header: string | undefined, after: number | undefined): number | undefined {
  const value = Number(header ?? after);
  return Number.isSafeInteger(value) && value >= 0 ? value : undefined;
}

export const eventsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const progress = app.services.progress;
  app.addHook('preClose', async () => progress.endAll());

  app.get(
    '/api/v2/corpora/:corpus_id/events',
    {
      schema: {
        operationId: 'streamCorpusEvents',
        tags: ['corpora'],
        summary: 'Server-Sent Events of document processing progress',
        description:
          'text/event-stream. Each event is named "document" with JSON data {document_id, step, is_failed, error, created_on}. ' +
          'Send Last-Event-ID (or ?after=) to resume after an event; otherwise the stream starts with the next change.',
        params: IdParams('corpus_id'),
        querystring: Type.Object({ after: Type.Optional(Type.Integer({ minimum: 0, description: 'Resume after this event id' })) }),
        headers: Type.Object({ 'last-event-id': Type.Optional(Type.String()) }),
        response: responses({ 200: Type.String({ description: 'text/event-stream' }) }, [404]),
        'x-document': {
          responseContent: {
            200: {
              'text/event-stream': {
                schema: Type.String({
                  description: 'Server-Sent Events: each has an id, the name "document" and data a DocumentProgressEvent as JSON',
                  'x-event-data': DocumentProgressEvent,
                }),
                example: 'id: 17\nevent: document\ndata: {"document_id":42,"step":"indexed","is_failed":false,"error":null,"created_on":"2026-11-20T10:15:30.123Z"}\n\n',
              },
            },
          },
        },
      },
    },
    async (request, reply) => {
      const stream = await progress.follow(request.actor, request.params.corpus_id, resumePoint(request.headers['last-event-id'], request.query.after));
      request.raw.on('close', stream.end);
      return reply
        .header('content-type', 'text/event-stream; charset=utf-8')
        .header('cache-control', 'no-cache, no-transform')
        .header('x-accel-buffering', 'no')
        .send(Readable.from(stream.text));
    },
  );
};
