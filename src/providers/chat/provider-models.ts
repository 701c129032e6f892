// One AI SDK language model per provider of an LLM configuration. The key is always passed
// explicitly (empty when the configuration has none; egress-fetch then sends no key header), so that
// the provider packages never fall back to OPENAI_API_KEY or ANTHROPIC_API_KEY from the server's
// environment: an organization's calls use that organization's key or none.
// A provider's package is loaded when a configuration of its kind is first used (each is a few MB
// of modules, and most servers use one or two of the four); require, since building a model is
// synchronous.
import { createRequire } from 'node:module';
import type { LlmProvider } from '../../db/schema.js';
import type { ProviderLanguageModel } from './sdk-messages.js';

export interface ProviderModelSettings {
  provider: LlmProvider;
  model: string;
  baseUrl: string | null;
  apiVersion: string | null;
  apiKey: string | null;
}

/** Where calls go when the configuration names no base URL. */
export const DEFAULT_BASE_URLS: Partial<Record<LlmProvider, string>> = {
  openai: 'https://api.openai.com/v1',
  anthropic: 'https://api.anthropic.com/v1',
};

const require = createRequire(import.meta.url);
const openai = () => require('@ai-sdk/openai') as typeof import('@ai-sdk/openai');
const azure = () => require('@ai-sdk/azure') as typeof import('@ai-sdk/azure');
const anthropic = () => require('@ai-sdk/anthropic') as typeof import('@ai-sdk/anthropic');
const openaiCompatible = () => require('@ai-sdk/openai-compatible') as typeof import('@ai-sdk/openai-compatible');

export function languageModelFor(settings: ProviderModelSettings, fetch: typeof globalThis.fetch): ProviderLanguageModel {
  const apiKey = settings.apiKey ?? '';
  const baseURL = settings.baseUrl?.replace(/\/+$/, '') ?? DEFAULT_BASE_URLS[settings.provider];
  switch (settings.provider) {
    case 'openai':
      // The chat-completions model, which every OpenAI-compatible server speaks too.
      return openai().createOpenAI({ apiKey, baseURL, fetch }).chat(settings.model);
    case 'azure_openai':
      // With an api_version: the deployment URLs ({base}/deployments/{model}/chat/completions?api-version=…);
      // without: Azure's v1 API ({base}/v1/chat/completions).
      return azure().createAzure({
        apiKey,
        baseURL,
        fetch,
        ...(settings.apiVersion ? { apiVersion: settings.apiVersion, useDeploymentBasedUrls: true } : {}),
      }).chat(settings.model);
    case 'anthropic':
      return anthropic().createAnthropic({ apiKey, baseURL, fetch })(settings.model);
    case 'openai_compatible':
      return openaiCompatible().createOpenAICompatible({
        name: 'openai-compatible',
        baseURL: baseURL ?? '',
        ...(settings.apiKey ? { apiKey: settings.apiKey } : {}),
        // Ask for the token count at the end of a stream; servers that do not know the option ignore it.
        includeUsage: true,
        // A JSON answer with a schema is asked for as json_schema (vLLM, Ollama, LM Studio and llama.cpp know it), not json_object.
        supportsStructuredOutputs: true,
        fetch,
      }).chatModel(settings.model);
  }
}

/** How messages name the provider: its host and path, never a key or a query. */
export function providerLabel(settings: ProviderModelSettings): string {
  const url = settings.baseUrl ?? DEFAULT_BASE_URLS[settings.provider];
  if (url === undefined) return 'The model provider';
  try {
    const parsed = new URL(url);
    return `The model provider at ${parsed.protocol}//${parsed.host}${parsed.pathname.replace(/\/+$/, '')}`;
  } catch {
    return 'The model provider';
  }
}
