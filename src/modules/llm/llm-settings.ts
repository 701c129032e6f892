// The rules an LLM configuration's settings follow beyond their schema, and how its key is stored.
import type { LlmProvider } from '../../db/schema.js';
import { BadRequest, type ErrorDetail } from '../../errors.js';
import { keyHint, type SecretBox } from '../../secrets/secret-box.js';
import type { LlmConfigurationChange } from './llm-configurations.repo.js';

/** Providers that have no address of their own: the configuration must name one. */
const NEEDS_BASE_URL: ReadonlySet<LlmProvider> = new Set(['azure_openai', 'openai_compatible']);

/** base_url an http(s) URL, and present where the provider needs one. Throws BadRequest naming the field. */
export function checkEndpoint(provider: LlmProvider, baseUrl: string | null): void {
  const problems: ErrorDetail[] = [];
  if (baseUrl === null) {
    if (NEEDS_BASE_URL.has(provider)) problems.push({ pointer: '/body/base_url', message: `is required for ${provider}` });
  } else if (!isHttpUrl(baseUrl)) {
    problems.push({ pointer: '/body/base_url', message: 'must be an http: or https: URL without credentials' });
  }
  if (problems.length > 0) throw new BadRequest(`Invalid base_url: ${problems[0]!.message}`, problems);
}

function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '' && url.username === '' && url.password === '';
  } catch {
    return false;
  }
}

/** The key columns for what the client sent: undefined keeps the key, null removes it, a string is sealed. */
export function keyColumns(secrets: SecretBox, apiKey: string | null | undefined): Pick<LlmConfigurationChange, 'api_key_sealed' | 'api_key_key_id' | 'api_key_hint'> {
  if (apiKey === undefined) return {};
  if (apiKey === null) return { api_key_sealed: null, api_key_key_id: null, api_key_hint: null };
  const { sealed, keyId } = secrets.seal(apiKey);
  return { api_key_sealed: sealed, api_key_key_id: keyId, api_key_hint: keyHint(apiKey) };
}
