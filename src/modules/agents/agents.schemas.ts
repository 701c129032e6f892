import { Type, type Static } from '@sinclair/typebox';
import { Id, PageQuery, Timestamp, named, withExamples } from '../../http/schemas.js';

export const AgentStatusSchema = Type.Union([Type.Literal('draft'), Type.Literal('active'), Type.Literal('inactive')], {
  description: 'draft until first activated; active agents answer; inactive ones do not',
});

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) => Type.Union([schema, Type.Null()]);

/** The configuration fields a client sets; history snapshots and restores cover exactly these. */
export const configurationFields = {
  name: Type.String({ minLength: 1, maxLength: 200, pattern: '\\S', description: 'Unique among the organization’s agents' }),
  description: Type.String({ maxLength: 2000 }),
  instructions: Type.String({ maxLength: 100_000, description: 'The system prompt' }),
  model_name: Nullable(Type.String({ minLength: 1, maxLength: 200, description: 'Model to answer with; null for the organization’s default' })),
  temperature: Type.Number({ minimum: 0, maximum: 2 }),
  max_tokens: Type.Integer({ minimum: 1, maximum: 1_000_000, description: 'Most tokens an answer may take' }),
  conversation_starters: Type.Array(Type.String({ minLength: 1, maxLength: 500 }), { maxItems: 20 }),
  alias: Nullable(Type.String({ pattern: '^[a-z0-9][a-z0-9-]{0,62}$', description: 'Short lower-case handle' })),
  llm_configuration_id: Nullable(Id('LLM configuration that answers; null for the organization’s default (with none, the built-in offline answerer)')),
  corpus_ids: Type.Array(Id('Corpus identifier'), {
    maxItems: 100,
    description: 'Corpora the agent answers from. Adding one takes read permission on it; each asker sees passages only of those they may read',
  }),
  tool_ids: Type.Array(Id('Tool identifier'), {
    maxItems: 50,
    description: 'Tools of the organization the agent may call (a disabled or deleted one is skipped when it answers)',
  }),
  guardrail_ids: Type.Array(Id('Guardrail identifier'), {
    maxItems: 50,
    description: 'Guardrails of the organization the agent answers under, at the stages each names',
  }),
  retrieval: named(
    'RetrievalSettings',
    Type.Object({
      passages: Type.Integer({ minimum: 1, maximum: 50, default: 5, description: 'Most passages put before the model for one answer' }),
      min_score: Type.Number({ minimum: 0, default: 0, description: 'Passages scoring lower are left out' }),
    }),
  ),
};

/** Ownership, not configuration: outside history snapshots, and a restore leaves it as it is. */
const ownershipFields = {
  team_id: Nullable(Id('Team the agent belongs to; null for none. Setting it takes lead or editor in that team (or owner, admin)')),
  project_id: Nullable(Id('Project the agent belongs to; null for none')),
};

export const CreateAgentBody = Type.Object(
  {
    name: configurationFields.name,
    description: Type.Optional(configurationFields.description),
    instructions: Type.Optional(configurationFields.instructions),
    model_name: Type.Optional(configurationFields.model_name),
    temperature: Type.Optional(configurationFields.temperature),
    max_tokens: Type.Optional(configurationFields.max_tokens),
    conversation_starters: Type.Optional(configurationFields.conversation_starters),
    alias: Type.Optional(configurationFields.alias),
    llm_configuration_id: Type.Optional(configurationFields.llm_configuration_id),
    corpus_ids: Type.Optional(configurationFields.corpus_ids),
    retrieval: Type.Optional(configurationFields.retrieval),
    tool_ids: Type.Optional(configurationFields.tool_ids),
    guardrail_ids: Type.Optional(configurationFields.guardrail_ids),
    status: Type.Optional(AgentStatusSchema),
    team_id: Type.Optional(ownershipFields.team_id),
    project_id: Type.Optional(ownershipFields.project_id),
  },
  { description: 'Fields the server owns (id, version, organization_id, created_by…) are ignored if sent' },
);
export type CreateAgentInput = Static<typeof CreateAgentBody>;

export const UpdateAgentBody = Type.Partial(Type.Object({ ...configurationFields, ...ownershipFields }), {
  description: 'Only the fields sent change. Status changes through activate and deactivate; server-owned fields are ignored.',
});
export type UpdateAgentInput = Static<typeof UpdateAgentBody>;

export const IfMatchHeaders = Type.Object({
  'if-match': Type.Optional(Type.String({ description: 'The version the change is based on: the ETag of GET ("3-…") or the bare version ("3") the body and the answers of writes give' })),
});

/** Set by the server when an image is generated (POST /api/v2/agents/{agent_id}/image); sent in a body, it is ignored. */
export const ImageKeySchema = Nullable(
  Type.String({ description: 'Names the agent’s image (GET /api/v2/agents/{agent_id}/image serves it); null: none. Part of the configuration: a restore brings the image back' }),
);

export const AgentSchema = Type.Object({
  id: Id('Agent identifier'),
  organization_id: Id('Organization of the agent'),
  ...configurationFields,
  image_key: ImageKeySchema,
  status: AgentStatusSchema,
  ...ownershipFields,
  version: Type.Integer({ minimum: 1, description: 'Increments on every change; also the ETag' }),
  created_on: Timestamp('When the agent was created'),
  created_by: Type.String({ description: 'E-mail of the user who created the agent' }),
  modified_on: Timestamp('When the agent last changed'),
  modified_by: Type.String({ description: 'E-mail of the user who last changed the agent' }),
});
export type AgentView = Static<typeof AgentSchema>;

const SortSchema = Type.Union(
  ['name', '-name', 'created_on', '-created_on', 'modified_on', '-modified_on', 'id', '-id'].map((value) => Type.Literal(value)),
  { description: 'Field to sort by; a leading "-" sorts descending. Default -modified_on.' },
);

export const listAgentsQuery = (pageSizeMax: number) =>
  PageQuery(pageSizeMax, {
    q: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'Text the name or description contains, ignoring case' })),
    status: Type.Optional(AgentStatusSchema),
    project_id: Type.Optional(Id('Only agents of this project')),
    team_id: Type.Optional(Id('Only agents of this team')),
    sort: Type.Optional(SortSchema),
  });

export const filterAgentsBody = (pageSizeMax: number) =>
  withExamples(
    Type.Object({
      q: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
      status: Type.Optional(Type.Array(AgentStatusSchema, { maxItems: 3 })),
      ids: Type.Optional(Type.Array(Id('Agent identifier'), { maxItems: 1000 })),
      created_by: Type.Optional(Type.Array(Id('User identifier'), { maxItems: 1000, description: 'Creators, by user id' })),
      team_ids: Type.Optional(Type.Array(Id('Team identifier'), { maxItems: 1000, description: 'Agents of any of these teams' })),
      project_ids: Type.Optional(Type.Array(Id('Project identifier'), { maxItems: 1000, description: 'Agents of any of these projects' })),
      created_after: Type.Optional(Timestamp('Created at or after')),
      created_before: Type.Optional(Timestamp('Created before')),
      modified_after: Type.Optional(Timestamp('Changed at or after')),
      modified_before: Type.Optional(Timestamp('Changed before')),
      sort: Type.Optional(SortSchema),
      page: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000, default: 1 })),
      page_size: Type.Optional(Type.Integer({ minimum: 1, maximum: pageSizeMax, default: 20 })),
    }),
    { q: 'support', status: ['active'], team_ids: [3], modified_after: '2026-11-01T00:00:00.000Z', sort: '-modified_on', page: 1, page_size: 20 },
  );
export type FilterAgentsInput = Static<ReturnType<typeof filterAgentsBody>>;

export const AgentIdBody = Type.Object({ agent_id: Id('Agent identifier') });

export const AgentStatusView = Type.Object({
  agent_id: Id('Agent identifier'),
  status: AgentStatusSchema,
  version: Type.Integer(),
  is_available: Type.Boolean({ description: 'Whether the agent answers questions now' }),
  corpora: Type.Array(
    Type.Object({ corpus_id: Id('Corpus identifier'), name: Type.String(), status: Type.String() }),
    { description: 'Corpora the agent draws on, with their state' },
  ),
});

export const TeamRoleQuery = Type.Object({
  user_id: Type.Optional(Id('The user to answer for; the caller when omitted')),
});

export const TeamRoleSchema = Type.Object({
  agent_id: Id('Agent identifier'),
  team_id: Type.Union([Id('Team of the agent'), Type.Null()], { description: 'null: the agent belongs to no team' }),
  user_id: Id('The user answered for'),
  organization_role: Type.String({ description: 'owner, admin, member or viewer' }),
  team_role: Type.Union([Type.Literal('lead'), Type.Literal('editor'), Type.Literal('viewer'), Type.Null()], {
    description: "The user's role in the agent's team; null when the agent has no team or the user is not in it",
  }),
  can_change: Type.Boolean({ description: 'Whether the user may update, activate, deactivate, checkpoint and restore the agent' }),
  can_delete: Type.Boolean({ description: 'Whether the user may delete the agent' }),
});

/** The list filters that agents by team, by project and accessible take. */
export const scopedAgentsQuery = (pageSizeMax: number) =>
  PageQuery(pageSizeMax, {
    q: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'Text the name or description contains, ignoring case' })),
    status: Type.Optional(AgentStatusSchema),
    sort: Type.Optional(SortSchema),
  });

// The names these schemas have in the OpenAPI document, with an example each.
named('Agent', AgentSchema, {
  id: 7,
  organization_id: 1,
  name: 'Support assistant',
  description: 'Answers questions about our products',
  instructions: 'You answer from the product manuals, briefly.',
  model_name: null,
  temperature: 0.2,
  max_tokens: 1024,
  conversation_starters: ['How do I reset my password?'],
  alias: 'support',
  llm_configuration_id: 2,
  corpus_ids: [5],
  tool_ids: [],
  guardrail_ids: [],
  image_key: null,
  retrieval: { passages: 5, min_score: 0 },
  status: 'active',
  team_id: 3,
  project_id: null,
  version: 4,
  created_on: '2026-11-20T10:15:30.123Z',
  created_by: 'ada@example.com',
  modified_on: '2026-11-20T10:15:30.123Z',
  modified_by: 'ada@example.com',
});
named('AgentStatus', AgentStatusView, {
  agent_id: 7,
  status: 'active',
  version: 4,
  is_available: true,
  corpora: [{ corpus_id: 5, name: 'Product manuals', status: 'ready' }],
});
named('AgentTeamRole', TeamRoleSchema);

// Examples of the request bodies, shown in the OpenAPI document.
withExamples(CreateAgentBody, {
  name: 'Support assistant',
  description: 'Answers customers’ questions about returns and refunds',
  instructions: 'You answer from the product manuals, briefly and politely. Cite the passages you use.',
  temperature: 0.2,
  conversation_starters: ['How do I return an item?', 'When will I get my refund?'],
  alias: 'support-bot',
  corpus_ids: [5],
  retrieval: { passages: 5, min_score: 0 },
  team_id: 3,
});
withExamples(UpdateAgentBody, { instructions: 'You answer from the product manuals in two sentences at most.', temperature: 0.3 });
withExamples(AgentIdBody, { agent_id: 7 });
