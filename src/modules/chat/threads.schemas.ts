// Chat threads as the API shows them, and what opening, listing and changing one takes.
import { Type, type Static } from '@sinclair/typebox';
import { AuditFields, Id, PageQuery, Timestamp, named, withExamples } from '../../http/schemas.js';

const Title = Type.String({ minLength: 1, maxLength: 200, description: 'What the conversation is about' });

/** Tags of a thread or a response: each 1–50 characters, at most 20; repeats count once. */
export const Tags = Type.Array(Type.String({ minLength: 1, maxLength: 50 }), { maxItems: 20, description: 'Replaces the tags; repeats count once' });

export const ThreadSchema = named(
  'ChatThread',
  Type.Object({
    id: Id('Thread identifier'),
    agent_id: Id('Agent the conversation is with'),
    user_id: Id('Whose conversation it is'),
    title: Type.String(),
    pinned: Type.Boolean(),
    tags: Type.Array(Type.String()),
    response_count: Type.Integer({ minimum: 0, description: 'Questions asked in the thread' }),
    last_activity_on: Timestamp('When the thread was last asked in or opened'),
    ...AuditFields('thread'),
  }),
  {
    id: 31,
    agent_id: 7,
    user_id: 5,
    title: 'Parental leave',
    pinned: false,
    tags: ['hr'],
    response_count: 3,
    last_activity_on: '2026-11-23T09:30:00.000Z',
    created_on: '2026-11-23T09:00:00.000Z',
    created_by: 'ana@example.com',
    modified_on: '2026-11-23T09:00:00.000Z',
    modified_by: 'ana@example.com',
  },
);
export type ThreadView = Static<typeof ThreadSchema>;

export const OpenThreadBody = Type.Object({
  agent_id: Id('Agent to talk to; one the caller can see'),
  title: Type.Optional(Title),
});
export type OpenThreadInput = Static<typeof OpenThreadBody>;

export const UpdateThreadBody = Type.Object(
  { title: Type.Optional(Title), pinned: Type.Optional(Type.Boolean()), tags: Type.Optional(Tags) },
  { minProperties: 1, description: 'The fields sent change; those left out stay' },
);
export type UpdateThreadInput = Static<typeof UpdateThreadBody>;

export const listThreadsQuery = (pageSizeMax: number) =>
  PageQuery(pageSizeMax, {
    agent_id: Type.Optional(Id('Only threads with this agent')),
    pinned: Type.Optional(Type.Boolean({ description: 'Only pinned (true) or unpinned (false) threads' })),
    tag: Type.Optional(Type.String({ minLength: 1, maxLength: 50, description: 'Only threads with this tag' })),
  });

// Examples of the request bodies, shown in the OpenAPI document.
withExamples(OpenThreadBody, { agent_id: 7, title: 'Refund for order 104233' });
withExamples(UpdateThreadBody, { title: 'Refund for order 104233 (done)', pinned: true, tags: ['refunds'] });
