// The body of an ask in both generations (the events of its stream are in ask-events.schemas.ts).
import { Type } from '@sinclair/typebox';
import { Id, withExamples } from '../../http/schemas.js';

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

// Examples of the request bodies, shown in the OpenAPI document.
withExamples(AskBody, { query: 'How long do refunds take?', thread_id: 3, stream: true }, { query: 'Can I return a chair I assembled?' });
withExamples(LegacyAskBody, { agent_id: 7, query: 'How long do refunds take?', thread_id: 3 });
