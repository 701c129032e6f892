// OpenAI-compatible access (API.md §8, §9): GET /api/v2/openai/models lists the agents the caller may
// ask as models; POST /api/v2/openai/chat/completions and POST /api/v2/openai/responses (the Responses
// API) ask one. Any OpenAI client with base_url …/api/v2/openai and an API key of this server talks to
// a hosted agent. Errors in OpenAI's shape.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorResponseDocument } from '../../http/schemas.js';
import { completion, completionAskOf, completionChunks } from './openai-completions.js';
import { installOpenAiErrorShape } from './openai-errors.js';
import { OpenAiModels } from './openai-models.js';
import { chatCompletionEventsResponse } from './openai-events.schemas.js';
import { respond, respondAsEvents, responseRequestOf } from './openai-responses.js';
import { responseEventsResponse } from './openai-responses-events.schemas.js';
import { ResponseObjectSchema, ResponsesRequest } from './openai-responses.schemas.js';
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
          'messages are not passed on: the agent’s own instructions govern it. Sampling fields (temperature, top_p…) are ' +
          'ignored: the agent’s configuration decides; max_completion_tokens (or max_tokens) bounds the answer where lower than the agent’s own bound. Each completion is recorded as an agent response in a thread of its own ' +
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
      const completionRequest = { actor: request.actor, ask: completionAskOf(body), agentId: await models.agentOf(request.actor, body.model), model: body.model };
      if (body.stream) return completionChunks(asks, completionRequest, body.stream_options?.include_usage === true, reply);
      return completion(asks, completionRequest, reply);
    },
  );

  app.post(
    '/api/v2/openai/responses',
    {
      schema: {
        operationId: 'createOpenAiResponse',
        tags,
        summary: 'Ask an agent with OpenAI’s Responses API',
        description:
          'input is the question, or the conversation as input items (messages with text, function_call and function_call_output items); ' +
          'previous_response_id (resp_{id}, one of the caller’s responses with the same agent) continues its thread. instructions, system and developer ' +
          'messages are not passed on, and sampling fields are echoed but ignored: the agent’s configuration decides. The client’s function tools are ' +
          'offered beside the agent’s; their calls come back as function_call items. text.format json_object or json_schema asks the model for JSON. ' +
          'Built-in tools, background: true, conversation, prompt and include are a 400. Each answer is recorded as an agent response (agent_response_id). ' +
          'With stream: true, OpenAI’s response events as Server-Sent Events.',
        body: ResponsesRequest,
        response: { 200: ResponseObjectSchema },
        'x-document': {
          responses: {
            ...openAiErrorResponses([404, 409, 502, 504]),
            200: {
              description: `The response object, as JSON. ${responseEventsResponse.description}`,
              content: { 'application/json': { schema: ResponseObjectSchema }, ...responseEventsResponse.content },
            },
          },
        },
      },
    },
    async (request, reply) => {
      const body = request.body as typeof request.body & Record<string, unknown>;
      const agentId = await models.agentOf(request.actor, body.model);
      const responseRequest = await responseRequestOf(app.services.store, request.actor, agentId, body);
      if (body.stream) return respondAsEvents(asks, responseRequest, reply);
      return respond(asks, responseRequest, reply);
    },
  );
};
