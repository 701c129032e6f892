import { Type, type Static } from '@sinclair/typebox';
import { Id, PageQuery, Timestamp, named, withExamples } from '../../http/schemas.js';
import { SEARCH_LANGUAGES } from '../../search/languages.js';

export const PermissionSchema = Type.Union([Type.Literal('read'), Type.Literal('write'), Type.Literal('manage')], {
  description: 'read: see and search; write: add, tag and delete documents; manage: change the corpus and who may use it',
});

const Language = Type.Union(
  SEARCH_LANGUAGES.map((language) => Type.Literal(language)),
  { description: 'How the text is analysed for search: the stemming and stop words of this language; simple: words as they are. Changing it reanalyses the stored passages.' },
);

const Starters = Type.Array(Type.String({ minLength: 1, maxLength: 500 }), { maxItems: 20 });

export const CreateCorpusBody = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 200, pattern: '\\S', description: 'Unique among the organization’s corpora' }),
  description: Type.Optional(Type.String({ maxLength: 2000 })),
  conversation_starters: Type.Optional(Starters),
  language: Type.Optional(Language),
});
export type CreateCorpusInput = Static<typeof CreateCorpusBody>;

export const UpdateCorpusBody = Type.Partial(Type.Object({ name: CreateCorpusBody.properties.name, description: Type.String({ maxLength: 2000 }), language: Language }));
export type UpdateCorpusInput = Static<typeof UpdateCorpusBody>;

export const DocumentCountsSchema = Type.Object({
  total: Type.Integer({ description: 'Documents that are not deleted' }),
  queued: Type.Integer(),
  extracting: Type.Integer(),
  chunking: Type.Integer(),
  embedding: Type.Integer(),
  indexed: Type.Integer(),
  failed: Type.Integer({ description: 'Documents whose processing failed (counted in their step too)' }),
});

export const CorpusSchema = Type.Object({
  id: Id('Corpus identifier'),
  organization_id: Id('Organization of the corpus'),
  name: Type.String(),
  description: Type.String(),
  default_agent_id: Type.Union([Id('The corpus’s default agent'), Type.Null()]),
  conversation_starters: Type.Array(Type.String()),
  language: Language,
  permission: PermissionSchema,
  retrieval_mode: Type.Union([Type.Literal('full_text'), Type.Literal('hybrid')], {
    description: 'full_text: BM25 only (no embedding model configured, or no vector index on this database); hybrid: full text and vectors fused',
  }),
  document_counts: DocumentCountsSchema,
  created_on: Timestamp('When the corpus was created'),
  created_by: Type.String({ description: 'E-mail of the creator' }),
  modified_on: Timestamp('When the corpus last changed'),
  modified_by: Type.String({ description: 'E-mail of the last user to change it' }),
});
export type CorpusView = Static<typeof CorpusSchema>;

export const listCorporaQuery = (pageSizeMax: number) =>
  PageQuery(pageSizeMax, { q: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'Text the name contains' })) });

export const PermissionEntrySchema = Type.Object({
  user_id: Id('User identifier'),
  email: Type.String(),
  permission: PermissionSchema,
  created_on: Timestamp('When it was granted'),
});

export const GrantBody = Type.Object({ user_id: Id('User to grant the permission to'), permission: PermissionSchema });

export const ConnectedAgentSchema = Type.Object({
  id: Id('Agent identifier'),
  name: Type.String(),
  status: Type.String(),
  connected_on: Timestamp('When the agent was connected'),
});

export const ConnectAgentBody = Type.Object({ agent_id: Id('Identifier of the agent') });

export const DefaultAgentBody = Type.Object({ agent_id: Type.Union([Id('Agent identifier'), Type.Null()], { description: 'null clears it' }) });
export const DefaultAgentSchema = Type.Object({ agent_id: Type.Union([Type.Integer(), Type.Null()]), name: Type.Union([Type.String(), Type.Null()]) });

export const StartersBody = Type.Object({ conversation_starters: Starters });
export const StartersSchema = Type.Object({ conversation_starters: Type.Array(Type.String()) });
export const GenerateStartersBody = Type.Object({ count: Type.Optional(Type.Integer({ minimum: 1, maximum: 20, default: 5 })) });

// The names these schemas have in the OpenAPI document, with an example each.
named('Corpus', CorpusSchema, {
  id: 5,
  organization_id: 1,
  name: 'Product manuals',
  description: 'Every manual we ship',
  default_agent_id: 7,
  conversation_starters: [],
  language: 'english',
  permission: 'manage',
  retrieval_mode: 'full_text',
  document_counts: { total: 2, queued: 0, extracting: 0, chunking: 0, embedding: 0, indexed: 2, failed: 0 },
  created_on: '2026-11-20T10:15:30.123Z',
  created_by: 'ada@example.com',
  modified_on: '2026-11-20T10:15:30.123Z',
  modified_by: 'ada@example.com',
});
named('DocumentCounts', DocumentCountsSchema);
named('CorpusPermissionEntry', PermissionEntrySchema);
named('ConnectedAgent', ConnectedAgentSchema);
named('CorpusDefaultAgent', DefaultAgentSchema);
named('ConversationStarters', StartersSchema);

// Examples of the request bodies, shown in the OpenAPI document.
withExamples(CreateCorpusBody, {
  name: 'Product manuals',
  description: 'Every manual we ship',
  conversation_starters: ['How do I assemble the Lyon table?', 'Can the chairs stay outside in winter?'],
  language: 'english',
});
withExamples(UpdateCorpusBody, { description: 'Every manual we ship, and the care guides' });
withExamples(GrantBody, { user_id: 14, permission: 'write' });
withExamples(ConnectAgentBody, { agent_id: 7 });
withExamples(DefaultAgentBody, { agent_id: 7 });
withExamples(StartersBody, { conversation_starters: ['How do I assemble the Lyon table?', 'Which oil suits teak?'] });
withExamples(GenerateStartersBody, { count: 5 });
