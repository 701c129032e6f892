// OpenAI's Responses API shapes for POST /api/v2/openai/responses (API.md §9): the request as OpenAI's
// clients send it, and the response object. Fields this server has no use for are accepted and
// ignored where ignoring them changes nothing the client relies on; those it cannot honour are a 400
// (openai-responses-input.ts says which).
import { Type, type Static } from '@sinclair/typebox';
import { named } from '../../http/schemas.js';
import { CitationSchema } from '../chat/responses.schemas.js';
import { ClientJsonSchema } from './openai.schemas.js';

const Part = Type.Object({ type: Type.String(), text: Type.Optional(Type.String({ maxLength: 100_000 })) }, { additionalProperties: true });
const Content = Type.Union([Type.String({ maxLength: 100_000 }), Type.Array(Part, { maxItems: 100 })]);

const InputItem = Type.Object(
  {
    type: Type.Optional(Type.String({ description: 'message (the default), function_call or function_call_output; any other is a 400' })),
    role: Type.Optional(Type.String({ description: 'user, assistant, system or developer (the last two are not passed on)' })),
    content: Type.Optional(Content),
    call_id: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    name: Type.Optional(Type.String({ maxLength: 64 })),
    arguments: Type.Optional(Type.String({ maxLength: 100_000 })),
    output: Type.Optional(Content),
  },
  { additionalProperties: true },
);

const FunctionToolInput = Type.Object(
  {
    type: Type.String({ description: 'function; built-in tools (web_search_preview, file_search…) are a 400' }),
    name: Type.Optional(Type.String()),
    description: Type.Optional(Type.Union([Type.String({ maxLength: 10_000 }), Type.Null()])),
    parameters: Type.Optional(Type.Union([ClientJsonSchema, Type.Null()])),
    strict: Type.Optional(Type.Union([Type.Boolean(), Type.Null()])),
  },
  { additionalProperties: true },
);

const TextFormatInput = Type.Object(
  {
    type: Type.String({ description: 'text, json_object or json_schema; any other is a 400' }),
    name: Type.Optional(Type.String()),
    description: Type.Optional(Type.String()),
    schema: Type.Optional(ClientJsonSchema),
    strict: Type.Optional(Type.Union([Type.Boolean(), Type.Null()])),
  },
  { additionalProperties: true },
);

const Metadata = Type.Record(Type.String({ maxLength: 64 }), Type.String({ maxLength: 512 }), { maxProperties: 16 });

export const ResponsesRequest = named(
  'OpenAiResponsesRequest',
  Type.Object(
    {
      model: Type.String({ minLength: 1, maxLength: 200, description: 'The agent to ask: its alias, or agent-{id}' }),
      input: Type.Union([Type.String({ minLength: 1, maxLength: 100_000 }), Type.Array(InputItem, { minItems: 1, maxItems: 1000 })], {
        description: 'The question, or the conversation as input items; its last user message is the question, or it ends with the results of the client’s tools',
      }),
      stream: Type.Optional(Type.Union([Type.Boolean(), Type.Null()])),
      previous_response_id: Type.Optional(Type.Union([Type.String({ maxLength: 200 }), Type.Null()], { description: 'A response of the caller’s (resp_{id}) to continue from' })),
      instructions: Type.Optional(Type.Union([Type.String({ maxLength: 100_000 }), Type.Null()], { description: 'Not passed on: the agent’s own instructions govern it' })),
      tools: Type.Optional(Type.Array(FunctionToolInput, { maxItems: 128, description: 'The client’s own function tools, offered beside the agent’s; their calls are returned as function_call items' })),
      tool_choice: Type.Optional(
        Type.Union([Type.Literal('none'), Type.Literal('auto'), Type.Literal('required'), Type.Object({ type: Type.String(), name: Type.Optional(Type.String()) }, { additionalProperties: true })]),
      ),
      text: Type.Optional(Type.Object({ format: Type.Optional(TextFormatInput) }, { additionalProperties: true })),
      max_output_tokens: Type.Optional(Type.Union([Type.Integer({ minimum: 1 }), Type.Null()], { description: 'The most tokens of the answer (echoed); the agent’s own bound holds where lower' })),
      temperature: Type.Optional(Type.Union([Type.Number(), Type.Null()], { description: 'Echoed; the agent’s configuration decides' })),
      top_p: Type.Optional(Type.Union([Type.Number(), Type.Null()])),
      metadata: Type.Optional(Type.Union([Metadata, Type.Null()], { description: 'Echoed in the response object' })),
      store: Type.Optional(Type.Union([Type.Boolean(), Type.Null()], { description: 'Every answer is recorded as an agent response, whatever this says' })),
      background: Type.Optional(Type.Union([Type.Boolean(), Type.Null()], { description: 'true is a 400: answers are never run in the background' })),
    },
    {
      additionalProperties: true,
      description:
        'Other OpenAI fields (user, reasoning, truncation…) are accepted and ignored: the agent’s configuration decides. conversation, prompt, include and background: true are a 400',
    },
  ),
  { model: 'support-bot', input: 'How long do refunds take?', previous_response_id: 'resp_11' },
);
export type ResponsesInput = Static<typeof ResponsesRequest>;
export type ResponsesInputItem = Static<typeof InputItem>;

const FileCitation = Type.Object({
  type: Type.Literal('file_citation'),
  file_id: Type.String({ description: 'document-{document_id}: the cited document (not a file of OpenAI’s files API)' }),
  filename: Type.String({ description: 'The document’s source' }),
  index: Type.Integer({ minimum: 0, description: 'Where the passage’s first marker [n] begins in the text' }),
});

const OutputText = Type.Object({
  type: Type.Literal('output_text'),
  text: Type.String(),
  annotations: Type.Array(FileCitation, { description: 'The passages cited, one for each' }),
  logprobs: Type.Array(Type.Unknown(), { maxItems: 0 }),
});
export type OutputTextPart = Static<typeof OutputText>;

const ItemStatus = Type.Union([Type.Literal('in_progress'), Type.Literal('completed'), Type.Literal('incomplete')]);

const MessageItem = Type.Object({
  type: Type.Literal('message'),
  id: Type.String(),
  role: Type.Literal('assistant'),
  status: ItemStatus,
  content: Type.Array(OutputText),
});
export type MessageOutputItem = Static<typeof MessageItem>;

const FunctionCallItem = Type.Object({
  type: Type.Literal('function_call'),
  id: Type.String(),
  call_id: Type.String({ description: 'Quoted by the function_call_output item that gives the result' }),
  name: Type.String(),
  arguments: Type.String({ description: 'JSON text' }),
  status: ItemStatus,
});
export type FunctionCallOutputItem = Static<typeof FunctionCallItem>;

export const OutputItem = Type.Union([MessageItem, FunctionCallItem]);
export type ResponseOutputItem = Static<typeof OutputItem>;

const Usage = Type.Object({
  input_tokens: Type.Integer({ minimum: 0 }),
  input_tokens_details: Type.Object({ cached_tokens: Type.Integer({ minimum: 0 }) }),
  output_tokens: Type.Integer({ minimum: 0 }),
  output_tokens_details: Type.Object({ reasoning_tokens: Type.Integer({ minimum: 0 }) }),
  total_tokens: Type.Integer({ minimum: 0 }),
});

export const ResponseObjectSchema = named(
  'OpenAiResponse',
  Type.Object({
    id: Type.String({ description: 'resp_{id}: the agent response recorded (previous_response_id continues from it)' }),
    object: Type.Literal('response'),
    created_at: Type.Integer({ description: 'Unix seconds' }),
    status: Type.Union([Type.Literal('in_progress'), Type.Literal('completed'), Type.Literal('incomplete'), Type.Literal('failed')], {
      description: 'incomplete: cut at its most tokens, or blocked by a guardrail (incomplete_details says which); failed: the model failed',
    }),
    error: Type.Union([Type.Object({ code: Type.String(), message: Type.String() }), Type.Null()]),
    incomplete_details: Type.Union([Type.Object({ reason: Type.Union([Type.Literal('max_output_tokens'), Type.Literal('content_filter')]) }), Type.Null()]),
    instructions: Type.Null({ description: 'The client’s instructions are not passed on' }),
    max_output_tokens: Type.Union([Type.Integer(), Type.Null()]),
    model: Type.String(),
    output: Type.Array(OutputItem),
    parallel_tool_calls: Type.Boolean(),
    previous_response_id: Type.Union([Type.String(), Type.Null()]),
    temperature: Type.Union([Type.Number(), Type.Null()]),
    top_p: Type.Union([Type.Number(), Type.Null()]),
    tool_choice: Type.Unknown({ description: 'As the request gave it (auto when absent)' }),
    tools: Type.Array(Type.Unknown(), { description: 'The client’s tools, as the request gave them' }),
    text: Type.Object({ format: Type.Unknown() }),
    truncation: Type.Literal('auto', { description: 'The oldest turns give way when the conversation does not fit the model’s context window' }),
    usage: Type.Union([Usage, Type.Null()], { description: 'null until the answer has ended' }),
    metadata: Type.Record(Type.String(), Type.String()),
    store: Type.Literal(true, { description: 'Every answer is recorded' }),
    agent_response_id: Type.Integer({ description: 'The agent response recorded (GET /api/v2/responses/{id})' }),
    citations: Type.Array(CitationSchema, { description: 'The passages the answer cites, as in the agent response' }),
  }),
);
export type ResponseObject = Static<typeof ResponseObjectSchema>;
