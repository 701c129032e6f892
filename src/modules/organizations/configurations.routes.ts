import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Envelope, Page, PageQuery, ok, responses } from '../../http/schemas.js';
import { asPage, windowOf } from '../../pagination.js';
import { ConfigurationParams, ConfigurationSchema, CreateConfigurationBody, UpdateConfigurationBody } from './configurations.schemas.js';
import { OrganizationParams } from './organizations.schemas.js';

const tags = ['organizations'];

export const configurationsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const configurations = app.services.configurations;

  app.get(
    '/api/v2/organizations/:org_id/configurations',
    {
      schema: {
        operationId: 'listConfigurations',
        tags,
        summary: 'Organization configurations',
        params: OrganizationParams,
        querystring: PageQuery(app.config.limits.pageSizeMax, {}),
        response: responses({ 200: Envelope(Page(ConfigurationSchema)) }, [404]),
      },
    },
    async (request) => {
      const { page, page_size } = request.query;
      return ok('Configurations', asPage(await configurations.list(request.actor, request.params.org_id, windowOf({ page, page_size })), { page, page_size }));
    },
  );

  app.post(
    '/api/v2/organizations/:org_id/configurations',
    {
      schema: {
        operationId: 'createConfiguration',
        tags,
        summary: 'Create an organization configuration',
        params: OrganizationParams,
        body: CreateConfigurationBody,
        response: responses({ 201: Envelope(ConfigurationSchema) }, [403, 404, 409]),
      },
    },
    async (request, reply) =>
      reply.code(201).send(ok('Configuration created', await configurations.create(request.actor, request.params.org_id, request.body))),
  );

  app.get(
    '/api/v2/organizations/:org_id/configurations/active',
    {
      schema: {
        operationId: 'getActiveConfiguration',
        tags,
        summary: 'The active organization configuration',
        description: '404 while no configuration is active.',
        params: OrganizationParams,
        response: responses({ 200: Envelope(ConfigurationSchema) }, [404]),
      },
    },
    async (request) => ok('Active configuration', await configurations.active(request.actor, request.params.org_id)),
  );

  app.put(
    '/api/v2/organizations/:org_id/configurations/:configuration_id',
    {
      schema: {
        operationId: 'updateConfiguration',
        tags,
        summary: 'Update an organization configuration',
        params: ConfigurationParams,
        body: UpdateConfigurationBody,
        response: responses({ 200: Envelope(ConfigurationSchema) }, [403, 404, 409]),
      },
    },
    async (request) =>
      ok('Configuration updated', await configurations.update(request.actor, request.params.org_id, request.params.configuration_id, request.body)),
  );

  app.post(
    '/api/v2/organizations/:org_id/configurations/:configuration_id/activate',
    {
      schema: {
        operationId: 'activateConfiguration',
        tags,
        summary: 'Make a configuration the active one',
        description: 'The configuration active before, if another, stops being active in the same transaction.',
        params: ConfigurationParams,
        response: responses({ 200: Envelope(ConfigurationSchema) }, [403, 404]),
      },
    },
    async (request) =>
      ok('Configuration activated', await configurations.activate(request.actor, request.params.org_id, request.params.configuration_id)),
  );
};
