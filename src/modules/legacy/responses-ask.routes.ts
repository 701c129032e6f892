// POST /api/responses/: asking an agent in the legacy generation — the agent named in the body and
// the bare AgentResponse answered, over the same service as the latest generation.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { responses } from '../../http/schemas.js';
import { presentAnswered } from '../chat/response.presenter.js';
import { AgentResponseSchema } from '../chat/responses.schemas.js';
import { answerWhole } from '../runtime/ask-replies.js';
import { LegacyAskBody } from '../runtime/ask.schemas.js';

export const legacyResponsesAskRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/api/responses/',
    {
      schema: {
        operationId: 'askAgentLegacy',
        tags: ['legacy'],
        summary: 'Ask an agent (legacy): the bare AgentResponse',
        description: 'As POST /api/v2/agents/{agent_id}/responses without streaming; no thread_id opens a thread.',
        body: LegacyAskBody,
        response: responses({ 201: AgentResponseSchema }, [404, 409, 502, 504]),
      },
    },
    async (request, reply) => {
      const { agent_id, query, thread_id } = request.body;
      // The legacy generation answers the AgentResponse bare, without the envelope.
      return reply.code(201).send(presentAnswered(await answerWhole(app.services.asks, request.actor, agent_id, { query, thread_id }, reply)));
    },
  );
};
