// What a read shows of a guardrail: its settings parsed back from their JSON, the audit fields as e-mails.
import type { GuardrailDefinition } from '../../guardrails/index.js';
import type { GuardrailStoredRow, GuardrailWithAudit } from './guardrails.repo.js';
import type { GuardrailView } from './guardrails.schemas.js';

/** A stored guardrail as the engine compiles it. */
export function definitionOf(row: GuardrailStoredRow): GuardrailDefinition {
  return {
    id: row.id,
    name: row.name,
    type: row.type,
    stages: JSON.parse(row.stages),
    action: row.action,
    config: JSON.parse(row.config),
  } as GuardrailDefinition;
}

export function presentGuardrail(row: GuardrailWithAudit): GuardrailView {
  const definition = definitionOf(row);
  return {
    id: row.id,
    organization_id: row.organization_id,
    name: row.name,
    type: row.type,
    stages: definition.stages,
    action: row.action,
    config: definition.config as unknown as Record<string, unknown>,
    created_on: row.created_on,
    created_by: row.created_by_email,
    modified_on: row.modified_on,
    modified_by: row.modified_by_email,
  };
}
