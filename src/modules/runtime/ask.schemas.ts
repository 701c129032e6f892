// The body of an ask in both generations, and the events of its stream (documentation: the stream
// is written by the route).
import { Type } from '@sinclair/typebox';
import { Id } from '../../http/schemas.js';

/** A question's length, in characters: beyond it the ask answers 400. */
export const QUERY_MAX_CHARACTERS = 32_000;

const Query = Type.String({
  minLength: 1,
  maxLength: QUERY_MAX_CHARACTERS,
  pattern: '\\S',
  description: `The question, 1 to ${QUERY_MAX_CHARACTERS} characters`,
});
const ThreadId = Id('Thread to continue: one of this agent that the caller owns. Absent: a new thread is opened');

export const AskBody = Type.Object({
  query: Query,
  thread_id: Type.Optional(ThreadId),
  stream: Type.Optional(Type.Boolean({ default: false, description: 'true: answer as text/event-stream' })),
});

export const LegacyAskBody = Type.Object({
  agent_id: Id('Agent to ask'),
  query: Query,
  thread_id: Type.Optional(ThreadId),
});

export const ASK_EVENTS_DESCRIPTION =
  'Server-Sent Events, each with an id: response.created {id, thread_id}; citations (the passages put before the model, ' +
  'numbered as the markers [n] of the answer); delta {text} (the deltas joined are the answer, after the output guardrails); ' +
  'tool_call (a ToolCall, once the call has ended); guardrail (a GuardrailAction, when a guardrail found something); response.completed ' +
  '(the whole AgentResponse, whose citations are those the answer used; status blocked when a guardrail stopped it); or, when the model fails, error ' +
  '{code, message, response_id} (code upstream_error or upstream_timeout).';

export const ASK_EVENTS_EXAMPLE =
  'id: 1\nevent: response.created\ndata: {"id":12,"thread_id":3}\n\n' +
  'id: 2\nevent: citations\ndata: [{"number":1,"document_id":42,"corpus_id":7,"source":"handbook.txt","passage":"Returns are accepted within 30 days.","page":null,"score":0.91}]\n\n' +
  'id: 3\nevent: delta\ndata: {"text":"Returns are accepted within 30 days "}\n\n' +
  'id: 4\nevent: delta\ndata: {"text":"[1]."}\n\n' +
  'id: 5\nevent: response.completed\ndata: {"id":12,"thread_id":3,"answer":"Returns are accepted within 30 days [1].","status":"completed"}\n\n';
