// POST /api/v2/agents/{agent_id}/responses: ask an agent (API.md §8), answered as JSON or as events.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { Envelope, IdParams, ok, responses } from '../../http/schemas.js';
import { presentAnswered } from '../chat/response.presenter.js';
import { AgentResponseSchema } from '../chat/responses.schemas.js';
import { answerAsEvents, answerWhole } from './ask-replies.js';
import { askEventsResponse } from './ask-events.schemas.js';
import { AskBody } from './ask.schemas.js';

export const askRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const asks = app.services.asks;
  // Answers still running finish recording before the database closes.
  app.addHook('preClose', async () => asks.settle());

  app.post(
    '/api/v2/agents/:agent_id/responses',
    {
      schema: {
        operationId: 'askAgent',
        tags: ['chat'],
        summary: 'Ask an agent: an answer from its model and the corpora the caller may read, with citations',
        description:
          'Without stream: 201 with the AgentResponse once the answer has ended. With stream: true, 200 text/event-stream. ' +
          'No thread_id opens a thread. A failed model call is recorded (status failed) and answers 502 (upstream_error) or ' +
          '504 (upstream_timeout); an inactive agent answers 409.',
        params: IdParams('agent_id'),
        body: AskBody,
        response: responses(
          { 201: Envelope(AgentResponseSchema), 200: Type.String({ description: 'text/event-stream (stream: true)' }) },
          [404, 409, 502, 504],
        ),
        // The 200 above lets the stream through; the document describes its events.
        'x-document': { responses: { 200: askEventsResponse } },
      },
    },
    async (request, reply) => {
      const { query, thread_id, stream } = request.body;
      if (stream) return answerAsEvents(asks, request.actor, request.params.agent_id, { query, thread_id }, reply);
      const answer = await answerWhole(asks, request.actor, request.params.agent_id, { query, thread_id }, reply);
      return reply.code(201).send(ok(answer.status === 'completed' ? 'Answered' : 'Not answered', presentAnswered(answer)));
    },
  );
};
