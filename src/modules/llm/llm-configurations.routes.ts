import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Deleted, Envelope, Page, PageQuery, ok, responses } from '../../http/schemas.js';
import { asPage, windowOf } from '../../pagination.js';
import { OrganizationParams } from '../organizations/organizations.schemas.js';
import {
  CreateLlmConfigurationBody,
  LlmConfigurationParams,
  LlmConfigurationSchema,
  LlmTestResultSchema,
  UpdateLlmConfigurationBody,
} from './llm-configurations.schemas.js';

const tags = ['llm'];
const collection = '/api/v2/organizations/:org_id/llm-configurations';
const one = `${collection}/:llm_configuration_id`;

export const llmConfigurationsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const llm = app.services.llm;

  app.get(
    collection,
    {
      schema: {
        operationId: 'listLlmConfigurations',
        tags,
        summary: 'LLM configurations (secrets masked)',
        description: 'Owners and admins see every setting but the key (its hint only); members and viewers see id, name, provider, model, is_default and context_window.',
        params: OrganizationParams,
        querystring: PageQuery(app.config.limits.pageSizeMax, {}),
        response: responses({ 200: Envelope(Page(LlmConfigurationSchema)) }, [404]),
      },
    },
    async (request) => {
      const { page, page_size } = request.query;
      return ok('LLM configurations', asPage(await llm.list(request.actor, request.params.org_id, windowOf({ page, page_size })), { page, page_size }));
    },
  );

  app.post(
    collection,
    {
      schema: {
        operationId: 'createLlmConfiguration',
        tags,
        summary: 'Add an LLM configuration',
        description: 'The organization’s first configuration becomes its default. api_key is stored sealed and never returned.',
        params: OrganizationParams,
        body: CreateLlmConfigurationBody,
        response: responses({ 201: Envelope(LlmConfigurationSchema) }, [403, 404, 409]),
      },
    },
    async (request, reply) => reply.code(201).send(ok('LLM configuration added', await llm.create(request.actor, request.params.org_id, request.body))),
  );

  app.get(
    one,
    {
      schema: {
        operationId: 'getLlmConfiguration',
        tags,
        summary: 'One LLM configuration',
        params: LlmConfigurationParams,
        response: responses({ 200: Envelope(LlmConfigurationSchema) }, [404]),
      },
    },
    async (request) => ok('LLM configuration', await llm.get(request.actor, request.params.org_id, request.params.llm_configuration_id)),
  );

  app.put(
    one,
    {
      schema: {
        operationId: 'updateLlmConfiguration',
        tags,
        summary: 'Update an LLM configuration',
        description: 'Only the fields sent change. Without api_key the key is kept; api_key: null removes it. is_default: true clears the previous default.',
        params: LlmConfigurationParams,
        body: UpdateLlmConfigurationBody,
        response: responses({ 200: Envelope(LlmConfigurationSchema) }, [403, 404, 409]),
      },
    },
    async (request) =>
      ok('LLM configuration updated', await llm.update(request.actor, request.params.org_id, request.params.llm_configuration_id, request.body)),
  );

  app.delete(
    one,
    {
      schema: {
        operationId: 'deleteLlmConfiguration',
        tags,
        summary: 'Remove an LLM configuration',
        description: '409 while agents answer with it (the message names them). Model-deployment choices naming it are cleared.',
        params: LlmConfigurationParams,
        response: responses({ 200: Envelope(Deleted) }, [403, 404, 409]),
      },
    },
    async (request) => ok('LLM configuration removed', await llm.remove(request.actor, request.params.org_id, request.params.llm_configuration_id)),
  );

  app.post(
    `${one}/test`,
    {
      schema: {
        operationId: 'testLlmConfiguration',
        tags,
        summary: 'Check that an LLM configuration answers',
        description:
          'Makes one real, small call without retries. 200 whether or not the model answered: ok, latency_ms, and when ok is false an error_class (auth, not_found, rate_limited, unreachable, timeout, bad_response) and a message.',
        params: LlmConfigurationParams,
        response: responses({ 200: Envelope(LlmTestResultSchema) }, [403, 404]),
      },
    },
    async (request) => ok('LLM configuration tested', await llm.testConfiguration(request.actor, request.params.org_id, request.params.llm_configuration_id)),
  );
};
