// Names of the corpora, tools, guardrails and model configurations a snapshot names by identifier.
// Each list is read only when a comparison needs it (the same reads as the agent's settings,
// api/queries.ts). A list the user may not read, or a resource deleted since, leaves the identifier
// shown as "#12": the comparison stays true without the name.
import { useQuery } from '@tanstack/react-query';
import { corpusChoicesQuery, guardrailsQuery, llmConfigurationsQuery, toolsQuery } from '../../api/queries';
import { useUser } from '../../session/session';
import type { ReferenceKind } from './snapshot-changes';

export type NameLookup = (kind: ReferenceKind, id: number) => string | undefined;

const toMap = (items: { id: number; name: string }[]) => new Map(items.map((item) => [item.id, item.name]));

/** A lookup of names for the kinds in `needed`; undefined where unknown (yet). */
export function useReferenceNames(needed: ReadonlySet<ReferenceKind>): NameLookup {
  const organizationId = useUser().organization_id;
  const corpora = useQuery({ ...corpusChoicesQuery(), enabled: needed.has('corpus'), select: toMap });
  const guardrails = useQuery({ ...guardrailsQuery(), enabled: needed.has('guardrail'), select: toMap });
  const tools = useQuery({ ...toolsQuery(organizationId), enabled: needed.has('tool'), select: toMap });
  const models = useQuery({ ...llmConfigurationsQuery(organizationId), enabled: needed.has('llm_configuration'), select: toMap });
  const lists = { corpus: corpora.data, guardrail: guardrails.data, tool: tools.data, llm_configuration: models.data };
  return (kind, id) => lists[kind]?.get(id);
}
