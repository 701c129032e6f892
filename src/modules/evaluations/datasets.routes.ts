// Datasets of evaluation queries and their queries: /api/v2/datasets. Queries are added as JSON
// ({ queries: [...] } or { csv: "..." }) or as a text/csv body.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { Deleted, Envelope, Page, PageQuery, ok, responses } from '../../http/schemas.js';
import { asPage, windowOf } from '../../pagination.js';
import {
  AddQueriesBody,
  AddedQueriesSchema,
  CSV_DESCRIPTION,
  CreateDatasetBody,
  DatasetParams,
  DatasetQuerySchema,
  DatasetSchema,
  MAX_CSV_BYTES,
  QueryParams,
  UpdateDatasetBody,
  UpdateQueryBody,
} from './datasets.schemas.js';

const tags = ['evaluations'];
const WHO_CHANGES = 'Owners, admins and the dataset’s creator; anyone else 403.';

export const datasetsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const datasets = app.services.datasets;
  const pageSizeMax = app.config.limits.pageSizeMax;

  // A CSV body is read whole as text, bounded on its own (JSON keeps the server's JSON limit), and
  // handed to the route as { csv }, the same as a JSON body carrying one.
  app.addContentTypeParser(['text/csv', 'application/csv'], { parseAs: 'string', bodyLimit: MAX_CSV_BYTES }, (_request, body, done) => done(null, { csv: body as string }));

  app.get(
    '/api/v2/datasets',
    {
      schema: {
        operationId: 'listDatasets',
        tags,
        summary: 'List evaluation datasets',
        description: 'The organization’s datasets, newest first, with how many queries each holds; q filters by name.',
        querystring: PageQuery(pageSizeMax, { q: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })) }),
        response: responses({ 200: Envelope(Page(DatasetSchema)) }),
      },
    },
    async (request) => {
      const { q, ...page } = request.query;
      return ok('Datasets', asPage(await datasets.list(request.actor, { q }, windowOf(page)), page));
    },
  );

  app.post(
    '/api/v2/datasets',
    {
      schema: {
        operationId: 'createDataset',
        tags,
        summary: 'Create a dataset',
        description: 'Owners, admins and members; viewers 403. Names are unique in the organization (409).',
        body: CreateDatasetBody,
        response: responses({ 201: Envelope(DatasetSchema) }, [403, 409]),
      },
    },
    async (request, reply) => reply.code(201).send(ok('Dataset created', await datasets.create(request.actor, request.body))),
  );

  app.get(
    '/api/v2/datasets/:dataset_id',
    { schema: { operationId: 'getDataset', tags, summary: 'One dataset', params: DatasetParams, response: responses({ 200: Envelope(DatasetSchema) }, [404]) } },
    async (request) => ok('Dataset', await datasets.get(request.actor, request.params.dataset_id)),
  );

  app.put(
    '/api/v2/datasets/:dataset_id',
    {
      schema: {
        operationId: 'updateDataset',
        tags,
        summary: 'Update a dataset',
        description: `Its name and description; only the fields sent change. ${WHO_CHANGES}`,
        params: DatasetParams,
        body: UpdateDatasetBody,
        response: responses({ 200: Envelope(DatasetSchema) }, [403, 404, 409]),
      },
    },
    async (request) => ok('Dataset updated', await datasets.update(request.actor, request.params.dataset_id, request.body)),
  );

  app.delete(
    '/api/v2/datasets/:dataset_id',
    {
      schema: {
        operationId: 'deleteDataset',
        tags,
        summary: 'Delete a dataset',
        description: `With its queries; evaluations made with it keep their copies of the queries (their dataset_id becomes null). ${WHO_CHANGES}`,
        params: DatasetParams,
        response: responses({ 200: Envelope(Deleted) }, [403, 404]),
      },
    },
    async (request) => ok('Dataset deleted', await datasets.remove(request.actor, request.params.dataset_id)),
  );

  app.get(
    '/api/v2/datasets/:dataset_id/queries',
    {
      schema: {
        operationId: 'listDatasetQueries',
        tags,
        summary: 'Queries of a dataset',
        description: 'In the order they were added.',
        params: DatasetParams,
        querystring: PageQuery(pageSizeMax, {}),
        response: responses({ 200: Envelope(Page(DatasetQuerySchema)) }, [404]),
      },
    },
    async (request) => {
      const page = request.query;
      return ok('Queries', asPage(await datasets.listQueries(request.actor, request.params.dataset_id, windowOf(page)), page));
    },
  );

  app.post(
    '/api/v2/datasets/:dataset_id/queries',
    {
      schema: {
        operationId: 'addDatasetQueries',
        tags,
        summary: 'Add queries (question, expected answer, expected sources); JSON or CSV',
        description:
          'JSON { queries: [...] } or { csv: "…" }, or a text/csv body. All or nothing: one bad row adds none. ' +
          `${CSV_DESCRIPTION} A dataset holds at most 10,000 queries. ${WHO_CHANGES}`,
        params: DatasetParams,
        body: AddQueriesBody,
        response: responses({ 201: Envelope(AddedQueriesSchema) }, [403, 404]),
        'x-document': {
          requestContent: {
            'text/csv': {
              schema: { type: 'string', description: CSV_DESCRIPTION },
              example: 'question,expected_answer,expected_sources,tags\n"How many days of leave?",25 days,handbook.md|12,leave\n',
            },
          },
        },
      },
    },
    async (request, reply) => reply.code(201).send(ok('Queries added', await datasets.addQueries(request.actor, request.params.dataset_id, request.body))),
  );

  app.put(
    '/api/v2/datasets/:dataset_id/queries/:query_id',
    {
      schema: {
        operationId: 'updateDatasetQuery',
        tags,
        summary: 'Update a query',
        description: `Only the fields sent change. ${WHO_CHANGES}`,
        params: QueryParams,
        body: UpdateQueryBody,
        response: responses({ 200: Envelope(DatasetQuerySchema) }, [403, 404]),
      },
    },
    async (request) => ok('Query updated', await datasets.updateQuery(request.actor, request.params.dataset_id, request.params.query_id, request.body)),
  );

  app.delete(
    '/api/v2/datasets/:dataset_id/queries/:query_id',
    {
      schema: {
        operationId: 'deleteDatasetQuery',
        tags,
        summary: 'Delete a query',
        description: `Evaluations that asked it keep their copy. ${WHO_CHANGES}`,
        params: QueryParams,
        response: responses({ 200: Envelope(Deleted) }, [403, 404]),
      },
    },
    async (request) => ok('Query deleted', await datasets.removeQuery(request.actor, request.params.dataset_id, request.params.query_id)),
  );
};
