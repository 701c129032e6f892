import { Type, type Static } from '@sinclair/typebox';
import { AuditFields, Id, named, withExamples } from '../../http/schemas.js';
import { OrganizationParams } from '../organizations/organizations.schemas.js';

export const LLM_PROVIDERS = ['openai', 'azure_openai', 'anthropic', 'openai_compatible'] as const;

const Provider = Type.Union(
  LLM_PROVIDERS.map((provider) => Type.Literal(provider)),
  { description: 'openai, azure_openai, anthropic, or openai_compatible (vLLM, Ollama, LM Studio, llama.cpp…)' },
);
const Name = Type.String({ minLength: 1, maxLength: 200, pattern: '\\S', description: 'Unique among the organization’s LLM configurations' });
const Model = Type.String({ minLength: 1, maxLength: 200, pattern: '\\S', description: 'The model (for Azure OpenAI: the deployment name)' });
const BaseUrl = Type.Union([Type.String({ minLength: 1, maxLength: 2000, description: 'An http(s) URL' }), Type.Null()], {
  description: 'Where the provider answers; null: the provider’s own. Required for azure_openai and openai_compatible.',
});
const ApiVersion = Type.Union([Type.String({ minLength: 1, maxLength: 50, pattern: '^[A-Za-z0-9._-]+$' }), Type.Null()], {
  description: 'Azure OpenAI API version (e.g. 2024-10-21); null: Azure’s v1 API',
});
const Price = (what: string) =>
  Type.Union([Type.Number({ minimum: 0, maximum: 1_000_000 }), Type.Null()], { description: `USD per million ${what} tokens; null: unknown (cost is then null)` });
const ContextWindow = Type.Union([Type.Integer({ minimum: 1, maximum: 100_000_000 }), Type.Null()], { description: 'Tokens the model takes in at most; null: unknown' });
/** Most tokens an answer may take when the configuration does not say (OpenAI's max_tokens / max_output_tokens). */
export const DEFAULT_MAX_ANSWER_TOKENS = 4096;
/** Above the longest answer of today's models (128k), below what would let one answer fill the database. */
export const MAX_ANSWER_TOKENS_LIMIT = 200_000;
const MaxAnswerTokens = Type.Integer({
  minimum: 1,
  maximum: MAX_ANSWER_TOKENS_LIMIT,
  description:
    `Most tokens one answer may take (${DEFAULT_MAX_ANSWER_TOKENS} unless set): sent to the provider as its max tokens, and enforced by the server on what ` +
    'arrives (about 4 characters a token): a longer answer is cut there, kept and billed up to the limit, with finish_reason length. ' +
    'An agent’s own max_tokens, when lower, wins.',
});
const ApiKey = Type.Union([Type.String({ minLength: 1, maxLength: 4000, pattern: '^\\S+$' }), Type.Null()], {
  description: 'Write-only: stored sealed with the server’s secret key and never returned; null removes it. No white space.',
});

const managerOnly = (description: string) => `${description} (shown to owners and admins only)`;

/** Members and viewers see id, name, provider, model, is_default, context_window and max_answer_tokens; the rest is for owners and admins. */
export const LlmConfigurationSchema = Type.Object({
  id: Id('LLM configuration identifier'),
  name: Name,
  provider: Provider,
  model: Model,
  is_default: Type.Boolean({ description: 'Whether agents without a configuration of their own answer with this one; one at most is' }),
  context_window: ContextWindow,
  max_answer_tokens: MaxAnswerTokens,
  organization_id: Type.Optional(Id(managerOnly('Organization of the configuration'))),
  base_url: Type.Optional(Type.Union([Type.String(), Type.Null()], { description: managerOnly('Where the provider answers; null: the provider’s own') })),
  api_version: Type.Optional(Type.Union([Type.String(), Type.Null()], { description: managerOnly('Azure OpenAI API version') })),
  api_key_hint: Type.Optional(Type.Union([Type.String(), Type.Null()], { description: managerOnly('The key’s first and last characters, e.g. sk-…abcd; null when none') })),
  input_price_per_million: Type.Optional(Price('input')),
  output_price_per_million: Type.Optional(Price('output')),
  created_on: Type.Optional(AuditFields('LLM configuration').created_on),
  created_by: Type.Optional(AuditFields('LLM configuration').created_by),
  modified_on: Type.Optional(AuditFields('LLM configuration').modified_on),
  modified_by: Type.Optional(AuditFields('LLM configuration').modified_by),
});
export type LlmConfigurationView = Static<typeof LlmConfigurationSchema>;

export const CreateLlmConfigurationBody = Type.Object({
  name: Name,
  provider: Provider,
  model: Model,
  base_url: Type.Optional(BaseUrl),
  api_version: Type.Optional(ApiVersion),
  api_key: Type.Optional(ApiKey),
  input_price_per_million: Type.Optional(Price('input')),
  output_price_per_million: Type.Optional(Price('output')),
  context_window: Type.Optional(ContextWindow),
  max_answer_tokens: Type.Optional(MaxAnswerTokens),
  is_default: Type.Optional(Type.Boolean({ description: 'true: make it the default (the previous default stops being one); the first configuration is the default anyway' })),
});
export type CreateLlmConfigurationInput = Static<typeof CreateLlmConfigurationBody>;

export const UpdateLlmConfigurationBody = Type.Partial(CreateLlmConfigurationBody, {
  description: 'Only the fields sent change. Without api_key the key is kept; api_key: null removes it.',
});
export type UpdateLlmConfigurationInput = Static<typeof UpdateLlmConfigurationBody>;

export const LlmConfigurationParams = Type.Composite([OrganizationParams, Type.Object({ llm_configuration_id: Id('LLM configuration identifier') })]);

export const ERROR_CLASSES = ['auth', 'not_found', 'rate_limited', 'unreachable', 'timeout', 'bad_response'] as const;

export const LlmTestResultSchema = Type.Object({
  ok: Type.Boolean({ description: 'Whether the model answered' }),
  latency_ms: Type.Integer({ minimum: 0, description: 'From sending the request to the end of the answer or the failure' }),
  model: Type.String({ description: 'The model asked' }),
  error_class: Type.Union([...ERROR_CLASSES.map((errorClass) => Type.Literal(errorClass)), Type.Null()], { description: 'Why it failed; null when ok' }),
  message: Type.String({ description: 'What happened, in a sentence (never the key)' }),
});
export type LlmTestResult = Static<typeof LlmTestResultSchema>;

const EXAMPLE_AUDIT = {
  created_on: '2026-11-20T10:15:30.123Z',
  created_by: 'owner@example.com',
  modified_on: '2026-11-20T10:15:30.123Z',
  modified_by: 'owner@example.com',
};

// The names these schemas have in the OpenAPI document, with examples.
named('LlmConfiguration', LlmConfigurationSchema, {
  id: 3,
  organization_id: 1,
  name: 'Local Llama',
  provider: 'openai_compatible',
  model: 'llama3.1:8b',
  base_url: 'http://127.0.0.1:11434/v1',
  api_version: null,
  api_key_hint: null,
  input_price_per_million: 0,
  output_price_per_million: 0,
  context_window: 131072,
  max_answer_tokens: 4096,
  is_default: true,
  ...EXAMPLE_AUDIT,
});
named('LlmTestResult', LlmTestResultSchema, { ok: false, latency_ms: 212, model: 'gpt-4o-mini', error_class: 'auth', message: 'The model provider at https://api.openai.com/v1 refused the credentials (HTTP 401): Incorrect API key provided' });

// Examples of the request bodies, shown in the OpenAPI document.
withExamples(CreateLlmConfigurationBody, {
  name: 'OpenAI GPT-4o mini',
  provider: 'openai',
  model: 'gpt-4o-mini',
  api_key: 'sk-proj-3x4mpl3K3yF0rD0cs0nly',
  input_price_per_million: 0.15,
  output_price_per_million: 0.6,
  context_window: 128000,
  max_answer_tokens: 4096,
  is_default: true,
});
withExamples(UpdateLlmConfigurationBody, { max_answer_tokens: 2048, output_price_per_million: 0.6 });
