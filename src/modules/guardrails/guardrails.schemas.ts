import { Type, type Static } from '@sinclair/typebox';
import { AuditFields, Id, IdParams, PageQuery, named, withExamples } from '../../http/schemas.js';
import { GUARDRAIL_ACTIONS, GUARDRAIL_STAGES, GUARDRAIL_TYPES, PII_ENTITY_TYPES } from '../../guardrails/index.js';
import { SEARCH_LANGUAGES } from '../../search/languages.js';

/** Bounds of one guardrail's settings: a request body stays under the JSON limit anyway. */
export const LIMITS = {
  terms: 100_000,
  termCharacters: 200,
  patterns: 50,
  patternCharacters: 500,
  /** The longest stretch a pattern may read from where a match starts (what a stream holds back for it). */
  patternReach: 1_000,
  topics: 100,
  topicCharacters: 200,
  testCharacters: 200_000,
} as const;

const Type_ = Type.Union(
  GUARDRAIL_TYPES.map((type) => Type.Literal(type)),
  { description: 'pii (personal data), blocked_terms (terms and patterns), length (characters or tokens), topic (allowed or denied topics)' },
);
const Stage = Type.Union(
  GUARDRAIL_STAGES.map((stage) => Type.Literal(stage)),
  { description: 'input: the question; context: retrieved passages and tool results; output: the answer, as it streams' },
);
const Stages = Type.Array(Stage, { minItems: 1, maxItems: 3, uniqueItems: true, description: 'The stages the guardrail watches' });
const Action = Type.Union(
  GUARDRAIL_ACTIONS.map((action) => Type.Literal(action)),
  { description: 'block: the text is refused; redact: what was found is replaced ([EMAIL_ADDRESS], [REDACTED]); mask: its characters become *; warn: reported only. See docs/guardrails.md' },
);
const Name = Type.String({ minLength: 1, maxLength: 200, pattern: '\\S', description: 'Unique among the organization’s guardrails' });
const Config = Type.Record(Type.String(), Type.Unknown(), {
  description:
    'The type’s settings. pii: { entities? } (PiiConfig); blocked_terms: { terms, patterns? } (BlockedTermsConfig); length: { max_characters?, max_tokens? } (LengthConfig); topic: { allowed?, denied?, threshold?, language? } (TopicConfig).',
});

// The settings of each type, checked when a guardrail is written (guardrail-config.ts).
export const PiiConfig = named(
  'PiiConfig',
  Type.Object(
    {
      entities: Type.Optional(
        Type.Array(Type.Union(PII_ENTITY_TYPES.map((entity) => Type.Literal(entity))), {
          minItems: 1,
          uniqueItems: true,
          description: `The entity types to look for, every one when absent: ${PII_ENTITY_TYPES.join(', ')}`,
        }),
      ),
    },
    { additionalProperties: false },
  ),
);
export const BlockedTermsConfig = named(
  'BlockedTermsConfig',
  Type.Object(
    {
      terms: Type.Array(Type.String({ minLength: 1, maxLength: LIMITS.termCharacters }), {
        maxItems: LIMITS.terms,
        description: 'Words or phrases, matched whole words, ignoring case, accents, look-alike letters (Cyrillic а for a, fullwidth, 0 for o) and invisible characters',
      }),
      patterns: Type.Optional(
        Type.Array(Type.String({ minLength: 1, maxLength: LIMITS.patternCharacters }), {
          maxItems: LIMITS.patterns,
          description: `JavaScript regular expressions, matched ignoring case. Each must be bounded (reads at most ${LIMITS.patternReach} characters from where it matches: {1,20} rather than +) and be shown unable to backtrack catastrophically`,
        }),
      ),
    },
    { additionalProperties: false },
  ),
);
const Limit = (description: string) => Type.Integer({ minimum: 1, maximum: 10_000_000, description });
export const LengthConfig = named(
  'LengthConfig',
  Type.Object(
    {
      max_characters: Type.Optional(Limit('Most characters (UTF-16 code units) a text may have')),
      max_tokens: Type.Optional(Limit('Most tokens (cl100k_base) a text may have')),
    },
    { additionalProperties: false },
  ),
);
const Topics = (description: string) => Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: LIMITS.topicCharacters }), { maxItems: LIMITS.topics, description }));
export const TopicConfig = named(
  'TopicConfig',
  Type.Object(
    {
      allowed: Topics('Topics a text must be about: a text that mentions none (and, with an embedder, is not close to one) is off topic'),
      denied: Topics('Topics a text must not be about: mentioned (keywords, stemmed) or, with an embedder, close enough in meaning'),
      threshold: Type.Optional(Type.Number({ minimum: 0, maximum: 1, description: 'Cosine similarity from which a text is about a topic (embeddings only), 0.5 when absent' })),
      language: Type.Optional(Type.Union(SEARCH_LANGUAGES.map((language) => Type.Literal(language)), { description: 'Stemming and stop words of the keywords, english when absent' })),
    },
    { additionalProperties: false },
  ),
);

export const GuardrailSchema = named(
  'Guardrail',
  Type.Object({
    id: Id('Guardrail identifier'),
    organization_id: Id('Organization of the guardrail'),
    name: Type.String(),
    type: Type_,
    stages: Type.Array(Stage),
    action: Action,
    config: Type.Record(Type.String(), Type.Unknown(), { description: 'The type’s settings, as written' }),
    ...AuditFields('guardrail'),
  }),
  {
    id: 4,
    organization_id: 1,
    name: 'No card numbers out',
    type: 'pii',
    stages: ['output'],
    action: 'mask',
    config: { entities: ['CREDIT_CARD', 'IBAN_CODE'] },
    created_on: '2026-11-23T10:15:30.123Z',
    created_by: 'owner@example.com',
    modified_on: '2026-11-23T10:15:30.123Z',
    modified_by: 'owner@example.com',
  },
);
export type GuardrailView = Static<typeof GuardrailSchema>;

export const CreateGuardrailBody = Type.Object(
  { name: Name, type: Type_, stages: Stages, action: Action, config: Type.Optional(Config) },
  { additionalProperties: false },
);
export type CreateGuardrailInput = Static<typeof CreateGuardrailBody>;

export const UpdateGuardrailBody = Type.Partial(CreateGuardrailBody, {
  additionalProperties: false,
  description: 'Only the fields sent change. A new type needs its config sent with it.',
});
export type UpdateGuardrailInput = Static<typeof UpdateGuardrailBody>;

export const GuardrailParams = IdParams('guardrail_id');

export function listGuardrailsQuery(pageSizeMax: number) {
  return PageQuery(pageSizeMax, { type: Type.Optional(Type_) });
}

export const TestGuardrailBody = Type.Object(
  {
    text: Type.String({ maxLength: LIMITS.testCharacters, description: 'The text to apply the guardrail to' }),
    stage: Type.Optional(Stage),
  },
  { additionalProperties: false },
);
export type TestGuardrailInput = Static<typeof TestGuardrailBody>;

const FindingSchema = Type.Object({
  entity_type: Type.String({ description: 'What was found: a PII entity type (EMAIL_ADDRESS…), BLOCKED_TERM, BLOCKED_PATTERN, LENGTH, DENIED_TOPIC or OFF_TOPIC' }),
  start: Type.Integer({ minimum: 0, description: 'Offset of its first character in the text sent (UTF-16 code units)' }),
  end: Type.Integer({ minimum: 0, description: 'Offset just after its last character' }),
  rule: Type.String({ description: 'Which rule found it (email, luhn, term, pattern, max_characters, keyword, embedding…)' }),
});

export const GuardrailTestResultSchema = named(
  'GuardrailTestResult',
  Type.Object({
    action: Type.Union([...GUARDRAIL_ACTIONS.map((action) => Type.Literal(action)), Type.Literal('none')], {
      description: 'The guardrail’s action when it found something; none when it found nothing',
    }),
    text: Type.String({ description: 'The text after the guardrail (redacted, masked or cut; a blocked text is redacted where it was found)' }),
    findings: Type.Array(FindingSchema),
    latency_ms: Type.Integer({ minimum: 0, description: 'Time the guardrail took' }),
    blocked: Type.Boolean({ description: 'Whether the text would be refused' }),
    stage: Stage,
  }),
  {
    action: 'redact',
    text: 'Write to [EMAIL_ADDRESS] today',
    findings: [{ entity_type: 'EMAIL_ADDRESS', start: 9, end: 26, rule: 'email' }],
    latency_ms: 1,
    blocked: false,
    stage: 'input',
  },
);
export type GuardrailTestResult = Static<typeof GuardrailTestResultSchema>;

// Examples of the request bodies, shown in the OpenAPI document.
withExamples(CreateGuardrailBody, {
  name: 'No personal data in answers',
  type: 'pii',
  stages: ['context', 'output'],
  action: 'mask',
  config: { entities: ['EMAIL_ADDRESS', 'PHONE_NUMBER', 'IBAN_CODE'] },
});
withExamples(UpdateGuardrailBody, { action: 'redact', stages: ['input', 'context', 'output'] });
withExamples(TestGuardrailBody, { text: 'Write to bob.smith@example.com or call +33 6 12 34 56 78 about the refund.', stage: 'output' });
