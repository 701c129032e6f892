// The events of an ask with stream: true (API.md §8), as the OpenAPI document describes them
// (src/http/event-streams.ts). Documentation: ask-replies.ts writes them, one per listener call.
import { Type } from '@sinclair/typebox';
import { Id } from '../../http/schemas.js';
import { StreamEvent, StreamEventUnion, eventStreamResponse } from '../../http/event-streams.js';
import { AgentResponseSchema, CitationSchema, GuardrailActionSchema, ToolCallSchema } from '../chat/responses.schemas.js';

const withId = (description: string) => ({ id: true as const, description });

const AskStreamEventSchema = StreamEventUnion(
  'AskStreamEvent',
  [
    StreamEvent(
      'AskResponseCreatedEvent',
      'response.created',
      Type.Object({ id: Id('The response being answered'), thread_id: Id('Its thread (opened when the ask named none)') }),
      withId('First: the question is recorded'),
    ),
    StreamEvent(
      'AskCitationsEvent',
      'citations',
      Type.Array(CitationSchema),
      withId('The passages put before the model, numbered as the markers [n] of the answer'),
    ),
    StreamEvent(
      'AskDeltaEvent',
      'delta',
      Type.Object({ text: Type.String() }),
      withId('A piece of the answer, after the output guardrails: the deltas joined are the answer'),
    ),
    StreamEvent('AskToolCallEvent', 'tool_call', ToolCallSchema, withId('A tool call, once it has ended')),
    StreamEvent('AskGuardrailEvent', 'guardrail', GuardrailActionSchema, withId('What a guardrail found and did')),
    StreamEvent(
      'AskResponseCompletedEvent',
      'response.completed',
      AgentResponseSchema,
      withId('Last, unless the model failed: the whole response, whose citations are those the answer used; status blocked when a guardrail stopped it'),
    ),
    StreamEvent(
      'AskErrorEvent',
      'error',
      Type.Object({
        code: Type.Union([Type.Literal('upstream_error'), Type.Literal('upstream_timeout'), Type.Literal('internal')], {
          description: 'upstream_error or upstream_timeout: the model failed (the response is recorded as failed); internal: a fault of the server',
        }),
        message: Type.String(),
        response_id: Type.Optional(Id('The response recorded as failed (not for internal)')),
      }),
      withId('Last, when the answer failed: the stream then ends'),
    ),
  ],
  'One event of an ask’s stream, told apart by its name (event)',
);

const WIRE =
  'id: 1\nevent: response.created\ndata: {"id":12,"thread_id":3}\n\n' +
  'id: 2\nevent: citations\ndata: [{"number":1,"document_id":42,"corpus_id":7,"source":"handbook.txt","passage":"Returns are accepted within 30 days.","page":null,"score":0.91}]\n\n' +
  'id: 3\nevent: delta\ndata: {"text":"Returns are accepted within 30 days "}\n\n' +
  'id: 4\nevent: delta\ndata: {"text":"[1]."}\n\n' +
  'id: 5\nevent: response.completed\ndata: {"id":12,"thread_id":3,"answer":"Returns are accepted within 30 days [1].","status":"completed",…}\n\n';

/** The 200 answer of an ask with stream: true. */
export const askEventsResponse = eventStreamResponse(
  'With stream: true, Server-Sent Events: response.created, citations, then delta (and tool_call, guardrail) events as the answer is written, ' +
    'and response.completed, or error when the model fails.',
  AskStreamEventSchema,
  WIRE,
  {
    created: { event: 'response.created', id: '1', data: { id: 12, thread_id: 3 } },
    delta: { event: 'delta', id: '3', data: { text: 'Returns are accepted within 30 days ' } },
    error: { event: 'error', id: '4', data: { code: 'upstream_timeout', message: 'The model did not answer in time', response_id: 12 } },
  },
);
