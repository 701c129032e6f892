// The agent as the form holds it while a person edits, and what of it is sent: on create the whole
// configuration, on save only what changed (PUT changes only the fields sent), so that a save never
// writes back a field the person did not touch.
import { ApiError } from '../../api/errors';
import type { AgentChange, AgentCreation } from './agentChanges';
import type { Agent } from './agentQueries';

/** A conversation starter with a key of its own, so that React keeps each input while they move. */
export interface Starter {
  key: string;
  text: string;
}

export interface AgentDraft {
  name: string;
  description: string;
  instructions: string;
  llmConfigurationId: number | null;
  corpusIds: number[];
  toolIds: number[];
  guardrailIds: number[];
  starters: Starter[];
  teamId: number | null;
  projectId: number | null;
}

let starterSequence = 0;

export function newStarter(text = ''): Starter {
  starterSequence += 1;
  return { key: `starter-${starterSequence}`, text };
}

export function draftOf(agent: Agent): AgentDraft {
  return {
    name: agent.name,
    description: agent.description,
    instructions: agent.instructions,
    llmConfigurationId: agent.llm_configuration_id,
    corpusIds: agent.corpus_ids,
    toolIds: agent.tool_ids,
    guardrailIds: agent.guardrail_ids,
    starters: agent.conversation_starters.map((text) => newStarter(text)),
    teamId: agent.team_id,
    projectId: agent.project_id,
  };
}

export function emptyDraft(teamId: number | null): AgentDraft {
  return {
    name: '',
    description: '',
    instructions: '',
    llmConfigurationId: null,
    corpusIds: [],
    toolIds: [],
    guardrailIds: [],
    starters: [],
    teamId,
    projectId: null,
  };
}

/** Starters as the API takes them: blank ones are left out rather than refused. */
function startersOf(draft: AgentDraft): string[] {
  return draft.starters.map((starter) => starter.text.trim()).filter((text) => text !== '');
}

const sortedIds = (ids: number[]) => [...ids].sort((a, b) => a - b);
const sameIds = (a: number[], b: number[]) => JSON.stringify(sortedIds(a)) === JSON.stringify(sortedIds(b));
const sameList = (a: string[], b: string[]) => JSON.stringify(a) === JSON.stringify(b);

export function creationOf(draft: AgentDraft): AgentCreation {
  return {
    name: draft.name.trim(),
    description: draft.description,
    instructions: draft.instructions,
    llm_configuration_id: draft.llmConfigurationId,
    corpus_ids: draft.corpusIds,
    tool_ids: draft.toolIds,
    guardrail_ids: draft.guardrailIds,
    conversation_starters: startersOf(draft),
    team_id: draft.teamId,
    project_id: draft.projectId,
  };
}

/** The fields the person changed since `saved`; empty when there is nothing to save. */
export function changesOf(saved: Agent, draft: AgentDraft): AgentChange {
  const change: AgentChange = {};
  if (draft.name.trim() !== saved.name) change.name = draft.name.trim();
  if (draft.description !== saved.description) change.description = draft.description;
  if (draft.instructions !== saved.instructions) change.instructions = draft.instructions;
  if (draft.llmConfigurationId !== saved.llm_configuration_id) change.llm_configuration_id = draft.llmConfigurationId;
  if (!sameIds(draft.corpusIds, saved.corpus_ids)) change.corpus_ids = draft.corpusIds;
  if (!sameIds(draft.toolIds, saved.tool_ids)) change.tool_ids = draft.toolIds;
  if (!sameIds(draft.guardrailIds, saved.guardrail_ids)) change.guardrail_ids = draft.guardrailIds;
  const starters = startersOf(draft);
  if (!sameList(starters, saved.conversation_starters)) change.conversation_starters = starters;
  if (draft.teamId !== saved.team_id) change.team_id = draft.teamId;
  if (draft.projectId !== saved.project_id) change.project_id = draft.projectId;
  return change;
}

/** Which part of the form a server's complaint is about; the JSON pointer's first segment after /body. */
export type FieldName = 'name' | 'description' | 'instructions' | 'llm_configuration_id' | 'corpus_ids' | 'tool_ids' | 'guardrail_ids' | 'conversation_starters' | 'team_id' | 'project_id';

const FIELD_NAMES = new Set<string>(['name', 'description', 'instructions', 'llm_configuration_id', 'corpus_ids', 'tool_ids', 'guardrail_ids', 'conversation_starters', 'team_id', 'project_id']);

const isFieldName = (name: string): name is FieldName => FIELD_NAMES.has(name);

export interface FieldErrors {
  byField: Partial<Record<FieldName, string>>;
  /** Whether every complaint found its field (else the page says it as a whole too). */
  allPlaced: boolean;
}

/**
 * The server's complaints by the field they are about: a 400's `error.details` pointers
 * (`/body/name`, `/body/conversation_starters/2`), and a 409 on create or save, which is about the
 * name (names are unique in the organization).
 */
export function fieldErrorsOf(error: unknown): FieldErrors {
  const byField: Partial<Record<FieldName, string>> = {};
  if (!(error instanceof ApiError)) return { byField, allPlaced: false };
  if (error.status === 409) return { byField: { name: error.message }, allPlaced: true };
  let allPlaced = error.details.length > 0;
  for (const detail of error.details) {
    const field = /^\/body\/([^/]+)/.exec(detail.pointer)?.[1];
    if (field !== undefined && isFieldName(field)) byField[field] = byField[field] === undefined ? detail.message : `${byField[field]}; ${detail.message}`;
    else allPlaced = false;
  }
  return { byField, allPlaced };
}

/** The complaints about text fields, by the `name` of each field, as React Aria's Form shows them. */
export function textFieldErrors({ name, description, instructions }: FieldErrors['byField']): Record<string, string> {
  return Object.fromEntries(Object.entries({ name, description, instructions }).filter((entry): entry is [string, string] => entry[1] !== undefined));
}
