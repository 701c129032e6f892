// The OpenAI embeddings API (`POST {baseUrl}/embeddings` with `{ model, input }`), which OpenAI, Azure
// OpenAI, vLLM, Ollama, llama.cpp and LM Studio all serve. The provider is untrusted: every request
// goes through the egress client with a deadline, 429/5xx/timeouts/lost connections are retried with
// backoff (Retry-After honoured when it fits in the deadline), answers are checked for shape and size,
// and no message carries the API key.
import { MAX_EMBEDDING_DIMENSIONS, type EmbeddingSettings } from '../../config.js';
import type { EgressClient, EgressResponse } from '../../net/egress.js';
import { EgressFailed, EgressRefused } from '../../net/egress-errors.js';
import { backoffDelay, retryAfterMs, sleep, withRetries } from '../retry.js';
import { EmbeddingError, type EmbedOptions, type Embedder, type EmbeddingUsage } from './embedder.js';

/** Statuses worth asking again for: timeout, conflict, too early, rate limit, and every 5xx. */
const RETRYABLE_STATUS = new Set([408, 409, 425, 429]);
const isRetryableStatus = (status: number) => RETRYABLE_STATUS.has(status) || status >= 500;

interface Failure {
  error: EmbeddingError;
  /** The provider's Retry-After, in ms. */
  retryAfter?: number | undefined;
}

/** The answer's `usage.prompt_tokens`, when it is a count; anything else is no usage reported. */
function usageOf(answer: unknown): EmbeddingUsage | undefined {
  const tokens = (answer as { usage?: { prompt_tokens?: unknown } } | null)?.usage?.prompt_tokens;
  return typeof tokens === 'number' && Number.isSafeInteger(tokens) && tokens >= 0 ? { promptTokens: tokens } : undefined;
}

export class OpenAiCompatibleEmbedder implements Embedder {
  readonly name = 'openai-compatible';
  readonly model: string;
  private learnedDimensions: number | undefined;
  private readonly url: string;

  constructor(
    private readonly settings: EmbeddingSettings,
    private readonly egress: EgressClient,
    /** First backoff delay; doubled on each retry. */
    private readonly retryBaseMs = 500,
  ) {
    this.model = settings.model;
    this.url = `${settings.baseUrl}/embeddings`;
    this.learnedDimensions = settings.dimensions;
  }

  get dimensions(): number | undefined {
    return this.learnedDimensions;
  }

  async embed(texts: string[], options: EmbedOptions = {}): Promise<number[][]> {
    const vectors: number[][] = [];
    for (let start = 0; start < texts.length; start += this.settings.batchSize) {
      const batch = texts.slice(start, start + this.settings.batchSize);
      const answer = await this.post(JSON.stringify({ model: this.model, input: batch }), options.maxRetries ?? this.settings.maxRetries);
      vectors.push(...this.vectorsOf(answer, batch.length));
      const usage = usageOf(answer);
      if (usage && options.onUsage) options.onUsage(usage);
    }
    return vectors;
  }

  /** Sends one request, retrying what may mend, all within one deadline. */
  private async post(body: string, maxRetries: number): Promise<unknown> {
    const deadline = Date.now() + this.settings.timeoutMs;
    const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
    if (this.settings.apiKey !== undefined) headers.authorization = `Bearer ${this.settings.apiKey}`;
    return withRetries<unknown, EmbeddingError>(
      async () => {
        const outcome = await this.attempt(body, headers, deadline);
        if ('answer' in outcome) return { value: outcome.answer };
        if (outcome.error.permanent) throw outcome.error;
        return { failure: outcome.error, retryAfterMs: outcome.retryAfter };
      },
      {
        maxRetries,
        backoff: (retry) => backoffDelay(retry, this.retryBaseMs),
        wait: (ms) => sleep(ms),
        exhausted: (error, attempts) => (attempts === 1 ? error : new EmbeddingError(`${error.message} (${attempts} attempts)`, false)),
        refuse: (error, ms) => {
          if (Date.now() >= deadline) return error;
          if (Date.now() + ms >= deadline) return new EmbeddingError(`${error.message}; no time left to try again within ${this.settings.timeoutMs} ms`, false);
          return undefined;
        },
      },
    );
  }

  private async attempt(body: string, headers: Record<string, string>, deadline: number): Promise<Failure | { answer: unknown }> {
    const remaining = deadline - Date.now();
    if (remaining <= 0) return { error: this.timedOut() };
    let response: EgressResponse;
    try {
      response = await this.egress.request(this.url, { method: 'POST', headers, body, timeoutMs: remaining });
    } catch (error) {
      return { error: this.transportFailure(error) };
    }
    if (response.status >= 200 && response.status < 300) {
      try {
        return { answer: JSON.parse(response.body.toString('utf8')) as unknown };
      } catch {
        return { error: new EmbeddingError('The embedding provider answered with something that is not JSON', false) };
      }
    }
    return { error: this.statusFailure(response), retryAfter: retryAfterMs(response.headers['retry-after']) };
  }

  private timedOut(): EmbeddingError {
    return new EmbeddingError(`The embedding provider did not answer within ${this.settings.timeoutMs} ms (EMBEDDING_TIMEOUT_MS)`, false);
  }

  private transportFailure(error: unknown): EmbeddingError {
    if (error instanceof EgressRefused) {
      return new EmbeddingError(`${error.message} (a self-hosted provider must be listed in EGRESS_ALLOWED_HOSTS)`, true);
    }
    if (error instanceof EgressFailed) {
      if (error.kind === 'timeout') return this.timedOut();
      if (error.kind === 'too_large') return new EmbeddingError(`${error.message}: lower EMBEDDING_BATCH_SIZE`, true);
      return new EmbeddingError(`The embedding provider could not be reached: ${error.message}`, !error.retryable);
    }
    return new EmbeddingError(`The embedding provider could not be reached: ${error instanceof Error ? error.message : String(error)}`, false);
  }

  private statusFailure(response: EgressResponse): EmbeddingError {
    const status = response.status;
    if (status === 401 || status === 403) {
      // The provider's own words are left out: some echo part of the key back.
      return new EmbeddingError(`The embedding provider refused the credentials (HTTP ${status}): check EMBEDDING_API_KEY`, true);
    }
    const detail = this.providerMessage(response.body);
    const said = detail ? `: ${detail}` : '';
    if (status === 429) return new EmbeddingError(`The embedding provider is limiting the rate of requests (HTTP 429)${said}`, false);
    if (isRetryableStatus(status)) return new EmbeddingError(`The embedding provider failed (HTTP ${status})${said}`, false);
    return new EmbeddingError(`The embedding provider refused the request (HTTP ${status})${said}`, true);
  }

  /** The error message of a provider's answer, short, on one line, without anything like a key. */
  private providerMessage(body: Buffer): string {
    let text = body.subarray(0, 4096).toString('utf8');
    try {
      const parsed = JSON.parse(text) as { error?: { message?: unknown } | string; message?: unknown; detail?: unknown };
      const candidate = typeof parsed.error === 'string' ? parsed.error : (parsed.error?.message ?? parsed.message ?? parsed.detail);
      if (typeof candidate === 'string') text = candidate;
    } catch {
      // Not JSON: the text itself.
    }
    if (this.settings.apiKey) text = text.split(this.settings.apiKey).join('[redacted]');
    text = text
      .replace(/\b(sk|pk|rk|key)[-_][\w*.-]{6,}/gi, '[redacted]')
      .replace(/\bBearer\s+\S+/gi, 'Bearer [redacted]')
      .replace(/[\u0000-\u001f\u007f]+/g, ' ')
      .trim();
    return text.length > 200 ? `${text.slice(0, 200)}…` : text;
  }

  /** The vectors of an answer, in the order of the inputs; anything else is refused. */
  private vectorsOf(answer: unknown, expected: number): number[][] {
    const invalid = (why: string) => new EmbeddingError(`The embedding provider's answer is not valid: ${why}`, false);
    const data = (answer as { data?: unknown } | null)?.data;
    if (!Array.isArray(data)) throw invalid('it has no "data" list');
    if (data.length !== expected) throw invalid(`${data.length} embeddings for ${expected} inputs`);
    const vectors: number[][] = new Array<number[]>(expected);
    data.forEach((item: unknown, position) => {
      const { embedding, index } = (item ?? {}) as { embedding?: unknown; index?: unknown };
      const at = index === undefined ? position : index;
      if (typeof at !== 'number' || !Number.isInteger(at) || at < 0 || at >= expected || vectors[at] !== undefined) {
        throw invalid(`item ${position} has an index that is missing, repeated or out of range`);
      }
      if (!Array.isArray(embedding) || embedding.length === 0 || embedding.length > MAX_EMBEDDING_DIMENSIONS) {
        throw invalid(`item ${position} is not a list of 1 to ${MAX_EMBEDDING_DIMENSIONS} numbers`);
      }
      if (!embedding.every((value) => typeof value === 'number' && Number.isFinite(value))) {
        throw invalid(`item ${position} holds something other than finite numbers`);
      }
      vectors[at] = embedding as number[];
    });
    this.checkDimensions(vectors[0]!.length);
    if (vectors.some((vector) => vector.length !== vectors[0]!.length)) throw invalid('its vectors differ in size');
    return vectors;
  }

  private checkDimensions(size: number): void {
    if (this.learnedDimensions === undefined) {
      this.learnedDimensions = size;
      return;
    }
    if (size !== this.learnedDimensions) {
      const source = this.settings.dimensions === undefined ? 'its earlier answers had' : 'EMBEDDING_DIMENSIONS is';
      throw new EmbeddingError(`The embedding provider returned vectors of ${size} dimensions; ${source} ${this.learnedDimensions}`, true);
    }
  }
}
