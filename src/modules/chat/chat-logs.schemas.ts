// Chat logs: one row per response across threads, with what it cost and what people said of it.
import { Type, type Static } from '@sinclair/typebox';
import { Id, Timestamp, named } from '../../http/schemas.js';
import { ResponseStatusSchema } from './responses.schemas.js';

export const ChatLogQuery = Type.Object({
  agent_id: Type.Optional(Id('Only responses of this agent')),
  project_id: Type.Optional(Id('Only responses given in this project')),
  user_id: Type.Optional(Id('Only threads of this user')),
  from: Type.Optional(Timestamp('Asked at or after')),
  to: Type.Optional(Timestamp('Asked before')),
  vote: Type.Optional(
    Type.Union([Type.Literal('up'), Type.Literal('down')], { description: 'Only responses with at least one vote of this kind (from anyone)' }),
  ),
  format: Type.Optional(
    Type.Union([Type.Literal('json'), Type.Literal('csv')], { description: 'json (the default) or csv; without it, Accept: text/csv asks for CSV' }),
  ),
});
export type ChatLogQueryInput = Static<typeof ChatLogQuery>;

const Count = (description: string) => Type.Integer({ minimum: 0, description });

export const ChatLogRowSchema = named(
  'ChatLogRow',
  Type.Object({
    response_id: Id('Response'),
    thread_id: Id('Thread of the response'),
    agent_id: Id('Agent that answered'),
    agent_name: Type.String(),
    user_email: Type.String({ description: 'E-mail of the thread’s owner' }),
    created_on: Timestamp('When the question was asked'),
    query: Type.String(),
    answer: Type.String(),
    status: ResponseStatusSchema,
    prompt_tokens: Count('Tokens of the prompt'),
    completion_tokens: Count('Tokens of the answer'),
    total_tokens: Count('Both'),
    cost: Type.Union([Type.Number({ minimum: 0 }), Type.Null()], { description: 'USD; null where a price is unknown' }),
    latency_ms: Count('Time to the whole answer'),
    model: Type.String(),
    citations: Count('Passages cited'),
    up_votes: Count('Up votes'),
    down_votes: Count('Down votes'),
    ratings: Count('Ratings given'),
    average_rating: Type.Union([Type.Number(), Type.Null()], { description: 'Mean rating; null without any' }),
  }),
  {
    response_id: 12,
    thread_id: 31,
    agent_id: 7,
    agent_name: 'HR assistant',
    user_email: 'ana@example.com',
    created_on: '2026-11-23T09:30:00.000Z',
    query: 'How long is parental leave?',
    answer: 'Sixteen weeks [1].',
    status: 'completed',
    prompt_tokens: 812,
    completion_tokens: 41,
    total_tokens: 853,
    cost: 0.00014,
    latency_ms: 1320,
    model: 'gpt-4o-mini',
    citations: 1,
    up_votes: 2,
    down_votes: 0,
    ratings: 1,
    average_rating: 5,
  },
);
export type ChatLogRow = Static<typeof ChatLogRowSchema>;

/** The CSV columns, in order: the fields of a row. */
export const CHAT_LOG_COLUMNS = Object.keys(ChatLogRowSchema.properties) as (keyof ChatLogRow)[];
