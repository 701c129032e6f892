import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { IdParams, responses } from '../../http/schemas.js';
import { IfNoneMatchHeaders, conditionalReadDocument } from '../../http/conditional-get.js';
import { LegacyDocumentSchema, legacyListingQuery } from './documents.schemas.js';

export const legacyDocumentsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/api/corpus/:corpus_id/document/',
    {
      schema: {
        operationId: 'listCorpusDocumentsLegacy',
        tags: ['corpora'],
        summary: 'Get all documents from a corpus (bare JSON array)',
        description:
          'Every document of the corpus, by id ascending, as a bare array streamed whole; documents marked deleted are left out ' +
          'unless include_deleted=true. limit and offset page it, with the total in X-Total-Count. ' +
          'ETag names the answer; with If-None-Match holding it, 304 and no body (the caller still authorised first).',
        params: IdParams('corpus_id'),
        querystring: legacyListingQuery(app.config.limits.pageSizeMax),
        headers: IfNoneMatchHeaders,
        'x-document': conditionalReadDocument,
        response: responses({ 200: Type.Array(LegacyDocumentSchema) }, [404]),
      },
    },
    async (request, reply) => {
      const { include_deleted, limit, offset } = request.query;
      const query = [include_deleted ?? false, limit ?? null, offset ?? 0];
      const { tag, access } = await app.services.listingTags.tag(request.actor, request.params.corpus_id, 'legacy application/json', query);
      // A listing of one batch is kept for the next 200 of its tag; a streamed one, as large as the corpus, is not.
      return app.services.servedBytes.answer(request, reply, tag, async () => {
        const listing = await app.services.legacyListing.open(access, { includeDeleted: include_deleted ?? false, limit, offset: offset ?? 0 });
        const headers: Record<string, string> = listing.total === undefined ? {} : { 'x-total-count': String(listing.total) };
        return { body: listing.body, headers };
      });
    },
  );
};
