// The agent response as API.md §8 fixes it: clients rely on these fields; add, never rename or drop.
import { Type, type Static } from '@sinclair/typebox';
import { Id, Timestamp, named } from '../../http/schemas.js';
import { FeedbackFiguresSchema } from './feedback.schemas.js';

export const CitationSchema = named(
  'Citation',
  Type.Object({
    number: Type.Integer({ minimum: 1, description: 'The marker [n] in the answer that points to this passage' }),
    document_id: Id('Document the passage is from'),
    corpus_id: Id('Corpus of the document'),
    source: Type.String({ description: 'File name or address of the document' }),
    passage: Type.String({ description: 'The text the answer drew on' }),
    page: Type.Union([Type.Integer(), Type.Null()], { description: 'Page of the passage; null where the document has none' }),
    score: Type.Number({ description: 'Relevance of the passage to the query' }),
  }),
);
export type Citation = Static<typeof CitationSchema>;

export const TokensSchema = Type.Object({
  prompt: Type.Integer({ minimum: 0 }),
  completion: Type.Integer({ minimum: 0 }),
  total: Type.Integer({ minimum: 0 }),
  estimated: Type.Boolean({ description: 'true where the provider gave no usage and the tokens were counted here' }),
});

export const ResponseStatusSchema = Type.Union([Type.Literal('completed'), Type.Literal('blocked'), Type.Literal('failed')], {
  description: 'completed; blocked: a guardrail stopped it; failed: the model or a tool failed',
});

export const FinishReasonSchema = Type.Union([Type.Literal('stop'), Type.Literal('length'), Type.Literal('tool_calls'), Type.Null()], {
  description:
    'Why a completed answer ended, as OpenAI says it: stop, the model finished; length, the answer was cut at its most tokens ' +
    '(the LLM configuration’s max_answer_tokens, or the agent’s max_tokens where lower); tool_calls, the model called tools the client ' +
    'brought (OpenAI-compatible access), returned to it in tool_calls with status client. null when not completed, and for answers recorded before it was kept',
});

export const ToolCallSchema = named(
  'ToolCall',
  Type.Object({
    id: Type.String({ description: "The provider's id of the call" }),
    tool_id: Type.Union([Id('Tool called'), Type.Null()], { description: 'null when the model named a tool the agent does not have' }),
    name: Type.String({ description: 'The tool as the model named it' }),
    input: Type.Unknown({ description: 'The arguments the model gave' }),
    output: Type.String({ description: 'What the model read (cut to 2,000 characters here)' }),
    status: Type.Union(['ok', 'error', 'invalid', 'repeated', 'blocked', 'client'].map((status) => Type.Literal(status)), {
      description: 'ok; error: the tool failed (the model was told why); invalid: unknown tool or arguments its schema refuses; ' +
        'repeated: the same call was made earlier in the answer, not run again; blocked: a context guardrail withheld the result; ' +
        'client: a call of a tool the client brought (OpenAI-compatible access), returned to the client to run, not run here',
    }),
    http_status: Type.Union([Type.Integer(), Type.Null()], { description: 'The status of the service the tool called, where one answered' }),
    latency_ms: Type.Integer({ minimum: 0 }),
    step: Type.Integer({ minimum: 1, description: 'The round of tool calls in the answer' }),
  }),
);

export const GuardrailActionSchema = named(
  'GuardrailAction',
  Type.Object({
    guardrail_id: Id('Guardrail'),
    name: Type.String(),
    type: Type.Union(['pii', 'blocked_terms', 'length', 'topic'].map((type) => Type.Literal(type))),
    stage: Type.Union(['input', 'context', 'output'].map((stage) => Type.Literal(stage))),
    action: Type.Union(['block', 'redact', 'mask', 'warn'].map((action) => Type.Literal(action))),
    findings: Type.Array(
      Type.Object({
        entity_type: Type.String(),
        start: Type.Integer({ minimum: 0 }),
        end: Type.Integer({ minimum: 0, description: 'Exclusive' }),
        rule: Type.String(),
      }),
      { description: 'Character offsets into the text the guardrail was given: the question, the passage or tool result, or the whole answer' },
    ),
    source: Type.Optional(Type.String({ description: 'At the context stage: what the text was (a passage of a document, a tool result)' })),
  }),
);

export const AgentResponseSchema = named(
  'AgentResponse',
  Type.Object({
    id: Id('Response identifier'),
    thread_id: Id('Thread of the response'),
    agent_id: Id('Agent that answered'),
    history_id: Type.Union([Id('History record whose configuration answered'), Type.Null()]),
    project_id: Type.Union([Id('Project of the agent when it answered'), Type.Null()]),
    query: Type.String(),
    answer: Type.String(),
    status: ResponseStatusSchema,
    finish_reason: FinishReasonSchema,
    error: Type.Union([Type.String(), Type.Null()]),
    citations: Type.Array(CitationSchema),
    tokens: TokensSchema,
    cost: Type.Union([Type.Number({ minimum: 0 }), Type.Null()], { description: 'USD, from the prices copied onto the response; null where a price is unknown' }),
    latency_ms: Type.Integer({ minimum: 0 }),
    first_token_ms: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()], { description: 'Time to the first piece of the answer; null where none came' }),
    model: Type.String({ description: 'The model that answered; offline for the built-in answerer' }),
    llm_configuration_id: Type.Union([Id('LLM configuration that answered'), Type.Null()]),
    tool_calls: Type.Array(ToolCallSchema, { description: 'What was called, with what, and what came back' }),
    guardrail_actions: Type.Array(GuardrailActionSchema, { description: 'What each guardrail found and did' }),
    pinned: Type.Boolean(),
    tags: Type.Array(Type.String()),
    created_on: Timestamp('When the question was asked'),
    created_by: Type.String({ description: 'E-mail of the user who asked' }),
    feedback: Type.Optional(FeedbackFiguresSchema),
  }),
);
export type AgentResponseView = Static<typeof AgentResponseSchema>;
