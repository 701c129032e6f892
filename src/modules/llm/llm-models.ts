// From a stored LLM configuration to a chat model: the key opened with the secret key that sealed it,
// the call bounded by the server's LLM deadline. A key this server cannot open leaves the
// configuration readable, and every call with it fails saying why.
import { LRUCache } from 'lru-cache';
import type { EgressClient } from '../../net/egress.js';
import { ModelCallError, type ChatModel } from '../../providers/chat/chat-model.js';
import { createChatModel, failingChatModel } from '../../providers/chat/create-chat-model.js';
import { resealAll, resealIfStale, type ResealOutcome } from '../../secrets/reseal.js';
import type { SecretBox, SealedSecret } from '../../secrets/secret-box.js';
import type { LlmConfigurationRow } from '../../db/schema.js';
import type { LlmConfigurationsRepo } from './llm-configurations.repo.js';

export interface ModelOptions {
  /** Deadline of a whole model call, retries included (LIMIT_LLM_TIMEOUT_MS). */
  timeoutMs: number;
  /** Retries of a call that failed before anything was streamed. */
  maxRetries: number;
  /** First backoff delay between retries. */
  retryBaseMs?: number;
}

type KeyColumns = Pick<LlmConfigurationRow, 'api_key_sealed' | 'api_key_key_id'>;

function sealedOf(row: KeyColumns): SealedSecret | undefined {
  return row.api_key_sealed === null || row.api_key_key_id === null ? undefined : { sealed: row.api_key_sealed, keyId: row.api_key_key_id };
}

/** Chat models kept for reuse: a few per configuration in use at most, since each change makes a new one. */
const CACHED_MODELS = 256;

export class LlmModels {
  /** By what a model is made of, so that any change of the configuration (key, model, address) makes a new one. */
  private readonly cache = new LRUCache<string, ChatModel>({ max: CACHED_MODELS });

  constructor(
    private readonly secrets: SecretBox,
    private readonly egress: EgressClient,
    private readonly options: ModelOptions,
  ) {}

  /** The configuration's chat model, made once for each content of the configuration (with the server's options). */
  chatModelOf(row: LlmConfigurationRow): ChatModel {
    const key = JSON.stringify([row.id, row.provider, row.model, row.base_url, row.api_version, row.api_key_key_id, row.api_key_sealed]);
    let model = this.cache.get(key);
    if (model === undefined) {
      model = this.newChatModel(row);
      this.cache.set(key, model);
    }
    return model;
  }

  newChatModel(row: LlmConfigurationRow, overrides: Partial<ModelOptions> = {}): ChatModel {
    const sealed = sealedOf(row);
    let apiKey: string | null = null;
    if (sealed !== undefined) {
      try {
        apiKey = this.secrets.open(sealed);
      } catch (error) {
        return failingChatModel(row.model, new ModelCallError('auth', `The API key of LLM configuration "${row.name}" cannot be used: ${(error as Error).message}`, `The API key of LLM configuration "${row.name}" cannot be used`));
      }
    }
    const { timeoutMs, maxRetries, retryBaseMs } = { ...this.options, ...overrides };
    return createChatModel(
      { provider: row.provider, model: row.model, baseUrl: row.base_url, apiVersion: row.api_version, apiKey, timeoutMs, maxRetries, ...(retryBaseMs === undefined ? {} : { retryBaseMs }) },
      this.egress,
    );
  }
}

/** The key sealed again with the current secret key, when it is sealed with a former one that this server has. */
export function resealedKey(secrets: SecretBox, row: KeyColumns): Partial<KeyColumns> {
  const fresh = resealIfStale(secrets, sealedOf(row));
  return fresh === undefined ? {} : { api_key_sealed: fresh.sealed, api_key_key_id: fresh.keyId };
}

/** Re-seals every key sealed with a former secret key; counts what was done and lists what could not be opened. */
export async function resealStoredKeys(secrets: SecretBox, repo: LlmConfigurationsRepo): Promise<ResealOutcome> {
  const rows = await repo.listSealedKeys();
  return resealAll(
    secrets,
    rows.map((row) => ({ id: row.id, sealed: sealedOf(row), save: (fresh) => repo.saveSealedKey(row.organization_id, row.id, fresh.sealed, fresh.keyId) })),
  );
}
