// Why a model call failed, in the classes of ModelCallError, from whatever the provider library,
// the egress client or the provider itself threw. Messages are the server's own sentences with at
// most a short excerpt of the provider's, and never carry the API key.
import { createRequire } from 'node:module';
import type { APICallError } from 'ai';
import { EgressFailed, EgressRefused } from '../../net/egress-errors.js';
import { retryAfterMs } from '../retry.js';
import { ModelCallError, type ModelErrorClass } from './chat-model.js';
import { ResponseCut } from './egress-fetch.js';

export interface ClassifiedFailure {
  error: ModelCallError;
  /** Whether asking again (before anything was streamed) may succeed. */
  retryable: boolean;
  /** The provider's Retry-After, in ms. */
  retryAfter?: number | undefined;
}

/** Replaces the key wherever it appears, so that no message or log carries it. */
export function scrubKey(text: string, apiKey: string | null): string {
  return apiKey && apiKey.length >= 4 ? text.split(apiKey).join('[redacted]') : text;
}

/** The AI SDK's error class, loaded with the first failure to classify: the SDK's entry is some 500 ms of modules. */
let apiCallError: typeof APICallError | undefined;
function apiCallErrorClass(): typeof APICallError {
  apiCallError ??= (createRequire(import.meta.url)('ai') as typeof import('ai')).APICallError;
  return apiCallError;
}

/** Walks an error and its causes, nearest first. */
function* causesOf(error: unknown): Generator<unknown> {
  const seen = new Set<unknown>();
  for (let current = error; current !== undefined && current !== null && !seen.has(current); current = (current as { cause?: unknown }).cause) {
    seen.add(current);
    yield current;
  }
}

/** The answer was longer than the bytes its request allowed (the egress client's cap). */
export function isAnswerTooLarge(error: unknown): boolean {
  for (const cause of causesOf(error)) if (cause instanceof EgressFailed && cause.kind === 'too_large') return true;
  return false;
}

function excerpt(text: string | undefined): string {
  if (!text) return '';
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > 300 ? `${flat.slice(0, 300)}…` : flat;
}

/** The provider's own words from an error answer: OpenAI's and Anthropic's `{ error: { message } }`, or the text. */
function providerMessage(error: APICallError): string {
  const data = error.data as { error?: { message?: unknown } } | undefined;
  if (typeof data?.error?.message === 'string') return excerpt(data.error.message);
  try {
    const parsed = JSON.parse(error.responseBody ?? '') as { error?: { message?: unknown } | string; message?: unknown };
    if (typeof parsed.error === 'string') return excerpt(parsed.error);
    if (typeof parsed.error?.message === 'string') return excerpt(parsed.error.message);
    if (typeof parsed.message === 'string') return excerpt(parsed.message);
  } catch {
    // Not JSON: the text itself, if short enough to mean something.
  }
  return excerpt(error.responseBody ?? error.message);
}

function statusClass(status: number): { errorClass: ModelErrorClass; what: string; retryable: boolean } {
  if (status === 401 || status === 403) return { errorClass: 'auth', what: 'refused the credentials', retryable: false };
  if (status === 404) return { errorClass: 'not_found', what: 'does not know the model or the address', retryable: false };
  if (status === 429) return { errorClass: 'rate_limited', what: 'is rate limiting the calls', retryable: true };
  if (status === 408 || status === 504) return { errorClass: 'timeout', what: 'timed out', retryable: true };
  if (status >= 500) return { errorClass: 'bad_response', what: 'failed', retryable: true };
  return { errorClass: 'bad_response', what: 'rejected the request', retryable: false };
}

/** Who failed, in a public message: never the provider's address (a configuration's base_url). */
const PROVIDER = 'The model provider';

function fromStatus(error: APICallError, status: number, label: string): ClassifiedFailure {
  const { errorClass, what, retryable } = statusClass(status);
  const said = providerMessage(error);
  return {
    // The provider's own words may echo the request (its URL, headers, the model's settings): public messages leave them out.
    error: new ModelCallError(errorClass, `${label} ${what} (HTTP ${status})${said ? `: ${said}` : ''}`, `${PROVIDER} ${what} (HTTP ${status})`),
    retryable,
    retryAfter: retryAfterMs(error.responseHeaders?.['retry-after']),
  };
}

/** What the transport said (a refused address, the deadline, the byte cap, a lost or cut connection), if anything. */
function transportFailure(cause: unknown, label: string, timeoutMs: number): ClassifiedFailure | undefined {
  if (cause instanceof EgressRefused) {
    return { error: new ModelCallError('unreachable', `${label} cannot be reached: ${cause.message}`, `${PROVIDER} cannot be reached: its address is refused`), retryable: false };
  }
  if (cause instanceof EgressFailed) {
    if (cause.kind === 'timeout') return { error: new ModelCallError('timeout', `${label} did not answer within ${timeoutMs} ms`, `${PROVIDER} did not answer within ${timeoutMs} ms`), retryable: false };
    if (cause.kind === 'too_large') return { error: new ModelCallError('bad_response', `${label} answered more than the server accepts: ${cause.message}`, `${PROVIDER} answered more than the server accepts`), retryable: false };
    if (cause.kind === 'connection') return { error: new ModelCallError('unreachable', `${label} cannot be reached: ${cause.message}`, `${PROVIDER} cannot be reached`), retryable: true };
    return { error: new ModelCallError('bad_response', `${label}: ${cause.message}`, `${PROVIDER} failed`), retryable: false };
  }
  if (cause instanceof ResponseCut) {
    return { error: new ModelCallError('bad_response', `${label} broke the answer off before it was complete`, `${PROVIDER} broke the answer off before it was complete`), retryable: true };
  }
  return undefined;
}

/**
 * Classifies a failure of one attempt; `label` names the provider, e.g. "The model provider at http://…".
 * What the transport said wins over a status found nearer in the chain: a deadline met after a stream
 * began surfaces wrapped in the library's error for the 200 answer, and is a timeout all the same.
 */
export function classifyModelFailure(error: unknown, label: string, timeoutMs: number): ClassifiedFailure {
  if (error instanceof ModelCallError) return { error, retryable: false };
  const causes = [...causesOf(error)];
  for (const cause of causes) {
    const failure = transportFailure(cause, label, timeoutMs);
    if (failure) return failure;
  }
  for (const cause of causes) {
    if (apiCallErrorClass().isInstance(cause) && cause.statusCode !== undefined) return fromStatus(cause, cause.statusCode, label);
  }
  const message = error instanceof Error ? excerpt(error.message) : String(error);
  return { error: new ModelCallError('bad_response', `${label} gave an answer that could not be read: ${message}`, `${PROVIDER} gave an answer that could not be read`), retryable: false };
}
