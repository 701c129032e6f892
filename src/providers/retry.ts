// Pacing of retries to providers (models, embeddings, document libraries, mailboxes): exponential backoff
// with jitter, the provider's Retry-After, and the one loop that tries a call again (withRetries).

/** Delay before retry n (1-based): base × 2^(n-1), between half and all of it (jitter), capped. */
export function backoffDelay(retry: number, baseMs: number, maxMs = 30_000, random: () => number = Math.random): number {
  const full = Math.min(maxMs, baseMs * 2 ** (retry - 1));
  return Math.round(full / 2 + (full / 2) * random());
}

/** A Retry-After header (seconds, or an HTTP date) as milliseconds from now; undefined if absent or unreadable. */
export function retryAfterMs(header: string | string[] | undefined, now = Date.now()): number | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  if (value === undefined || value.trim() === '') return undefined;
  if (/^\s*\d+(\.\d+)?\s*$/.test(value)) return Math.round(Number(value) * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** How an attempt ended: with its value, or with a failure worth another try (after the Retry-After it named, if any). */
export type AttemptOutcome<T, F> = { value: T } | { failure: F; retryAfterMs?: number | undefined };

/** When and how often a call is tried again; the errors it ends with when it stops trying. */
export interface RetryPolicy<F> {
  maxRetries: number;
  /** The delay before retry n (1-based) when the failure named no Retry-After. */
  backoff(retry: number): number;
  /** Waits `ms`; rejects when `signal` aborts. */
  wait(ms: number, signal?: AbortSignal): Promise<void>;
  signal?: AbortSignal | undefined;
  /** The error once every retry is spent (`attempts` made). */
  exhausted(failure: F, attempts: number): Error;
  /** The error when a wait of `ms` cannot be afforded (too long, past a deadline); undefined when it can. */
  refuse?(failure: F, ms: number): Error | undefined;
}

/**
 * The one retry loop of the server's outbound calls (document libraries, mailboxes, embeddings):
 * the attempt is made again after the Retry-After its failure named, or the policy's backoff, until
 * it succeeds, the retries are spent, or the wait cannot be afforded. A failure not worth another try
 * is the attempt's to throw.
 */
export async function withRetries<T, F>(attempt: () => Promise<AttemptOutcome<T, F>>, policy: RetryPolicy<F>): Promise<T> {
  for (let retry = 1; ; retry++) {
    const outcome = await attempt();
    if ('value' in outcome) return outcome.value;
    if (retry > policy.maxRetries) throw policy.exhausted(outcome.failure, retry);
    const ms = outcome.retryAfterMs ?? policy.backoff(retry);
    const refused = policy.refuse?.(outcome.failure, ms);
    if (refused !== undefined) throw refused;
    await policy.wait(ms, policy.signal);
  }
}

/** How long and how often a provider's throttling (429, 503) is waited out. */
export interface ThrottleOptions {
  /** Waits `ms` (Retry-After); injected so tests do not sleep. Rejects when `signal` aborts. */
  wait(ms: number, signal?: AbortSignal): Promise<void>;
  maxRetries: number;
  /** The longest Retry-After obeyed: one asking more ends the call. */
  maxWaitMs: number;
  signal?: AbortSignal;
  /** Milliseconds since the epoch, for a Retry-After given as a date. */
  now(): number;
}

/** The statuses by which a provider asks to be called again later. */
export const isThrottled = (status: number) => status === 429 || status === 503;

/** Retries of a throttled call: the Retry-After obeyed up to maxWaitMs (1 s, 2 s, 4 s… when none is named), then `refusal`. */
export function throttledRetries<F>(options: ThrottleOptions, refusal: (failure: F) => Error): RetryPolicy<F> {
  return {
    maxRetries: options.maxRetries,
    backoff: (retry) => 1000 * 2 ** (retry - 1),
    wait: (ms, signal) => options.wait(ms, signal),
    signal: options.signal,
    exhausted: refusal,
    refuse: (failure, ms) => (ms > options.maxWaitMs ? refusal(failure) : undefined),
  };
}
