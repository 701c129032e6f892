// Why Graph (or the identity platform) refused a sync, in the terms a connector's state shows:
// the code tells an administrator what to mend, the message says what answered (never a secret).
export const GRAPH_ERROR_CODES = ['auth', 'forbidden', 'not_found', 'throttled', 'upstream', 'unreachable', 'bad_response'] as const;
export type GraphErrorCode = (typeof GRAPH_ERROR_CODES)[number];

export class GraphError extends Error {
  constructor(
    readonly code: GraphErrorCode,
    message: string,
    /** The HTTP status that answered, when one did. */
    readonly status: number | null = null,
  ) {
    super(message);
  }
}

/** A delta link Graph no longer accepts (410 Gone, resyncRequired): the sync starts again in full. */
export class ResyncRequired extends Error {}

/** The code of an HTTP status Graph answered with; 410 is ResyncRequired's, and 2xx/3xx none. */
export function codeOfStatus(status: number): GraphErrorCode {
  if (status === 401) return 'auth';
  if (status === 403) return 'forbidden';
  if (status === 404) return 'not_found';
  if (status === 429) return 'throttled';
  if (status >= 500) return 'upstream';
  return 'bad_response';
}

/** The error message Graph puts in its JSON error envelope, bounded; empty when there is none. */
export function graphMessage(body: Buffer): string {
  try {
    const parsed = JSON.parse(body.toString('utf8')) as { error?: { message?: unknown; code?: unknown } };
    const message = typeof parsed.error?.message === 'string' ? parsed.error.message : typeof parsed.error?.code === 'string' ? parsed.error.code : '';
    return message.slice(0, 300);
  } catch {
    return '';
  }
}
