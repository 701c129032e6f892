// OpenAI-compatible access (API.md §8): GET /api/v2/openai/models lists the agents the caller may ask
// as models; POST /api/v2/openai/chat/completions asks one. Any OpenAI client with base_url
// …/api/v2/openai and an API key of this server talks to a hosted agent. Errors in OpenAI's shape.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorResponseDocument } from '../../http/schemas.js';
import { completion, completionChunks } from './openai-completions.js';
import { questionOf } from './openai-conversation.js';
import { installOpenAiErrorShape } from './openai-errors.js';
import { OpenAiModels } from './openai-models.js';
import { chatCompletionEventsResponse } from './openai-events.schemas.js';
import { ChatCompletionRequest, ChatCompletionSchema, ModelListSchema, OpenAiErrorSchema } from './openai.schemas.js';

const tags = ['openai'];

/**
 * The error answers of these routes, for the OpenAPI document only: they are written in the envelope
 * (so not serialised by a schema of their own) and rewritten into OpenAI's shape on the way out.
 */
function openAiErrorResponses(errors: number[]) {
  const documented: Record<number, object> = {};
  for (const status of [400, 401, 413, 429, 500, 503, ...errors].sort()) {
    documented[status] = { description: errorResponseDocument(status).description, content: { 'application/json': { schema: OpenAiErrorSchema } } };
  }
  return documented;
}

export const openAiRoutes: FastifyPluginAsyncTypebox = async (app) => {
  installOpenAiErrorShape(app);
  const asks = app.services.asks;
  const models = new OpenAiModels(app.services.store);

  app.get(
    '/api/v2/openai/models',
    {
      schema: {
        operationId: 'listOpenAiModels',
        tags,
        summary: 'The agents the caller may ask, as OpenAI models',
        description: 'Agents of the caller’s teams and of no team that are not inactive. A model’s id is the agent’s alias, or agent-{id}.',
        response: { 200: ModelListSchema },
        'x-document': { responses: openAiErrorResponses([]) },
      },
    },
    async (request) => models.list(request.actor),
  );

  app.post(
    '/api/v2/openai/chat/completions',
    {
      schema: {
        operationId: 'createOpenAiChatCompletion',
        tags,
        summary: 'Ask an agent with OpenAI’s chat completion request',
        description:
          'The last message is the question; the user and assistant messages before it are the conversation. System and developer ' +
          'messages are not passed on: the agent’s own instructions govern it. Sampling fields (temperature, max_tokens…) are ' +
          'ignored: the agent’s configuration decides. Each completion is recorded as an agent response in a thread of its own ' +
          '(agent_response_id). With stream: true, chunks as Server-Sent Events ending with data: [DONE]; stream_options.include_usage ' +
          'adds a last chunk with the usage.',
        body: ChatCompletionRequest,
        response: { 200: ChatCompletionSchema },
        'x-document': {
          responses: {
            ...openAiErrorResponses([404, 409, 502, 504]),
            // One status, two answers: the completion whole, or its chunks as a stream.
            200: {
              description: `The completion, as JSON. ${chatCompletionEventsResponse.description}`,
              content: { 'application/json': { schema: ChatCompletionSchema }, ...chatCompletionEventsResponse.content },
            },
          },
        },
      },
    },
    async (request, reply) => {
      const body = request.body;
      const completionRequest = {
        actor: request.actor,
        agentId: await models.agentOf(request.actor, body.model),
        model: body.model,
        question: questionOf(body.messages),
      };
      if (body.stream) return completionChunks(asks, completionRequest, body.stream_options?.include_usage === true, reply);
      return completion(asks, completionRequest, reply);
    },
  );
};
