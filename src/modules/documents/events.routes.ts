// GET /api/v2/corpora/{corpus_id}/events: the corpus's document progress as Server-Sent Events
// (the events are DocumentProgress's, described in events.schemas.ts).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { IdParams, responses } from '../../http/schemas.js';
import { EventStreamWriter, sendEventStream } from '../../http/server-sent-events.js';
import { corpusEventsResponse } from './events.schemas.js';

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
        // The 200 above lets the stream through; the document describes its events.
        'x-document': { responses: { 200: corpusEventsResponse } },
      },
    },
    async (request, reply) => {
      const events = new EventStreamWriter();
      await progress.follow(request.actor, request.params.corpus_id, resumePoint(request.headers['last-event-id'], request.query.after), events);
      return sendEventStream(reply, events);
    },
  );
};
