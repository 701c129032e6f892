// Typed errors that services throw. Each carries its HTTP status and a stable code; the one error
// handler (src/http/error-handler.ts) turns them into the error envelope. Nothing matches on messages.

export interface ErrorDetail {
  /** JSON pointer of the field the problem is about, e.g. "/body/history_id" */
  pointer: string;
  message: string;
}

export type ErrorCode =
  | 'bad_request'
  | 'unauthenticated'
  | 'forbidden'
  | 'not_found'
  | 'conflict'
  | 'precondition_failed'
  | 'payload_too_large'
  | 'unsupported_media_type'
  | 'rate_limited'
  | 'internal'
  | 'unavailable';

export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    readonly details: ErrorDetail[] = [],
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export class BadRequest extends AppError {
  constructor(message: string, details: ErrorDetail[] = []) {
    super(400, 'bad_request', message, details);
  }
}

export class Unauthenticated extends AppError {
  constructor(message = 'Authentication required: send Authorization: Bearer <token>') {
    super(401, 'unauthenticated', message, [], { 'www-authenticate': 'Bearer' });
  }
}

export class Forbidden extends AppError {
  constructor(message: string) {
    super(403, 'forbidden', message);
  }
}

const RESOURCE_LABELS: Record<string, string> = {
  agent: 'Agent',
  history: 'History record',
  api_key: 'API key',
  user: 'User',
  organization: 'Organization',
  team: 'Team',
  teammate: 'Teammate',
  project: 'Project',
  project_member: 'Project member',
  notification: 'Notification',
  configuration: 'Organization configuration',
  active_configuration: 'Active configuration',
  logo: 'Logo',
  corpus: 'Corpus',
  document: 'Document',
};

export class NotFound extends AppError {
  constructor(resource: string, id?: number | string) {
    const label = RESOURCE_LABELS[resource] ?? resource;
    super(404, 'not_found', id === undefined ? `${label} not found` : `${label} ${id} not found`);
  }
}

export class Conflict extends AppError {
  constructor(message: string) {
    super(409, 'conflict', message);
  }
}

export class PreconditionFailed extends AppError {
  constructor(message: string) {
    super(412, 'precondition_failed', message);
  }
}

export class PayloadTooLarge extends AppError {
  constructor(message: string) {
    super(413, 'payload_too_large', message);
  }
}

export class UnsupportedMediaType extends AppError {
  constructor(message: string) {
    super(415, 'unsupported_media_type', message);
  }
}

export class Unavailable extends AppError {
  constructor(message: string, retryAfterSeconds = 5) {
    super(503, 'unavailable', message, [], { 'retry-after': String(retryAfterSeconds) });
  }
}
