import { Type, type Static } from '@sinclair/typebox';
import { named, withExamples } from '../../http/schemas.js';
import { configurationFields } from '../agents/agents.schemas.js';

export const BuilderBody = Type.Object(
  {
    description: Type.String({ minLength: 1, maxLength: 4000, pattern: '\\S', description: 'What the agent should do, in plain language' }),
  },
  { description: 'Unknown fields are ignored' },
);
export type BuilderInput = Static<typeof BuilderBody>;

/**
 * How many conversation starters a draft has: what the model is asked for and what its answer is
 * checked against, within what an agent may have (configurationFields.conversation_starters).
 */
export const DRAFT_STARTERS = { min: 2, max: 5 } as const;

/** The fields of a draft: a valid create-agent body, ready to send to POST /api/v2/agents as it is. */
export const AgentDraftSchema = named(
  'AgentDraft',
  Type.Object({
    name: configurationFields.name,
    description: configurationFields.description,
    instructions: configurationFields.instructions,
    conversation_starters: Type.Array(configurationFields.conversation_starters.items, {
      minItems: DRAFT_STARTERS.min,
      maxItems: DRAFT_STARTERS.max,
      description: `${DRAFT_STARTERS.min} to ${DRAFT_STARTERS.max} questions a user might open a conversation with`,
    }),
    corpus_ids: configurationFields.corpus_ids,
    tool_ids: configurationFields.tool_ids,
    guardrail_ids: configurationFields.guardrail_ids,
  }),
);
export type AgentDraft = Static<typeof AgentDraftSchema>;

export const BuilderUsageSchema = Type.Object(
  {
    model: Type.String(),
    llm_configuration_id: Type.Integer(),
    prompt_tokens: Type.Integer({ minimum: 0 }),
    completion_tokens: Type.Integer({ minimum: 0 }),
    tokens_estimated: Type.Boolean({ description: 'The provider gave no counts; they were counted here' }),
    cost: Type.Union([Type.Number({ minimum: 0 }), Type.Null()], { description: 'USD; null when the configuration has no prices' }),
    model_calls: Type.Integer({ minimum: 1, description: '2 when the first answer needed a repair round' }),
  },
  { description: 'The model calls the draft took, summed' },
);

export const BuilderResultSchema = named(
  'AgentBuilderResult',
  Type.Object({
    draft: AgentDraftSchema,
    drafted_by: Type.Union([Type.Literal('model'), Type.Literal('rules')], {
      description: "model: the organization's default LLM configuration; rules: the rule-based drafter (no model configured)",
    }),
    dropped_references: Type.Integer({
      minimum: 0,
      description: 'How many corpus, tool or guardrail ids the model named that the caller may not use (left out, never shown)',
    }),
    usage: Type.Union([BuilderUsageSchema, Type.Null()], { description: 'null for the rule-based drafter' }),
  }),
);
export type BuilderResult = Static<typeof BuilderResultSchema>;

// Examples of the request bodies, shown in the OpenAPI document.
withExamples(BuilderBody, { description: 'An assistant for our support team that answers questions about returns and refunds from the product manuals, politely and briefly.' });
