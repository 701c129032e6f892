// A guardrail as it is stored and configured: what the engine compiles. The HTTP schemas
// (src/modules/guardrails/guardrails.schemas.ts) describe the same configurations for clients.
import type { SearchLanguage } from '../search/languages.js';
import type { GuardrailAction, GuardrailStage, GuardrailType } from './guardrail.js';

export interface PiiConfig {
  /** PII_ENTITY_TYPES names; every type when absent. */
  entities?: string[] | undefined;
}

export interface BlockedTermsConfig {
  terms: string[];
  /** Regular expressions, each with a bounded reach and shown safe when saved. */
  patterns?: string[] | undefined;
}

export interface LengthConfig {
  max_characters?: number | undefined;
  max_tokens?: number | undefined;
}

export interface TopicConfig {
  allowed?: string[] | undefined;
  denied?: string[] | undefined;
  /** Cosine similarity from which a text is about a topic (embeddings only). */
  threshold?: number | undefined;
  /** Stemming and stop words of the keywords. */
  language?: SearchLanguage | undefined;
}

export interface GuardrailConfigs {
  pii: PiiConfig;
  blocked_terms: BlockedTermsConfig;
  length: LengthConfig;
  topic: TopicConfig;
}

interface DefinitionOf<T extends GuardrailType> {
  id: number;
  name: string;
  type: T;
  stages: GuardrailStage[];
  action: GuardrailAction;
  config: GuardrailConfigs[T];
}

export type GuardrailDefinition = { [T in GuardrailType]: DefinitionOf<T> }[GuardrailType];

export const GUARDRAIL_TYPES: readonly GuardrailType[] = ['pii', 'blocked_terms', 'length', 'topic'];
export const GUARDRAIL_STAGES: readonly GuardrailStage[] = ['input', 'context', 'output'];
export const GUARDRAIL_ACTIONS: readonly GuardrailAction[] = ['block', 'redact', 'mask', 'warn'];

/** The similarity from which a text is about a topic when the configuration names none. */
export const DEFAULT_TOPIC_THRESHOLD = 0.5;
