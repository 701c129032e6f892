// Why a mail provider (its token endpoint, Graph or the Gmail API) refused a sync, in the terms a
// mailbox's state shows. The codes are the connectors' (../graph/graph-errors.ts), so
// that an administrator reads one vocabulary; `revoked` marks a refused grant: the mailbox then
// needs its owner to authorize again.
import { codeOfStatus, type GraphErrorCode } from '../graph/graph-errors.js';

export class MailError extends Error {
  constructor(
    readonly code: GraphErrorCode,
    message: string,
    readonly status: number | null = null,
    /** The refresh token was refused (invalid_grant) or the API answered 401: authorize again. */
    readonly revoked = false,
  ) {
    super(message);
  }
}

/** The incremental position is no longer accepted (Graph 410 syncStateNotFound, Gmail 404 on a history id): sync in full. */
export class MailResyncRequired extends Error {}

/** The error an API status becomes; a 401 means the grant no longer holds. */
export function mailErrorOfStatus(status: number, message: string): MailError {
  return new MailError(codeOfStatus(status), message, status, status === 401);
}
