// An LLM configuration as its form holds it, checked as the server checks it
// (src/modules/llm/llm-configurations.schemas.ts), and the body sent: on a change, only what changed,
// and the key only when one was typed anew (or its removal asked for).
import { NEEDS_BASE_URL, type LlmConfiguration, type LlmProvider } from './model-api';

export const LIMITS = { name: 200, model: 200, baseUrl: 2000, apiVersion: 50, apiKey: 4000, price: 1_000_000, contextWindow: 100_000_000, answerTokens: 200_000 } as const;

export interface ConfigurationDraft {
  name: string;
  provider: LlmProvider;
  model: string;
  baseUrl: string;
  apiVersion: string;
  /** A new key typed; empty: the stored one is kept. */
  apiKey: string;
  removeKey: boolean;
  inputPrice: number | null;
  outputPrice: number | null;
  contextWindow: number | null;
  maxAnswerTokens: number | null;
  isDefault: boolean;
}

export type ConfigurationField = 'name' | 'model' | 'baseUrl' | 'apiVersion' | 'apiKey' | 'inputPrice' | 'outputPrice' | 'contextWindow' | 'maxAnswerTokens';
export type ConfigurationProblems = Partial<Record<ConfigurationField, string>>;

export const NEW_CONFIGURATION: ConfigurationDraft = {
  name: '',
  provider: 'openai',
  model: '',
  baseUrl: '',
  apiVersion: '',
  apiKey: '',
  removeKey: false,
  inputPrice: null,
  outputPrice: null,
  contextWindow: null,
  maxAnswerTokens: null,
  isDefault: false,
};

export function draftOf(configuration: LlmConfiguration): ConfigurationDraft {
  return {
    name: configuration.name,
    provider: configuration.provider,
    model: configuration.model,
    baseUrl: configuration.base_url ?? '',
    apiVersion: configuration.api_version ?? '',
    apiKey: '',
    removeKey: false,
    inputPrice: configuration.input_price_per_million ?? null,
    outputPrice: configuration.output_price_per_million ?? null,
    contextWindow: configuration.context_window,
    maxAnswerTokens: configuration.max_answer_tokens,
    isDefault: configuration.is_default,
  };
}

const orNull = (text: string) => (text.trim() === '' ? null : text.trim());

/** Everything the form says, as the API names it (the key left out unless typed or removed). */
function fieldsOf(draft: ConfigurationDraft) {
  return {
    name: draft.name.trim(),
    provider: draft.provider,
    model: draft.model.trim(),
    base_url: orNull(draft.baseUrl),
    api_version: draft.provider === 'azure_openai' ? orNull(draft.apiVersion) : null,
    input_price_per_million: draft.inputPrice,
    output_price_per_million: draft.outputPrice,
    context_window: draft.contextWindow,
    ...(draft.maxAnswerTokens === null ? {} : { max_answer_tokens: draft.maxAnswerTokens }),
    ...(draft.removeKey ? { api_key: null } : draft.apiKey === '' ? {} : { api_key: draft.apiKey }),
  };
}

export function createBodyOf(draft: ConfigurationDraft) {
  return { ...fieldsOf(draft), ...(draft.isDefault ? { is_default: true } : {}) };
}

/** Only what differs from the stored configuration (is_default only to make it the default). */
export function updateBodyOf(draft: ConfigurationDraft, stored: LlmConfiguration) {
  const now: Record<string, unknown> = fieldsOf(draft);
  const before: Record<string, unknown> = fieldsOf(draftOf(stored));
  const changed = Object.fromEntries(Object.entries(now).filter(([key, value]) => key === 'api_key' || value !== before[key]));
  return { ...changed, ...(draft.isDefault && !stored.is_default ? { is_default: true } : {}) } as Partial<ReturnType<typeof createBodyOf>>;
}

function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

const numberProblem = (value: number | null, min: number, max: number, whole: boolean) =>
  value !== null && (value < min || value > max || (whole && !Number.isInteger(value))) ? `${whole ? 'A whole number' : 'A number'} from ${min} to ${max.toLocaleString('en')}.` : undefined;

export function problemsOf(draft: ConfigurationDraft): ConfigurationProblems {
  const problems: ConfigurationProblems = {
    name: draft.name.trim() === '' ? 'Give the configuration a name.' : undefined,
    model: draft.model.trim() === '' ? 'Name the model (for Azure OpenAI, the deployment).' : undefined,
    baseUrl:
      draft.baseUrl.trim() === ''
        ? NEEDS_BASE_URL.has(draft.provider)
          ? 'This provider needs the address it answers at.'
          : undefined
        : !isHttpUrl(draft.baseUrl.trim())
          ? 'An http or https address, such as http://127.0.0.1:11434/v1.'
          : undefined,
    apiVersion:
      draft.provider === 'azure_openai' && draft.apiVersion.trim() !== '' && !/^[A-Za-z0-9._-]+$/.test(draft.apiVersion.trim())
        ? 'Letters, digits, dots, dashes and underscores only (e.g. 2024-10-21).'
        : undefined,
    apiKey: /\s/.test(draft.apiKey) ? 'A key has no spaces or line breaks.' : undefined,
    inputPrice: numberProblem(draft.inputPrice, 0, LIMITS.price, false),
    outputPrice: numberProblem(draft.outputPrice, 0, LIMITS.price, false),
    contextWindow: numberProblem(draft.contextWindow, 1, LIMITS.contextWindow, true),
    maxAnswerTokens: numberProblem(draft.maxAnswerTokens, 1, LIMITS.answerTokens, true),
  };
  for (const key of Object.keys(problems) as ConfigurationField[]) if (problems[key] === undefined) delete problems[key];
  return problems;
}
