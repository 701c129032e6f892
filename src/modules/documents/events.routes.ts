// Server-Sent Events of document processing: each step change of a corpus's documents, tailed from
// the corpus's event log. Every event has an id, so a client that reconnects with Last-Event-ID
// misses nothing; a new client starts from now.
import { Readable } from 'node:stream';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { IdParams, responses } from '../../http/schemas.js';
import { DocumentsRepo } from './documents.repo.js';

const POLL_MS = 250;
const HEARTBEAT_MS = 15_000;

export const eventsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  // Open streams end when the server closes, so that shutdown does not wait on them.
  const open = new Set<() => void>();
  app.addHook('preClose', async () => {
    for (const end of open) end();
  });

  app.get(
    '/api/v2/corpora/:corpus_id/events',
    {
      schema: {
        tags: ['corpora'],
        summary: 'Server-Sent Events of document processing progress',
        description:
          'text/event-stream. Each event is named "document" with JSON data {document_id, step, is_failed, error, created_on}. ' +
          'Send Last-Event-ID (or ?after=) to resume after an event; otherwise the stream starts with the next change.',
        params: IdParams('corpus_id'),
        querystring: Type.Object({ after: Type.Optional(Type.Integer({ minimum: 0, description: 'Resume after this event id' })) }),
        headers: Type.Object({ 'last-event-id': Type.Optional(Type.String()) }),
        response: responses({ 200: Type.String({ description: 'text/event-stream' }) }, [404]),
      },
    },
    async (request, reply) => {
      const corpusId = request.params.corpus_id;
      await app.services.corpora.requireCorpus(request.actor, corpusId, 'read');
      const repo = new DocumentsRepo(app.database.db);
      const resumeFrom = Number(request.headers['last-event-id'] ?? request.query.after);
      let lastId = Number.isSafeInteger(resumeFrom) && resumeFrom >= 0 ? resumeFrom : await repo.lastEventId(corpusId);

      let ended = false;
      let wake: (() => void) | undefined;
      const end = () => {
        ended = true;
        wake?.();
      };
      open.add(end);
      request.raw.on('close', end);
      const pause = (ms: number) => new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, ms);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });

      async function* events(): AsyncGenerator<string> {
        try {
          yield `retry: 2000\n\n`;
          let quietSince = Date.now();
          while (!ended) {
            const batch = await repo.eventsAfter(corpusId, lastId, 200);
            for (const event of batch) {
              lastId = event.id;
              const data = { document_id: event.document_id, step: event.step, is_failed: event.is_failed === 1, error: event.error, created_on: event.created_on };
              yield `id: ${event.id}\nevent: document\ndata: ${JSON.stringify(data)}\n\n`;
            }
            if (batch.length > 0) quietSince = Date.now();
            else if (Date.now() - quietSince > HEARTBEAT_MS) {
              yield `: keep-alive\n\n`;
              quietSince = Date.now();
            }
            if (batch.length < 200) await pause(POLL_MS);
          }
        } finally {
          open.delete(end);
        }
      }

      return reply
        .header('content-type', 'text/event-stream; charset=utf-8')
        .header('cache-control', 'no-cache, no-transform')
        .header('x-accel-buffering', 'no')
        .send(Readable.from(events()));
    },
  );
};
