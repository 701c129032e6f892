// The legacy generation's tools: a bare array of the caller's organization's tools, each shown as to
// the caller's role (members and viewers: id, kind, name, description and enabled).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { LEGACY_LIST_DESCRIPTION, legacyList, legacyListQuery, legacyWindow } from '../../http/legacy.js';
import { responses } from '../../http/schemas.js';
import { ToolSchema } from '../tools/tools.schemas.js';

export const legacyToolsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/api/tools/',
    {
      schema: {
        operationId: 'listToolsLegacy',
        tags: ['legacy'],
        summary: 'Tools',
        description: `The tools of the caller’s organization with their enabled state, secrets never shown. ${LEGACY_LIST_DESCRIPTION}`,
        querystring: legacyListQuery(app.config.limits.pageSizeMax),
        response: responses({ 200: Type.Array(ToolSchema) }),
      },
    },
    async (request, reply) => legacyList(reply, await app.services.tools.list(request.actor, request.actor.organizationId, {}, legacyWindow(request.query))),
  );
};
