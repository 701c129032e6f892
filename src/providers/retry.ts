// Pacing of retries to providers: exponential backoff with jitter, and the provider's Retry-After.

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
