// The legacy generation of chat threads and agent responses: thin adapters over the same services as
// /api/v2, answering bare resources and bare arrays under paths with a trailing slash.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { LEGACY_LIST_DESCRIPTION, legacyList, legacyListQuery, legacyWindow } from '../../http/legacy.js';
import { Id, IdParams, named, responses } from '../../http/schemas.js';
import { AgentResponseSchema } from '../chat/responses.schemas.js';
import { OpenThreadBody, ThreadSchema } from '../chat/threads.schemas.js';

const tags = ['legacy'];

const LegacyThreadSchema = named('LegacyChatThread', Type.Composite([ThreadSchema, Type.Object({ responses: Type.Array(AgentResponseSchema, { description: 'The chat log, oldest first' }) })]));

export const legacyChatRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { threads, responses: responsesService } = app.services;
  const listQuery = legacyListQuery(app.config.limits.pageSizeMax);

  app.get(
    '/api/responses/',
    {
      schema: {
        operationId: 'listResponsesLegacy',
        tags,
        summary: 'Agent responses',
        description: `The responses the caller may see, newest first; filter by agent_id or thread_id. ${LEGACY_LIST_DESCRIPTION}`,
        querystring: Type.Composite([listQuery, Type.Object({ agent_id: Type.Optional(Id('Only responses of this agent')), thread_id: Type.Optional(Id('Only responses of this thread')) })]),
        response: responses({ 200: Type.Array(AgentResponseSchema) }),
      },
    },
    async (request, reply) => {
      const { agent_id, thread_id, ...window } = request.query;
      return legacyList(reply, await responsesService.list(request.actor, { agentId: agent_id, threadId: thread_id }, legacyWindow(window)));
    },
  );

  app.get(
    '/api/responses/:response_id/',
    { schema: { operationId: 'getResponseLegacy', tags, summary: 'One agent response', params: IdParams('response_id'), response: responses({ 200: AgentResponseSchema }, [404]) } },
    async (request) => responsesService.get(request.actor, request.params.response_id),
  );

  app.get(
    '/api/threads/',
    {
      schema: {
        operationId: 'listThreadsLegacy',
        tags,
        summary: 'Chat threads',
        description: `The caller’s own threads, the most recently active first. ${LEGACY_LIST_DESCRIPTION}`,
        querystring: Type.Composite([listQuery, Type.Object({ agent_id: Type.Optional(Id('Only threads with this agent')) })]),
        response: responses({ 200: Type.Array(ThreadSchema) }),
      },
    },
    async (request, reply) => {
      const { agent_id, ...window } = request.query;
      return legacyList(reply, await threads.list(request.actor, { agentId: agent_id }, legacyWindow(window)));
    },
  );

  app.post(
    '/api/threads/',
    { schema: { operationId: 'openThreadLegacy', tags, summary: 'Open a chat thread', body: OpenThreadBody, response: responses({ 201: ThreadSchema }, [404]) } },
    async (request, reply) => reply.code(201).send(await threads.open(request.actor, request.body)),
  );

  app.get(
    '/api/threads/:thread_id/',
    {
      schema: { operationId: 'getThreadLegacy', tags, summary: 'One chat thread with its responses', params: IdParams('thread_id'), response: responses({ 200: LegacyThreadSchema }, [404]) },
    },
    async (request) => {
      const thread = await threads.get(request.actor, request.params.thread_id);
      const log = await responsesService.ofThread(request.actor, thread.id, { limit: undefined, offset: 0 });
      return { ...thread, responses: log.items };
    },
  );

  app.delete(
    '/api/threads/:thread_id/',
    {
      schema: {
        operationId: 'deleteThreadLegacy',
        tags,
        summary: 'Delete a chat thread',
        description: 'By its owner, owners and admins; answers the thread as it was.',
        params: IdParams('thread_id'),
        response: responses({ 200: ThreadSchema }, [403, 404]),
      },
    },
    async (request) => {
      const thread = await threads.get(request.actor, request.params.thread_id);
      await threads.delete(request.actor, request.params.thread_id);
      return thread;
    },
  );
};
