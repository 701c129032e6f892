// The legacy generation's conversation starters: those of one corpus (?corpus_id=) or of one agent
// (?agent_id=), as a bare array of strings, read through the same services as /api/v2 (a corpus the
// caller may not read and another organization's agent are 404).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { BadRequest } from '../../errors.js';
import { Id, responses } from '../../http/schemas.js';

const StartersQuery = Type.Object({
  corpus_id: Type.Optional(Id('The corpus whose starters to read')),
  agent_id: Type.Optional(Id('The agent whose starters to read')),
});

export const legacyStartersRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { corpora, agents } = app.services;

  app.get(
    '/api/conversation-starters/',
    {
      schema: {
        operationId: 'listConversationStartersLegacy',
        tags: ['legacy'],
        summary: 'Conversation starters (?corpus_id= or ?agent_id=)',
        description: 'Exactly one of corpus_id and agent_id (400 otherwise). A bare array of strings, in the order they were set.',
        querystring: StartersQuery,
        response: responses({ 200: Type.Array(Type.String()) }, [404]),
      },
    },
    async (request) => {
      const { corpus_id: corpusId, agent_id: agentId } = request.query;
      if ((corpusId === undefined) === (agentId === undefined)) {
        throw new BadRequest('Send exactly one of corpus_id and agent_id', [{ pointer: '/querystring', message: 'needs exactly one of corpus_id, agent_id' }]);
      }
      if (corpusId !== undefined) return (await corpora.getStarters(request.actor, corpusId)).conversation_starters;
      return (await agents.get(request.actor, agentId!)).conversation_starters;
    },
  );
};
