import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Deleted, Envelope, IdParams, Page, PageQuery, ok, responses } from '../../http/schemas.js';
import { asPage, windowOf } from '../../pagination.js';
import { AgentResponseSchema } from './responses.schemas.js';
import { OpenThreadBody, ThreadSchema, UpdateThreadBody, listThreadsQuery } from './threads.schemas.js';

const tags = ['chat'];
const ThreadParams = IdParams('thread_id');

export const threadsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { threads, responses: responsesService } = app.services;
  const pageSizeMax = app.config.limits.pageSizeMax;

  app.get(
    '/api/v2/threads',
    {
      schema: {
        operationId: 'listThreads',
        tags,
        summary: "The caller's chat threads",
        description: 'Only the caller’s own threads, the most recently active first; filter by agent_id, pinned and tag.',
        querystring: listThreadsQuery(pageSizeMax),
        response: responses({ 200: Envelope(Page(ThreadSchema)) }),
      },
    },
    async (request) => {
      const { agent_id, pinned, tag, ...page } = request.query;
      return ok('Chat threads', asPage(await threads.list(request.actor, { agentId: agent_id, pinned, tag }, windowOf(page)), page));
    },
  );

  app.post(
    '/api/v2/threads',
    {
      schema: {
        operationId: 'openThread',
        tags,
        summary: 'Open a chat thread with an agent',
        description: 'The caller owns the thread. Without a title it is called "New chat".',
        body: OpenThreadBody,
        response: responses({ 201: Envelope(ThreadSchema) }, [404]),
      },
    },
    async (request, reply) => reply.code(201).send(ok('Chat thread opened', await threads.open(request.actor, request.body))),
  );

  app.get(
    '/api/v2/threads/:thread_id',
    {
      schema: {
        operationId: 'getThread',
        tags,
        summary: 'One chat thread',
        description: 'Seen by its owner, owners and admins, and the leads of the agent’s team; 404 for anyone else.',
        params: ThreadParams,
        response: responses({ 200: Envelope(ThreadSchema) }, [404]),
      },
    },
    async (request) => ok('Chat thread', await threads.get(request.actor, request.params.thread_id)),
  );

  app.patch(
    '/api/v2/threads/:thread_id',
    {
      schema: {
        operationId: 'updateThread',
        tags,
        summary: 'Rename, pin or tag a chat thread',
        description: 'By its owner, owners and admins. tags replaces the tags.',
        params: ThreadParams,
        body: UpdateThreadBody,
        response: responses({ 200: Envelope(ThreadSchema) }, [403, 404]),
      },
    },
    async (request) => ok('Chat thread updated', await threads.update(request.actor, request.params.thread_id, request.body)),
  );

  app.delete(
    '/api/v2/threads/:thread_id',
    {
      schema: {
        operationId: 'deleteThread',
        tags,
        summary: 'Delete a chat thread',
        description: 'By its owner, owners and admins. The thread and its responses leave every view.',
        params: ThreadParams,
        response: responses({ 200: Envelope(Deleted) }, [403, 404]),
      },
    },
    async (request) => {
      await threads.delete(request.actor, request.params.thread_id);
      return ok('Chat thread deleted', { id: request.params.thread_id });
    },
  );

  app.get(
    '/api/v2/threads/:thread_id/responses',
    {
      schema: {
        operationId: 'listThreadResponses',
        tags,
        summary: 'The chat log of a thread, oldest first',
        params: ThreadParams,
        querystring: PageQuery(pageSizeMax, {}),
        response: responses({ 200: Envelope(Page(AgentResponseSchema)) }, [404]),
      },
    },
    async (request) => ok('Chat log', asPage(await responsesService.ofThread(request.actor, request.params.thread_id, windowOf(request.query)), request.query)),
  );
};
