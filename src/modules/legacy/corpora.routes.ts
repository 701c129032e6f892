// The legacy generation of corpora and documents: thin adapters over the same services as
// /api/v2, answering bare resources and bare arrays under paths with a trailing slash. The
// corpus document listing itself, fixed by the interface, is in documents/legacy-documents.routes.ts.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { LEGACY_LIST_DESCRIPTION, legacyList, legacyListQuery, legacyWindow } from '../../http/legacy.js';
import { IdParams, responses } from '../../http/schemas.js';
import { CorpusSchema, CreateCorpusBody } from '../corpora/corpora.schemas.js';
import { DocumentSchema, LegacyDocumentSchema, UploadJsonBody, UploadMultipartContent } from '../documents/documents.schemas.js';
import { acceptUpload } from '../documents/upload-request.js';

const tags = ['legacy'];

export const legacyCorporaRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { corpora, documents } = app.services;

  app.get(
    '/api/corpus/',
    {
      schema: {
        operationId: 'listCorporaLegacy',
        tags,
        summary: 'Corpora',
        description: `Corpora the caller may read, newest first. ${LEGACY_LIST_DESCRIPTION}`,
        querystring: legacyListQuery(app.config.limits.pageSizeMax),
        response: responses({ 200: Type.Array(CorpusSchema) }),
      },
    },
    async (request, reply) => legacyList(reply, await corpora.list(request.actor, legacyWindow(request.query))),
  );

  app.post(
    '/api/corpus/',
    { schema: { operationId: 'createCorpusLegacy', tags, summary: 'Create a corpus', body: CreateCorpusBody, response: responses({ 201: CorpusSchema }, [403, 409]) } },
    async (request, reply) => reply.code(201).send(await corpora.create(request.actor, request.body)),
  );

  app.get(
    '/api/corpus/:corpus_id/',
    { schema: { operationId: 'getCorpusLegacy', tags, summary: 'One corpus', params: IdParams('corpus_id'), response: responses({ 200: CorpusSchema }, [404]) } },
    async (request) => corpora.get(request.actor, request.params.corpus_id),
  );

  app.post(
    '/api/corpus/:corpus_id/document/',
    {
      schema: {
        operationId: 'uploadCorpusDocumentsLegacy',
        tags,
        summary: 'Upload documents to a corpus',
        description: 'As POST /api/v2/corpora/{corpus_id}/documents (multipart files, or JSON text or URL); answers the accepted documents as a bare array.',
        params: IdParams('corpus_id'),
        body: UploadJsonBody,
        'x-document': { requestContent: UploadMultipartContent },
        response: responses({ 201: Type.Array(DocumentSchema) }, [403, 404, 409, 413, 415]),
      },
    },
    async (request, reply) => reply.code(201).send((await acceptUpload(app, request, request.params.corpus_id)).items),
  );

  app.get(
    '/api/documents/:document_id/',
    {
      schema: {
        operationId: 'getDocumentLegacy',
        tags,
        summary: 'One document',
        description: 'In the shape of the corpus document listing.',
        params: IdParams('document_id'),
        response: responses({ 200: LegacyDocumentSchema }, [404]),
      },
    },
    async (request) => documents.getListed(request.actor, request.params.document_id),
  );

  app.delete(
    '/api/documents/:document_id/',
    {
      schema: {
        operationId: 'deleteDocumentLegacy',
        tags,
        summary: 'Delete a document',
        description: 'Marks it deleted and removes it from retrieval; answers it as it now is.',
        params: IdParams('document_id'),
        response: responses({ 200: LegacyDocumentSchema }, [403, 404]),
      },
    },
    async (request) => {
      const corpusId = await documents.corpusOf(request.actor, request.params.document_id);
      await documents.delete(request.actor, corpusId, request.params.document_id);
      return documents.getListed(request.actor, request.params.document_id);
    },
  );
};
