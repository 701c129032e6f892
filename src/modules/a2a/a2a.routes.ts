// Agent-to-agent (A2A, docs/a2a.md): each agent's card and its JSON-RPC endpoint, with the official
// SDK's request handler and transport handlers called from Fastify routes. Authenticated as the rest of
// the API (a Bearer API key or token); the agent must be reachable by the caller (a2a-agents.ts) and
// the organization's `a2a` flag on. Every message is asked through the one asking pipeline.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { responses } from '../../http/schemas.js';
import { clientGone } from '../runtime/ask-replies.js';
import { A2aAgents } from './a2a-agents.js';
import { A2aAgentCardSchema, A2aAgentParams, A2aJsonRpcRequestSchema, A2aJsonRpcResponseSchema, a2aStreamResponse } from './a2a.schemas.js';

const tags = ['a2a'];

/** Where the caller reached this server (behind a trusted proxy, the address the proxy was asked for): the card's URLs start with it. */
const originOf = (request: FastifyRequest) => `${request.protocol}://${request.host}`;

/** The A2A-Version the request names; undefined where it names none (the SDK then takes 0.3). */
const requestedVersion = (request: FastifyRequest) => {
  const header = request.headers['a2a-version'];
  return typeof header === 'string' && header.trim() !== '' ? header.trim() : undefined;
};

export const a2aRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const agents = new A2aAgents(app.services.store, app.services.flags);
  // The SDK's side, loaded at the first A2A request (a start does not load the SDK).
  let door: Promise<ReturnType<typeof import('./a2a-door.js').openA2aDoor>> | undefined;
  const loadDoor = () => (door ??= import('./a2a-door.js').then(({ openA2aDoor }) => openA2aDoor(app.services.asks, app.log)));

  app.get(
    '/api/v2/a2a/agents/:agent_id/.well-known/agent-card.json',
    {
      schema: {
        operationId: 'getA2aAgentCard',
        tags,
        summary: 'An agent’s A2A card',
        description:
          'The card of an agent the caller may reach (of no team, or of one of the caller’s teams), in A2A 1.0 when asked with A2A-Version: 1.0, ' +
          'else in A2A 0.3. Its interface URL is the agent’s JSON-RPC endpoint. Authenticated like the rest of the API (the card names tenant data); ' +
          'behind the a2a feature flag (403 feature_disabled while it is off).',
        params: A2aAgentParams,
        response: responses({ 200: A2aAgentCardSchema }, [403, 404]),
        'x-document': { responseHeaders: { 200: ['Cache-Control'] } },
      },
    },
    async (request, reply) => {
      const agent = await agents.resolve(request.actor, request.params.agent_id);
      const card = (await loadDoor()).card(agent, originOf(request), requestedVersion(request));
      return reply.header('vary', 'A2A-Version').header('cache-control', 'private, no-cache').type('application/json; charset=utf-8').send(JSON.stringify(card));
    },
  );

  app.post(
    '/api/v2/a2a/agents/:agent_id',
    {
      schema: {
        operationId: 'callA2aAgent',
        tags,
        summary: 'Call an agent over A2A (JSON-RPC 2.0)',
        description:
          'A2A 1.0 methods with A2A-Version: 1.0 (SendMessage, SendStreamingMessage, GetTask, CancelTask); A2A 0.3 methods without it ' +
          '(message/send, message/stream, tasks/get, tasks/cancel). A message’s text parts are the question; its contextId, the thread to ' +
          'continue (a task’s contextId is its thread’s id). The answer is a task: the answer and its citations in the artifact "answer". ' +
          'Protocol errors are JSON-RPC errors with status 200; 401, 403 (the a2a flag off) and 404 (an agent the caller may not reach) come ' +
          'before the protocol, in the API’s error shape.',
        params: A2aAgentParams,
        response: responses({ 200: A2aJsonRpcResponseSchema }, [403, 404]),
        'x-document': {
          requestContent: {
            'application/json': {
              schema: A2aJsonRpcRequestSchema,
              example: {
                jsonrpc: '2.0',
                id: 1,
                method: 'message/send',
                params: { message: { kind: 'message', role: 'user', messageId: '9b2f0c1e-5d4a-4c8e-9a51-2f7c3e0d6b18', parts: [{ kind: 'text', text: 'How many days of leave do I have?' }] } },
              },
            },
          },
          responses: {
            200: {
              description: `The JSON-RPC answer, or for SendStreamingMessage (message/stream) its events. ${a2aStreamResponse.description}`,
              content: { 'application/json': { schema: A2aJsonRpcResponseSchema }, ...a2aStreamResponse.content },
            },
          },
        },
      },
    },
    async (request, reply) => {
      const agent = await agents.resolve(request.actor, request.params.agent_id);
      const gone = clientGone(reply);
      return (await loadDoor()).call(agent, request.actor, originOf(request), requestedVersion(request), gone, request.body, reply, request.log);
    },
  );
};
