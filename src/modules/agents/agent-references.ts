// What an agent's configuration names outside the agent: the corpora it answers from, the LLM
// configuration that answers, its tools and its guardrails. A change may name only what exists in the
// organization, and adds a corpus only for a caller who may read it; a restore drops what has been
// deleted since the record was written and says so.
import { NotFound } from '../../errors.js';
import type { Repositories } from '../../repositories.js';
import type { Actor } from '../auth/actor.js';
import type { AgentConfiguration } from './agent-config.js';

/** Throws NotFound unless the caller may read the corpus (the corpora module answers). */
export type RequireReadableCorpus = (actor: Actor, corpusId: number) => Promise<unknown>;

type References = Partial<Pick<AgentConfiguration, 'corpus_ids' | 'llm_configuration_id' | 'tool_ids' | 'guardrail_ids'>>;

/** The tables an agent's lists of ids name, and how a missing one is called in a 404. */
const LISTED = [
  { field: 'tool_ids', table: 'tools', resource: 'tool' },
  { field: 'guardrail_ids', table: 'guardrails', resource: 'guardrail' },
] as const;

const distinctAscending = (ids: number[]) => [...new Set(ids)].sort((a, b) => a - b);

/** The change with its corpus list made distinct and ascending; throws 404 for anything it may not name. */
export async function checkReferences<Change extends References>(
  repos: Repositories,
  actor: Actor,
  change: Change,
  connectedNow: number[],
  requireReadable: RequireReadableCorpus,
): Promise<Change> {
  if (change.llm_configuration_id != null && !(await repos.agents.llmConfigurationExists(actor.organizationId, change.llm_configuration_id))) {
    throw new NotFound('llm_configuration', change.llm_configuration_id);
  }
  let checked = change;
  for (const { field, table, resource } of LISTED) {
    if (change[field] === undefined) continue;
    const ids = distinctAscending(change[field]);
    const existing = await repos.agents.existingIn(table, actor.organizationId, ids);
    const missing = ids.find((id) => !existing.includes(id));
    if (missing !== undefined) throw new NotFound(resource, missing);
    checked = { ...checked, [field]: ids };
  }
  if (change.corpus_ids === undefined) return checked;
  const corpusIds = distinctAscending(change.corpus_ids);
  for (const corpusId of corpusIds) if (!connectedNow.includes(corpusId)) await requireReadable(actor, corpusId);
  return { ...checked, corpus_ids: corpusIds };
}

/** The configuration without the corpora and LLM configuration deleted since; `dropped` says what went. */
export async function withoutVanished<Configuration extends References>(
  repos: Repositories,
  organizationId: number,
  configuration: Configuration,
): Promise<{ configuration: Configuration; dropped: string[] }> {
  const dropped: string[] = [];
  let kept = configuration;
  if (configuration.llm_configuration_id != null && !(await repos.agents.llmConfigurationExists(organizationId, configuration.llm_configuration_id))) {
    dropped.push(`LLM configuration ${configuration.llm_configuration_id} (deleted; the organization's default answers)`);
    kept = { ...kept, llm_configuration_id: null };
  }
  if (configuration.corpus_ids !== undefined) {
    const existing = await repos.agents.existingCorpora(organizationId, configuration.corpus_ids);
    const gone = configuration.corpus_ids.filter((id) => !existing.includes(id));
    if (gone.length > 0) dropped.push(`corpus ${gone.join(', ')} (deleted)`);
    kept = { ...kept, corpus_ids: existing };
  }
  for (const { field, table, resource } of LISTED) {
    const ids = configuration[field];
    if (ids === undefined) continue;
    const existing = await repos.agents.existingIn(table, organizationId, ids);
    const gone = ids.filter((id) => !existing.includes(id));
    if (gone.length > 0) dropped.push(`${resource} ${gone.join(', ')} (deleted)`);
    kept = { ...kept, [field]: existing };
  }
  return { configuration: kept, dropped };
}
