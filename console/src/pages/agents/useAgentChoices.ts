// The organization's things an agent can be given or filtered by: projects, teams, LLM
// configurations, corpora, tools and guardrails. Read whole, and kept a minute: they change rarely.
import { useQuery } from '@tanstack/react-query';
import { useUser } from '../../session/session';
import { agentKeys, listCorpora, listGuardrails, listLlmConfigurations, listProjects, listTeams, listTools } from './agentQueries';

const CHOICES_STALE_MS = 60_000;

export function useProjects() {
  return useQuery({ queryKey: agentKeys.choices('projects'), queryFn: listProjects, staleTime: CHOICES_STALE_MS });
}

export function useTeams() {
  return useQuery({ queryKey: agentKeys.choices('teams'), queryFn: listTeams, staleTime: CHOICES_STALE_MS });
}

export function useCorpora() {
  return useQuery({ queryKey: agentKeys.choices('corpora'), queryFn: listCorpora, staleTime: CHOICES_STALE_MS });
}

export function useGuardrails() {
  return useQuery({ queryKey: agentKeys.choices('guardrails'), queryFn: listGuardrails, staleTime: CHOICES_STALE_MS });
}

export function useLlmConfigurations() {
  const { organization_id: organizationId } = useUser();
  return useQuery({ queryKey: agentKeys.choices('llm-configurations'), queryFn: () => listLlmConfigurations(organizationId), staleTime: CHOICES_STALE_MS });
}

export function useTools() {
  const { organization_id: organizationId } = useUser();
  return useQuery({ queryKey: agentKeys.choices('tools'), queryFn: () => listTools(organizationId), staleTime: CHOICES_STALE_MS });
}

/** A name by id, for showing ids the API gives (an agent's team, its project). */
export function namesById(items: { id: number; name: string }[] | undefined): Map<number, string> {
  return new Map((items ?? []).map((item) => [item.id, item.name]));
}
