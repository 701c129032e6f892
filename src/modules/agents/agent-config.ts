// An agent's configuration: the fields a history record snapshots and a restore copies back.
// Status is recorded in each snapshot for reference but is not configuration: restoring last
// week's instructions must not put a deactivated agent back into service.
import type { AgentStatus } from '../../db/schema.js';

/** How passages are chosen for an answer. */
export interface RetrievalSettings {
  /** Most passages put before the model. */
  passages: number;
  /** Passages scoring lower are left out. */
  min_score: number;
}

export const DEFAULT_RETRIEVAL: RetrievalSettings = { passages: 5, min_score: 0 };

export interface AgentConfiguration {
  name: string;
  description: string;
  instructions: string;
  model_name: string | null;
  temperature: number;
  max_tokens: number;
  conversation_starters: string[];
  alias: string | null;
  /** null: the organization's default configuration (none: the offline answerer). */
  llm_configuration_id: number | null;
  /** The connected corpora, ascending. */
  corpus_ids: number[];
  retrieval: RetrievalSettings;
  /** The tools the agent may call, ascending. */
  tool_ids: number[];
  /** The guardrails it answers under, ascending. */
  guardrail_ids: number[];
  /** Blob-store key of its image (set by POST …/image, never by a client); null: none. */
  image_key: string | null;
}

export interface AgentSnapshot extends AgentConfiguration {
  status: AgentStatus;
}

/**
 * A snapshot as stored. Records written before connected corpora were part of an agent's
 * configuration do not know them: restoring one leaves the agent's corpora as they are.
 */
export type StoredSnapshot = Omit<AgentSnapshot, 'corpus_ids'> & { corpus_ids?: number[] };

export const CONFIGURATION_FIELDS = [
  'name',
  'description',
  'instructions',
  'model_name',
  'temperature',
  'max_tokens',
  'conversation_starters',
  'alias',
  'llm_configuration_id',
  'corpus_ids',
  'retrieval',
  'tool_ids',
  'guardrail_ids',
  'image_key',
] as const satisfies readonly (keyof AgentConfiguration)[];

/** The configuration fields a client sets in a create or update body; the image is made by the server. */
export const CLIENT_CONFIGURATION_FIELDS = CONFIGURATION_FIELDS.filter((field): field is Exclude<(typeof CONFIGURATION_FIELDS)[number], 'image_key'> => field !== 'image_key');

export const DEFAULT_CONFIGURATION: Omit<AgentConfiguration, 'name'> = {
  description: '',
  instructions: '',
  model_name: null,
  temperature: 0.7,
  max_tokens: 1024,
  conversation_starters: [],
  alias: null,
  llm_configuration_id: null,
  corpus_ids: [],
  retrieval: DEFAULT_RETRIEVAL,
  tool_ids: [],
  guardrail_ids: [],
  image_key: null,
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
    llm_configuration_id: agent.llm_configuration_id,
    corpus_ids: agent.corpus_ids,
    retrieval: agent.retrieval,
    tool_ids: agent.tool_ids,
    guardrail_ids: agent.guardrail_ids,
    image_key: agent.image_key,
    status: agent.status,
  };
}

/**
 * A snapshot as it was stored. Snapshots written before a configuration field existed lack it; the
 * field then takes its default, which is what the agent had before the field was introduced.
 */
export function completeSnapshot(stored: Partial<AgentSnapshot>): StoredSnapshot {
  const { corpus_ids: _unrecorded, ...defaults } = DEFAULT_CONFIGURATION;
  return { ...defaults, status: 'draft', name: '', ...stored, retrieval: { ...DEFAULT_RETRIEVAL, ...stored.retrieval } };
}

/** The configuration a restore copies back: every field the snapshot records. */
export function configurationOf(snapshot: StoredSnapshot): Partial<AgentConfiguration> {
  const configuration = {} as Record<string, unknown>;
  for (const field of CONFIGURATION_FIELDS) if (snapshot[field] !== undefined) configuration[field] = snapshot[field];
  return configuration as Partial<AgentConfiguration>;
}

export interface FieldDifference {
  field: string;
  record: unknown;
  current: unknown;
}

/** The configuration fields whose value in a record differs from the agent's current one (fields the record does not know are left out). */
export function differences(record: StoredSnapshot, current: AgentSnapshot): FieldDifference[] {
  return [...CONFIGURATION_FIELDS, 'status' as const]
    .filter((field) => record[field] !== undefined && JSON.stringify(record[field]) !== JSON.stringify(current[field]))
    .map((field) => ({ field, record: record[field], current: current[field] }));
}
