// Names of the corpora, tools, guardrails and model configurations a snapshot names by identifier.
// Each list is read only when a comparison needs it. A list the user may not read, or a resource
// deleted since, leaves the identifier shown as "#12": the comparison stays true without the name.
import { useQuery } from '@tanstack/react-query';
import { api } from '../../api/client';
import { unwrap } from '../../api/errors';
import { useUser } from '../../session/session';
import type { ReferenceKind } from './snapshot-changes';

export type NameLookup = (kind: ReferenceKind, id: number) => string | undefined;

type Named = { id: number; name: string };

const toMap = (items: Named[]) => new Map(items.map((item) => [item.id, item.name]));

// The largest page the API gives; an organization with more keeps "#id" for the rest.
const ALL = { page: 1, page_size: 100 };

function useNameList(kind: ReferenceKind, enabled: boolean, load: () => Promise<Named[]>) {
  return useQuery({ queryKey: ['history', 'names', kind], queryFn: async () => toMap(await load()), enabled, staleTime: 60_000, retry: false });
}

/** A lookup of names for the kinds in `needed`; undefined where unknown (yet). */
export function useReferenceNames(needed: ReadonlySet<ReferenceKind>): NameLookup {
  const organizationId = useUser().organization_id;
  const corpora = useNameList('corpus', needed.has('corpus'), async () => (await unwrap(api.GET('/api/v2/corpora', { params: { query: ALL } }))).data.items);
  const guardrails = useNameList(
    'guardrail',
    needed.has('guardrail'),
    async () => (await unwrap(api.GET('/api/v2/guardrails', { params: { query: ALL } }))).data.items,
  );
  const tools = useNameList(
    'tool',
    needed.has('tool'),
    async () => (await unwrap(api.GET('/api/v2/organizations/{org_id}/tools', { params: { path: { org_id: organizationId }, query: ALL } }))).data.items,
  );
  const models = useNameList(
    'llm_configuration',
    needed.has('llm_configuration'),
    async () =>
      (await unwrap(api.GET('/api/v2/organizations/{org_id}/llm-configurations', { params: { path: { org_id: organizationId }, query: ALL } }))).data
        .items,
  );
  const lists = { corpus: corpora.data, guardrail: guardrails.data, tool: tools.data, llm_configuration: models.data };
  return (kind, id) => lists[kind]?.get(id);
}
