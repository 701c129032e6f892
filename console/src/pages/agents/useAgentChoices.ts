// The organization's things an agent can be given or filtered by: projects, teams, LLM
// configurations, corpora, tools and guardrails (read whole, shared with other pages: api/queries.ts).
import { useQuery } from '@tanstack/react-query';
import { corpusChoicesQuery, guardrailsQuery, llmConfigurationsQuery, projectsQuery, teamsQuery, toolsQuery } from '../../api/queries';
import { useUser } from '../../session/session';

export const useProjects = () => useQuery(projectsQuery());
export const useTeams = () => useQuery(teamsQuery());
export const useCorpora = () => useQuery(corpusChoicesQuery());
export const useGuardrails = () => useQuery(guardrailsQuery());
export const useLlmConfigurations = () => useQuery(llmConfigurationsQuery(useUser().organization_id));
export const useTools = () => useQuery(toolsQuery(useUser().organization_id));

/** A name by id, for showing ids the API gives (an agent's team, its project). */
export function namesById(items: { id: number; name: string }[] | undefined): Map<number, string> {
  return new Map((items ?? []).map((item) => [item.id, item.name]));
}
