// What a read shows of an LLM configuration: never the sealed key, only its hint; to members and
// viewers only what tells the models apart.
import type { Subject } from '../auth/roles.js';
import type { LlmConfigurationWithAudit } from './llm-configurations.repo.js';
import type { LlmConfigurationView } from './llm-configurations.schemas.js';
import { llmPolicy } from './llm.policy.js';

export function presentLlmConfiguration(row: LlmConfigurationWithAudit, viewer: Subject): LlmConfigurationView {
  const summary = {
    id: row.id,
    name: row.name,
    provider: row.provider,
    model: row.model,
    is_default: row.is_default === 1,
    context_window: row.context_window,
    max_answer_tokens: row.max_answer_tokens,
  };
  if (!llmPolicy.seesSettings(viewer)) return summary;
  return {
    ...summary,
    organization_id: row.organization_id,
    base_url: row.base_url,
    api_version: row.api_version,
    api_key_hint: row.api_key_hint,
    input_price_per_million: row.input_price_per_million,
    output_price_per_million: row.output_price_per_million,
    created_on: row.created_on,
    created_by: row.created_by_email,
    modified_on: row.modified_on,
    modified_by: row.modified_by_email,
  };
}
