// The door of the guardrails engine: what the rest of the server (the guardrails resource, the runtime)
// may use of it. Everything else under src/guardrails is the engine's own (eslint.config.js).
export { agentGuardrails } from './agent-guardrails.js';
export { applyGuardrails } from './apply.js';
export type { CompiledGuardrail } from './compile.js';
export { compileGuardrail } from './compile.js';
export type { GuardrailConfigs, GuardrailDefinition } from './definition.js';
export { GUARDRAIL_ACTIONS, GUARDRAIL_STAGES, GUARDRAIL_TYPES } from './definition.js';
export type { AgentGuardrails, GuardrailStage, GuardrailType, GuardrailVerdict, StageResult, StreamingGuard } from './guardrail.js';
export { checkPatterns } from './pattern-safety.js';
export { PATTERN_FLAGS } from './pattern-scan.js';
export { PII_ENTITY_TYPES } from './pii/detect.js';
export { prepareLexicon as preparePiiLexicon } from './pii/lexicon.js';
export { regexReach } from './regex-reach.js';
export { foldForTerms, foldString } from './text-folding.js';
export { topicPhrase } from './topic.js';
