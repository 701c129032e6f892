// An agent's configuration: the fields a history record snapshots and a restore copies back.
// Status is recorded in each snapshot for reference but is not configuration: restoring last
// week's instructions must not put a deactivated agent back into service.
import type { AgentStatus } from '../../db/schema.js';

export interface AgentConfiguration {
  name: string;
  description: string;
  instructions: string;
  model_name: string | null;
  temperature: number;
  max_tokens: number;
  conversation_starters: string[];
  alias: string | null;
}

export interface AgentSnapshot extends AgentConfiguration {
  status: AgentStatus;
}

export const CONFIGURATION_FIELDS = [
  'name',
  'description',
  'instructions',
  'model_name',
  'temperature',
  'max_tokens',
  'conversation_starters',
  'alias',
] as const satisfies readonly (keyof AgentConfiguration)[];

export const DEFAULT_CONFIGURATION: Omit<AgentConfiguration, 'name'> = {
  description: '',
  instructions: '',
  model_name: null,
  temperature: 0.7,
  max_tokens: 1024,
  conversation_starters: [],
  alias: null,
};

/** A JSON list of strings as stored in a text column (an agent's or a corpus's starters, a document's tags). */
export function parseStringArray(text: string): string[] {
  const value: unknown = JSON.parse(text);
  return Array.isArray(value) ? value.map(String) : [];
}

export function snapshotOf(agent: AgentSnapshot): AgentSnapshot {
  return {
    name: agent.name,
    description: agent.description,
    instructions: agent.instructions,
    model_name: agent.model_name,
    temperature: agent.temperature,
    max_tokens: agent.max_tokens,
    conversation_starters: agent.conversation_starters,
    alias: agent.alias,
    status: agent.status,
  };
}

/**
 * A snapshot as it was stored. Snapshots written before a configuration field existed lack it; the
 * field then takes its default, which is what the agent had before the field was introduced.
 */
export function completeSnapshot(stored: Partial<AgentSnapshot>): AgentSnapshot {
  return { ...DEFAULT_CONFIGURATION, status: 'draft', name: '', ...stored };
}

export function configurationOf(snapshot: AgentSnapshot): AgentConfiguration {
  const configuration = {} as Record<string, unknown>;
  for (const field of CONFIGURATION_FIELDS) configuration[field] = snapshot[field];
  return configuration as unknown as AgentConfiguration;
}

export interface FieldDifference {
  field: string;
  record: unknown;
  current: unknown;
}

/** The configuration fields whose value in a record differs from the agent's current one. */
export function differences(record: AgentSnapshot, current: AgentSnapshot): FieldDifference[] {
  return [...CONFIGURATION_FIELDS, 'status' as const]
    .filter((field) => JSON.stringify(record[field]) !== JSON.stringify(current[field]))
    .map((field) => ({ field, record: record[field], current: current[field] }));
}
