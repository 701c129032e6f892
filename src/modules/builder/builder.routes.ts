import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Envelope, ok, responses } from '../../http/schemas.js';
import { BuilderBody, BuilderResultSchema } from './builder.schemas.js';

export const builderRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/api/v2/agents/builder',
    {
      schema: {
        operationId: 'draftAgent',
        tags: ['agents'],
        summary: 'Draft a complete agent configuration from a plain-language description',
        description:
          "Returns a draft only: send it to POST /api/v2/agents to create the agent. Written by the organization's default LLM " +
          'configuration (its answer validated against the agent schema, one repair round, then 502), or by the rule-based drafter when ' +
          'none is configured. Corpora, tools and guardrails are chosen only among those the caller may use. Flag chat-agent-creation.',
        body: BuilderBody,
        response: responses({ 200: Envelope(BuilderResultSchema) }, [403, 502, 504]),
      },
    },
    async (request) => ok('Agent draft', await app.services.builder.draft(request.actor, request.body)),
  );
};
