// OpenAI's shapes for the two routes that speak them (API.md §8): the chat completion request, the
// completion and its streamed chunks, the model list, and the error body. Requests are read as
// OpenAI's clients send them: fields this server has no use for are accepted and ignored.
import { Type, type Static } from '@sinclair/typebox';
import { named } from '../../http/schemas.js';
import { CitationSchema } from '../chat/responses.schemas.js';

const TextPart = Type.Object({ type: Type.Literal('text'), text: Type.String() }, { additionalProperties: true });

/** A tool's name, as every provider accepts it. */
export const ToolName = Type.String({ pattern: '^[a-zA-Z0-9_-]{1,64}$' });
/** A JSON schema the client gives: passed to the model as it is. */
export const ClientJsonSchema = Type.Record(Type.String(), Type.Unknown(), { description: 'A JSON schema, passed to the model as it is' });

const MessageToolCall = Type.Object(
  {
    id: Type.String({ minLength: 1, maxLength: 200 }),
    type: Type.Optional(Type.Literal('function')),
    function: Type.Object({ name: ToolName, arguments: Type.String({ maxLength: 100_000, description: 'JSON text' }) }, { additionalProperties: true }),
  },
  { additionalProperties: true },
);

export const ChatMessageInput = Type.Object(
  {
    role: Type.Union(['system', 'developer', 'user', 'assistant', 'tool'].map((role) => Type.Literal(role)), {
      description: 'system and developer messages are not passed on: the agent’s own instructions govern it',
    }),
    content: Type.Optional(
      Type.Union([Type.String({ maxLength: 100_000 }), Type.Array(Type.Union([TextPart, Type.Object({ type: Type.String() }, { additionalProperties: true })]), { maxItems: 100 }), Type.Null()]),
    ),
    tool_calls: Type.Optional(Type.Array(MessageToolCall, { maxItems: 128, description: 'An assistant message: the calls of the client’s tools it made' })),
    tool_call_id: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'A tool message: the call whose result it is' })),
  },
  { additionalProperties: true },
);

const ChatTool = Type.Object(
  {
    type: Type.String({ description: 'function; any other type is a 400' }),
    function: Type.Optional(
      Type.Object(
        {
          name: ToolName,
          description: Type.Optional(Type.String({ maxLength: 10_000 })),
          parameters: Type.Optional(ClientJsonSchema),
          strict: Type.Optional(Type.Union([Type.Boolean(), Type.Null()])),
        },
        { additionalProperties: true },
      ),
    ),
  },
  { additionalProperties: true },
);

const ChatToolChoice = Type.Union([
  Type.Union([Type.Literal('none'), Type.Literal('auto'), Type.Literal('required')]),
  Type.Object({ type: Type.String(), function: Type.Optional(Type.Object({ name: Type.String() }, { additionalProperties: true })) }, { additionalProperties: true }),
]);

const ChatResponseFormat = Type.Object(
  {
    type: Type.String({ description: 'text, json_object or json_schema; any other is a 400' }),
    json_schema: Type.Optional(
      Type.Object(
        {
          name: Type.String(),
          description: Type.Optional(Type.String()),
          schema: Type.Optional(ClientJsonSchema),
          strict: Type.Optional(Type.Union([Type.Boolean(), Type.Null()])),
        },
        { additionalProperties: true },
      ),
    ),
  },
  { additionalProperties: true },
);

export const ChatCompletionRequest = named(
  'OpenAiChatCompletionRequest',
  Type.Object(
    {
      model: Type.String({ minLength: 1, maxLength: 200, description: 'The agent to ask: its alias, or agent-{id}' }),
      messages: Type.Array(ChatMessageInput, { minItems: 1, maxItems: 1000, description: 'The conversation; the last message is the question and must be the user’s' }),
      stream: Type.Optional(Type.Boolean()),
      stream_options: Type.Optional(Type.Union([Type.Object({ include_usage: Type.Optional(Type.Boolean()) }, { additionalProperties: true }), Type.Null()])),
      n: Type.Optional(Type.Union([Type.Literal(1), Type.Null()], { description: 'One choice only' })),
      tools: Type.Optional(
        Type.Array(ChatTool, {
          maxItems: 128,
          description: 'The client’s own function tools: offered to the model beside the agent’s tools; their calls are returned in tool_calls, never run by the server',
        }),
      ),
      tool_choice: Type.Optional(ChatToolChoice),
      response_format: Type.Optional(ChatResponseFormat),
      max_completion_tokens: Type.Optional(Type.Union([Type.Integer({ minimum: 1 }), Type.Null()], { description: 'The most tokens of the answer; the agent’s own bound holds where lower' })),
      max_tokens: Type.Optional(Type.Union([Type.Integer({ minimum: 1 }), Type.Null()], { description: 'OpenAI’s former name of max_completion_tokens, which wins when both are given' })),
    },
    {
      additionalProperties: true,
      description:
        'Other OpenAI fields (temperature, top_p, user…) are accepted and ignored: the agent’s configuration decides; functions and function_call (replaced by tools) are a 400',
    },
  ),
  {
    model: 'support-bot',
    messages: [
      { role: 'user', content: 'I ordered a table last week.' },
      { role: 'assistant', content: 'Thank you. How can I help with your order?' },
      { role: 'user', content: 'How long do refunds take?' },
    ],
    stream: true,
    stream_options: { include_usage: true },
  },
);
export type ChatCompletionInput = Static<typeof ChatCompletionRequest>;

const Usage = Type.Object({
  prompt_tokens: Type.Integer({ minimum: 0 }),
  completion_tokens: Type.Integer({ minimum: 0 }),
  total_tokens: Type.Integer({ minimum: 0 }),
});

const ToolCallOut = Type.Object({
  id: Type.String({ description: 'The id the tool message with the result quotes (tool_call_id)' }),
  type: Type.Literal('function'),
  function: Type.Object({ name: Type.String(), arguments: Type.String({ description: 'JSON text' }) }),
});

const FinishReason = Type.Union([Type.Literal('stop'), Type.Literal('length'), Type.Literal('content_filter'), Type.Literal('tool_calls')], {
  description: 'length: the answer was cut at its most tokens; content_filter: a guardrail blocked it; tool_calls: the model called the client’s tools',
});

const Extensions = {
  agent_response_id: Type.Integer({ description: 'The agent response recorded for this completion (GET /api/v2/responses/{id})' }),
  citations: Type.Array(CitationSchema, { description: 'The passages the answer cites, as in the agent response' }),
};

export const ChatCompletionSchema = named(
  'OpenAiChatCompletion',
  Type.Object({
    id: Type.String(),
    object: Type.Literal('chat.completion'),
    created: Type.Integer({ description: 'Unix seconds' }),
    model: Type.String(),
    choices: Type.Array(
      Type.Object({
        index: Type.Integer(),
        message: Type.Object({
          role: Type.Literal('assistant'),
          content: Type.Union([Type.String(), Type.Null()], { description: 'null where the model only called the client’s tools' }),
          refusal: Type.Null(),
          tool_calls: Type.Optional(Type.Array(ToolCallOut, { description: 'The calls of the client’s tools, for the client to run (finish_reason tool_calls)' })),
        }),
        finish_reason: FinishReason,
        logprobs: Type.Null(),
      }),
    ),
    usage: Usage,
    ...Extensions,
  }),
);
export type ChatCompletion = Static<typeof ChatCompletionSchema>;

export const ChatCompletionChunkSchema = named(
  'OpenAiChatCompletionChunk',
  Type.Object({
    id: Type.String(),
    object: Type.Literal('chat.completion.chunk'),
    created: Type.Integer(),
    model: Type.String(),
    choices: Type.Array(
      Type.Object({
        index: Type.Integer(),
        delta: Type.Object({
          role: Type.Optional(Type.Literal('assistant')),
          content: Type.Optional(Type.String()),
          tool_calls: Type.Optional(Type.Array(Type.Composite([Type.Object({ index: Type.Integer({ minimum: 0 }) }), ToolCallOut]), { description: 'Each call whole, in one chunk, with its index' })),
        }),
        finish_reason: Type.Union([FinishReason, Type.Null()]),
        logprobs: Type.Null(),
      }),
    ),
    usage: Type.Optional(Type.Union([Usage, Type.Null()])),
    agent_response_id: Type.Optional(Extensions.agent_response_id),
    citations: Type.Optional(Extensions.citations),
  }),
);
export type ChatCompletionChunk = Static<typeof ChatCompletionChunkSchema>;

export const ModelSchema = Type.Object({
  id: Type.String({ description: 'The agent’s alias, or agent-{id}' }),
  object: Type.Literal('model'),
  created: Type.Integer({ description: 'Unix seconds: when the agent was created' }),
  owned_by: Type.String({ description: 'The agent’s name' }),
});

export const ModelListSchema = named('OpenAiModelList', Type.Object({ object: Type.Literal('list'), data: Type.Array(ModelSchema) }));

export const OpenAiErrorSchema = named(
  'OpenAiError',
  Type.Object({
    error: Type.Object({
      message: Type.String(),
      type: Type.String({ description: 'invalid_request_error, authentication_error, permission_error, not_found_error, rate_limit_error, api_error' }),
      code: Type.Union([Type.String(), Type.Null()], { description: 'This server’s error code (API.md §3), e.g. not_found' }),
      param: Type.Union([Type.String(), Type.Null()]),
    }),
  }),
  { error: { message: 'Model support-bot not found', type: 'not_found_error', code: 'not_found', param: 'model' } },
);
