// Requests that fail become ApiError with the server's own message, which the pages show as is.
import type { Schemas } from './client';

export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code?: string,
    readonly details: readonly { pointer: string; message: string }[] = [],
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

type ErrorEnvelope = Schemas['ErrorEnvelope'];

/** What a request that never reached the server says. */
export const UNREACHABLE = 'The server could not be reached. Check your connection and try again.';

function isErrorEnvelope(body: unknown): body is ErrorEnvelope {
  return typeof body === 'object' && body !== null && 'message' in body && typeof (body as { message: unknown }).message === 'string';
}

/**
 * The error of a failed answer, from its body when it is the API's envelope; `response` is a fetch
 * Response or an XMLHttpRequest (uploads), both of which have a status and its text.
 */
export function errorOf(body: unknown, response: { status: number; statusText: string; type?: string }): ApiError {
  if (isErrorEnvelope(body)) return new ApiError(body.message, response.status, body.error?.code, body.error?.details ?? []);
  if (response.status === 0 || response.type === 'error') return new ApiError(UNREACHABLE, 0);
  return new ApiError(`The server answered ${response.status} ${response.statusText}`.trim(), response.status);
}

/**
 * The data of an openapi-fetch result, or its error thrown as ApiError: what TanStack Query's
 * functions return.
 */
export async function unwrap<T>(result: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  let outcome: Awaited<typeof result>;
  try {
    outcome = await result;
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiError(UNREACHABLE, 0);
  }
  if (outcome.error !== undefined || !outcome.response.ok) throw errorOf(outcome.error, outcome.response);
  return outcome.data as T;
}

/** A message for a person, whatever was thrown. */
export function messageOf(error: unknown): string {
  if (error instanceof ApiError) {
    const detail = error.details.map((entry) => `${entry.pointer.replace(/^\/body\//, '')}: ${entry.message}`).join('; ');
    return detail === '' ? error.message : `${error.message} (${detail})`;
  }
  if (error instanceof Error) return error.message;
  return String(error);
}
