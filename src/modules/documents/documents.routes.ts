import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { IfNoneMatchHeaders, conditionalReadDocument } from '../../http/conditional-get.js';
import { Envelope, IdParams, Page, ok, okJson, responses } from '../../http/schemas.js';
import {
  DocumentSchema,
  DocumentWithTextSchema,
  DuplicateCheckBody,
  DuplicateCheckSchema,
  SearchBody,
  SearchResultSchema,
  TagsBody,
  UploadJsonBody,
  UploadMultipartContent,
  UploadResultSchema,
  listDocumentsQuery,
} from './documents.schemas.js';
import { MEDIA_TYPES, attachmentDisposition } from './original-file.js';
import { acceptUpload } from './upload-request.js';

const tags = ['corpora'];
const CorpusParams = IdParams('corpus_id');
const DocumentParams = IdParams('corpus_id', 'document_id');
export const documentsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const documents = app.services.documents;

  app.get(
    '/api/v2/corpora/:corpus_id/documents',
    {
      schema: {
        operationId: 'listCorpusDocuments',
        tags,
        summary: 'Documents of a corpus, paginated, filterable by step, is_failed, tag, type',
        description:
          'Newest first. Deleted documents are left out unless include_deleted=true. ' +
          'ETag names the answer; with If-None-Match holding it, 304 and no body (the caller still authorised first).',
        params: CorpusParams,
        querystring: listDocumentsQuery(app.config.limits.pageSizeMax),
        headers: IfNoneMatchHeaders,
        'x-document': conditionalReadDocument,
        response: responses({ 200: Envelope(Page(DocumentSchema)) }, [404]),
      },
    },
    async (request, reply) => {
      const { page, page_size, step, is_failed, tag, type, include_deleted } = request.query;
      const filter = { step, isFailed: is_failed, tag, type, includeDeleted: include_deleted };
      const query = [page, page_size, step ?? null, is_failed ?? null, tag ?? null, type ?? null, include_deleted ?? false];
      const { tag: etag, access } = await app.services.listingTags.tag(request.actor, request.params.corpus_id, 'v2 application/json', query);
      // Written by the database as the schema above would serialise it (document-pages.ts).
      return app.services.servedBytes.answer(request, reply, etag, async () => ({
        body: okJson('Documents', await app.services.documentPages.pageJson(access, filter, { page, page_size })),
        headers: {},
      }));
    },
  );

  app.post(
    '/api/v2/corpora/:corpus_id/documents',
    {
      schema: {
        operationId: 'uploadCorpusDocuments',
        tags,
        summary: 'Upload documents (multipart files, or JSON text or URL); processing runs in the background',
        description:
          'multipart/form-data: one part per file (at most LIMIT_UPLOAD_FILES, each at most LIMIT_UPLOAD_FILE_BYTES), fields tags and on_duplicate. ' +
          'application/json: upload_from text (with text) or url (with url). The type is decided from the content; a kind that cannot be processed is 415. ' +
          'Answers 201 once every document is stored and queued; all or nothing.',
        params: CorpusParams,
        body: UploadJsonBody,
        'x-document': { requestContent: UploadMultipartContent },
        response: responses({ 201: Envelope(UploadResultSchema) }, [403, 404, 409, 413, 415]),
      },
    },
    async (request, reply) => {
      const result = await acceptUpload(app, request, request.params.corpus_id);
      return reply.code(201).send(ok(`${result.items.length} document(s) accepted`, result));
    },
  );

  app.post(
    '/api/v2/corpora/:corpus_id/documents/duplicate-check',
    {
      schema: {
        operationId: 'checkCorpusDocumentDuplicates',
        tags,
        summary: 'Tell which of the given files or hashes the corpus already holds',
        params: CorpusParams,
        body: DuplicateCheckBody,
        response: responses({ 200: Envelope(DuplicateCheckSchema) }, [404]),
      },
    },
    async (request) => ok('Duplicate check', await documents.duplicateCheck(request.actor, request.params.corpus_id, request.body)),
  );

  app.get(
    '/api/v2/corpora/:corpus_id/documents/:document_id',
    {
      schema: {
        operationId: 'getCorpusDocument',
        tags,
        summary: 'One document',
        description: 'With its extracted text, its step, the reason it failed if it did, and the time spent in each step.',
        params: DocumentParams,
        response: responses({ 200: Envelope(DocumentWithTextSchema) }, [404]),
      },
    },
    async (request) => ok('Document', await documents.get(request.actor, request.params.corpus_id, request.params.document_id)),
  );

  app.get(
    '/api/v2/corpora/:corpus_id/documents/:document_id/file',
    {
      schema: {
        operationId: 'getCorpusDocumentFile',
        tags,
        summary: "A document's stored original, as it was uploaded or fetched",
        description:
          "The document's access_url for every document that is not a URL document. Served as an attachment under its source name, " +
          'with the content type of its detected kind; a deleted document has none (404).',
        params: DocumentParams,
        response: responses({ 200: Type.String({ description: 'The file itself', contentEncoding: 'binary' }) }, [404]),
        'x-document': {
          responseContent: {
            200: Object.fromEntries(
              [...new Set([...Object.values(MEDIA_TYPES), 'application/octet-stream'])].map((type) => [type, { schema: { type: 'string', contentMediaType: type } }]),
            ),
          },
        },
      },
    },
    async (request, reply) => {
      const file = await documents.original(request.actor, request.params.corpus_id, request.params.document_id);
      return reply
        .type(MEDIA_TYPES[file.type] ?? 'application/octet-stream')
        .header('content-disposition', attachmentDisposition(file.source))
        .send(file.bytes);
    },
  );

  app.delete(
    '/api/v2/corpora/:corpus_id/documents/:document_id',
    {
      schema: {
        operationId: 'deleteCorpusDocument',
        tags,
        summary: 'Delete a document (marks is_deleted and removes it from retrieval)',
        params: DocumentParams,
        response: responses({ 200: Envelope(DocumentSchema) }, [403, 404]),
      },
    },
    async (request) => ok('Document deleted', await documents.delete(request.actor, request.params.corpus_id, request.params.document_id)),
  );

  app.put(
    '/api/v2/corpora/:corpus_id/documents/:document_id/tags',
    {
      schema: {
        operationId: 'tagCorpusDocument',
        tags,
        summary: 'Annotate or tag a document',
        description: 'tags replaces the tags; annotations replaces the note (null clears it). A field left out is kept.',
        params: DocumentParams,
        body: TagsBody,
        response: responses({ 200: Envelope(DocumentSchema) }, [403, 404]),
      },
    },
    async (request) => ok('Document tagged', await documents.setTags(request.actor, request.params.corpus_id, request.params.document_id, request.body)),
  );

  app.post(
    '/api/v2/corpora/:corpus_id/documents/:document_id/retry',
    {
      schema: {
        operationId: 'retryCorpusDocument',
        tags,
        summary: 'Process a failed document again',
        description: 'From the step that failed. A document that has not failed is a 409.',
        params: DocumentParams,
        response: responses({ 200: Envelope(DocumentSchema) }, [403, 404, 409]),
      },
    },
    async (request) => ok('Document queued again', await documents.retry(request.actor, request.params.corpus_id, request.params.document_id)),
  );

  app.post(
    '/api/v2/corpora/:corpus_id/search',
    {
      schema: {
        operationId: 'searchCorpus',
        tags,
        summary: 'Retrieve the passages that best match a query',
        description:
          'Passages of documents in this corpus, best first, with their document, source, position and score. ' +
          'retrieval_mode says how they were found: full_text (BM25 alone) or hybrid (full text and vectors fused by reciprocal rank); ' +
          'warning says why a search that would have been hybrid used full text alone (the embedding provider failed).',
        params: CorpusParams,
        body: SearchBody,
        response: responses({ 200: Envelope(SearchResultSchema) }, [404]),
      },
    },
    async (request) => ok('Passages', await app.services.search.search(request.actor, request.params.corpus_id, request.body.query, request.body.limit ?? 10)),
  );
};
