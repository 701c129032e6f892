import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Deleted, Envelope, Page, PageQuery, ok, responses } from '../../http/schemas.js';
import { asPage, windowOf } from '../../pagination.js';
import { ConnectorParams, ConnectorSchema, CreateConnectorBody, UpdateConnectorBody } from './connectors.schemas.js';

const tags = ['connectors'];
const collection = '/api/v2/connectors';
const one = `${collection}/:connector_id`;
const FLAG_NOTE = 'Behind the document-library-index flag (403 feature_disabled when off).';
const UNGATED = 'Allowed whatever the document-library-index flag says.';
const WHO = 'Owners, admins, and whoever holds write or manage permission on the connector’s corpus.';

export const connectorsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const connectors = app.services.connectors;

  app.get(
    collection,
    {
      schema: {
        operationId: 'listConnectors',
        tags,
        summary: 'Document-library connectors',
        description: `The connectors on corpora the caller may write to, each with its last sync. ${UNGATED}`,
        querystring: PageQuery(app.config.limits.pageSizeMax, {}),
        response: responses({ 200: Envelope(Page(ConnectorSchema)) }, [403]),
      },
    },
    async (request) => {
      const { page, page_size } = request.query;
      return ok('Connectors', asPage(await connectors.list(request.actor, windowOf({ page, page_size })), { page, page_size }));
    },
  );

  app.post(
    collection,
    {
      schema: {
        operationId: 'createConnector',
        tags,
        summary: 'Connect a document library to a corpus',
        description: `A SharePoint or OneDrive library (by site_id or drive_id, optionally one folder) synced into a corpus through Microsoft Graph with an app registration’s client credentials; client_secret is stored sealed and never returned. With schedule_minutes, the first sync runs that long after creation; POST …/sync runs one now. ${WHO} ${FLAG_NOTE}`,
        body: CreateConnectorBody,
        response: responses({ 201: Envelope(ConnectorSchema) }, [403, 404, 409]),
      },
    },
    async (request, reply) => reply.code(201).send(ok('Connector added', await connectors.create(request.actor, request.body))),
  );

  app.get(
    one,
    {
      schema: {
        operationId: 'getConnector',
        tags,
        summary: 'One connector with its last sync',
        description: `Its settings (the secret’s hint only) and its last sync: status, when it started and ended, how long it took, documents added, updated, removed and failed, and the error. ${WHO} ${UNGATED}`,
        params: ConnectorParams,
        response: responses({ 200: Envelope(ConnectorSchema) }, [403, 404]),
      },
    },
    async (request) => ok('Connector', await connectors.get(request.actor, request.params.connector_id)),
  );

  app.put(
    one,
    {
      schema: {
        operationId: 'updateConnector',
        tags,
        summary: 'Update a connector',
        description: `Only the fields sent change; without client_secret the secret is kept. Another site, drive, folder or tenant makes the next sync a full one, which removes the documents no longer in scope. ${WHO} ${UNGATED}`,
        params: ConnectorParams,
        body: UpdateConnectorBody,
        response: responses({ 200: Envelope(ConnectorSchema) }, [403, 404, 409]),
      },
    },
    async (request) => ok('Connector updated', await connectors.update(request.actor, request.params.connector_id, request.body)),
  );

  app.delete(
    one,
    {
      schema: {
        operationId: 'deleteConnector',
        tags,
        summary: 'Remove a connector',
        description: `Its pending syncs go with it; the documents it brought in stay in the corpus. ${WHO} ${UNGATED}`,
        params: ConnectorParams,
        response: responses({ 200: Envelope(Deleted) }, [403, 404]),
      },
    },
    async (request) => ok('Connector removed', await connectors.remove(request.actor, request.params.connector_id)),
  );

  app.post(
    `${one}/sync`,
    {
      schema: {
        operationId: 'syncConnector',
        tags,
        summary: 'Sync now: add, update and remove documents to match the library',
        description: `Queues a sync as a durable job and answers 202 with the connector (last_sync.status queued); follow it with GET. A scheduled sync waiting for its time is brought forward; while a sync is queued or running, 409. ${WHO} ${FLAG_NOTE}`,
        params: ConnectorParams,
        response: responses({ 202: Envelope(ConnectorSchema) }, [403, 404, 409]),
      },
    },
    async (request, reply) => reply.code(202).send(ok('Sync queued', await connectors.requestSync(request.actor, request.params.connector_id))),
  );
};
