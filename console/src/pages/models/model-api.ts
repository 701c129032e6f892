// The organization's LLM configurations (the whole list, cached with the choices the agent editor
// reads, so that a change here shows there), their test, and the model deployment.
import { queryOptions } from '@tanstack/react-query';
import { api, type Schemas } from '../../api/client';
import { unwrap } from '../../api/errors';
import { llmConfigurationsQuery } from '../../api/queries';

export type LlmConfiguration = Schemas['LlmConfiguration'];
export type LlmProvider = LlmConfiguration['provider'];
export type LlmTestResult = Schemas['LlmTestResult'];
export type ModelDeployment = Schemas['ModelDeployment'];
export type Purpose = 'chat' | 'embedding' | 'image' | 'judge';

export { llmConfigurationsQuery };

export const deploymentQuery = (organizationId: number) =>
  queryOptions({
    queryKey: ['model-deployment', organizationId] as const,
    queryFn: async () => (await unwrap(api.GET('/api/v2/organizations/{org_id}/model-deployment', { params: { path: { org_id: organizationId } } }))).data,
  });

export async function testConfiguration(organizationId: number, configurationId: number) {
  const path = { org_id: organizationId, llm_configuration_id: configurationId };
  return (await unwrap(api.POST('/api/v2/organizations/{org_id}/llm-configurations/{llm_configuration_id}/test', { params: { path } }))).data;
}

export const PROVIDER_NAMES: Record<LlmProvider, string> = {
  openai: 'OpenAI',
  azure_openai: 'Azure OpenAI',
  anthropic: 'Anthropic',
  openai_compatible: 'OpenAI-compatible (vLLM, Ollama, LM Studio, llama.cpp…)',
};

export const PROVIDERS = Object.keys(PROVIDER_NAMES) as LlmProvider[];

/** Providers that have no address of their own: the base URL is required. */
export const NEEDS_BASE_URL: ReadonlySet<LlmProvider> = new Set(['azure_openai', 'openai_compatible']);

export const PURPOSES: readonly { id: Purpose; label: string; detail: string }[] = [
  { id: 'chat', label: 'Chat', detail: 'Answers in chats.' },
  { id: 'embedding', label: 'Embedding', detail: 'Turns passages and questions into vectors.' },
  { id: 'image', label: 'Image', detail: 'Generates images.' },
  { id: 'judge', label: 'Judge', detail: 'Scores answers in evaluations that name no judge (the default configuration when none).' },
];
