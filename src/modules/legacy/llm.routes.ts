// The legacy generation's LLM configurations: a bare array of those the caller's organization has,
// each shown as to the caller's role (members and viewers: names and models only).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { LEGACY_LIST_DESCRIPTION, legacyList, legacyListQuery, legacyWindow } from '../../http/legacy.js';
import { responses } from '../../http/schemas.js';
import { LlmConfigurationSchema } from '../llm/llm-configurations.schemas.js';

export const legacyLlmRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/api/llm-config/',
    {
      schema: {
        operationId: 'listLlmConfigurationsLegacy',
        tags: ['legacy'],
        summary: 'LLM configuration',
        description: `The LLM configurations of the caller’s organization, secrets masked. ${LEGACY_LIST_DESCRIPTION}`,
        querystring: legacyListQuery(app.config.limits.pageSizeMax),
        response: responses({ 200: Type.Array(LlmConfigurationSchema) }),
      },
    },
    async (request, reply) => legacyList(reply, await app.services.llm.list(request.actor, request.actor.organizationId, legacyWindow(request.query))),
  );
};
