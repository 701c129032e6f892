import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { Envelope, IdParams, Page, PageQuery, ok, responses, withExamples } from '../../http/schemas.js';
import { asPage, windowOf } from '../../pagination.js';
import { AgentResponseSchema } from './responses.schemas.js';
import { Tags } from './threads.schemas.js';

const tags = ['chat'];
const ResponseParams = IdParams('response_id');
const ResponseEnvelope = Envelope(AgentResponseSchema);

export const responsesRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { responses: responsesService } = app.services;

  app.get(
    '/api/v2/responses/:response_id',
    {
      schema: {
        operationId: 'getResponse',
        tags,
        summary: 'One agent response with citations, tokens, cost and latency',
        description: 'With the figures of its feedback. Seen by whoever sees its thread.',
        params: ResponseParams,
        response: responses({ 200: ResponseEnvelope }, [404]),
      },
    },
    async (request) => ok('Agent response', await responsesService.get(request.actor, request.params.response_id)),
  );

  for (const [method, pinned] of [
    ['put', true],
    ['delete', false],
  ] as const) {
    app[method](
      '/api/v2/responses/:response_id/pin',
      {
        schema: {
          operationId: pinned ? 'pinResponse' : 'unpinResponse',
          tags,
          summary: pinned ? 'Pin a response' : 'Unpin a response',
          description: 'By the thread’s owner, owners and admins.',
          params: ResponseParams,
          response: responses({ 200: ResponseEnvelope }, [403, 404]),
        },
      },
      async (request) => ok(pinned ? 'Response pinned' : 'Response unpinned', await responsesService.setPinned(request.actor, request.params.response_id, pinned)),
    );
  }

  app.put(
    '/api/v2/responses/:response_id/tags',
    {
      schema: {
        operationId: 'tagResponse',
        tags,
        summary: 'Replace the tags of a response',
        description: 'By the thread’s owner, owners and admins.',
        params: ResponseParams,
        body: withExamples(Type.Object({ tags: Tags }), { tags: ['refunds', 'escalated'] }),
        response: responses({ 200: ResponseEnvelope }, [403, 404]),
      },
    },
    async (request) => ok('Response tagged', await responsesService.setTags(request.actor, request.params.response_id, request.body.tags)),
  );

  app.get(
    '/api/v2/projects/:project_id/responses',
    {
      schema: {
        operationId: 'listProjectResponses',
        tags: ['projects', 'chat'],
        summary: "A project's agent responses, newest first",
        description: 'Those given in the project that the caller may see: all for owners and admins; otherwise the caller’s own and those of agents of teams the caller leads.',
        params: IdParams('project_id'),
        querystring: PageQuery(app.config.limits.pageSizeMax, {}),
        response: responses({ 200: Envelope(Page(AgentResponseSchema)) }, [404]),
      },
    },
    async (request) =>
      ok('Project responses', asPage(await responsesService.ofProject(request.actor, request.params.project_id, windowOf(request.query)), request.query)),
  );
};
