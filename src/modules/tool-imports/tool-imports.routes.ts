import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Envelope, Page, PageQuery, ok, responses } from '../../http/schemas.js';
import { asPage, windowOf } from '../../pagination.js';
import { OrganizationParams } from '../organizations/organizations.schemas.js';
import { clientGone } from '../runtime/ask-replies.js';
import { OperationReportSchema, OperationsQuery, PreviewToolImportBody, StartToolImportBody, ToolImportParams, ToolImportPreviewSchema, ToolImportSchema } from './tool-imports.schemas.js';

const tags = ['tools'];
const collection = '/api/v2/organizations/:org_id/tool-imports';
const one = `${collection}/:import_id`;

export const toolImportsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const imports = app.services.toolImports;
  const { jsonBodyBytes, toolImportBytes, pageSizeMax } = app.config.limits;

  app.post(
    collection,
    {
      // The one route whose body may hold a whole document: the document's limit beside the JSON body limit.
      bodyLimit: jsonBodyBytes + toolImportBytes,
      schema: {
        operationId: 'startToolImport',
        tags,
        summary: 'Import an OpenAPI document as API tools, in the background',
        description:
          'Exactly one of url (fetched through the egress rules) and document (a JSON object, or JSON or YAML text). Answers 202 with the import; poll GET …/tool-imports/{import_id} for its counts and read …/operations for the report: each operation imported, or skipped with the reason and the JSON pointer. ' +
          'A name already taken in the organization is skipped, never suffixed. Owners and admins; needs the api-tools feature flag (403 feature_disabled while it is off).',
        params: OrganizationParams,
        body: StartToolImportBody,
        response: responses({ 202: Envelope(ToolImportSchema) }, [403, 404]),
      },
    },
    async (request, reply) => reply.code(202).send(ok('Tool import queued', await imports.start(request.actor, request.params.org_id, request.body))),
  );

  app.post(
    `${collection}/preview`,
    {
      bodyLimit: jsonBodyBytes + toolImportBytes,
      schema: {
        operationId: 'previewToolImport',
        tags,
        summary: 'List the operations of an OpenAPI document, to choose which to import',
        description:
          'Exactly one of url (fetched through the egress rules) and document (a JSON object, or JSON or YAML text). Reads the document as an import would (same bounds) and answers every operation with the key POST …/tool-imports takes in operations; nothing is stored. ' +
          'Owners and admins; needs the api-tools feature flag (403 feature_disabled while it is off).',
        params: OrganizationParams,
        body: PreviewToolImportBody,
        response: responses({ 200: Envelope(ToolImportPreviewSchema) }, [403, 404]),
      },
    },
    // A client that goes away ends the document's reading (its thread).
    async (request, reply) => ok('Operations of the document', await imports.preview(request.actor, request.params.org_id, request.body, clientGone(reply))),
  );

  app.get(
    collection,
    {
      schema: {
        operationId: 'listToolImports',
        tags,
        summary: 'Imports of OpenAPI documents, latest first',
        description: 'Owners and admins.',
        params: OrganizationParams,
        querystring: PageQuery(pageSizeMax, {}),
        response: responses({ 200: Envelope(Page(ToolImportSchema)) }, [403, 404]),
      },
    },
    async (request) => {
      const { page, page_size } = request.query;
      return ok('Tool imports', asPage(await imports.list(request.actor, request.params.org_id, windowOf({ page, page_size })), { page, page_size }));
    },
  );

  app.get(
    one,
    {
      schema: {
        operationId: 'getToolImport',
        tags,
        summary: 'One import: status, counts and progress',
        description: 'Owners and admins.',
        params: ToolImportParams,
        response: responses({ 200: Envelope(ToolImportSchema) }, [403, 404]),
      },
    },
    async (request) => ok('Tool import', await imports.get(request.actor, request.params.org_id, request.params.import_id)),
  );

  app.get(
    `${one}/operations`,
    {
      schema: {
        operationId: 'listToolImportOperations',
        tags,
        summary: 'The report of an import: each operation imported or skipped',
        description: 'In the document’s order; status=skipped lists the operations not imported, each with the reason and the JSON pointer of the part of the document that is the reason. Owners and admins.',
        params: ToolImportParams,
        querystring: PageQuery(pageSizeMax, OperationsQuery),
        response: responses({ 200: Envelope(Page(OperationReportSchema)) }, [403, 404]),
      },
    },
    async (request) => {
      const { page, page_size, status } = request.query;
      return ok('Imported operations', asPage(await imports.operations(request.actor, request.params.org_id, request.params.import_id, status, windowOf({ page, page_size })), { page, page_size }));
    },
  );
};
