// Typed errors that services throw. Each carries its HTTP status and a stable code; the one error
// handler (src/http/error-handler.ts) turns them into the error envelope. Nothing matches on messages.

export interface ErrorDetail {
  /** JSON pointer of the field the problem is about, e.g. "/body/history_id" */
  pointer: string;
  message: string;
}

/**
 * Every code an error body may carry: one per status, and finer ones where a client acts on the
 * difference (a feature turned off is not a missing role). Listed as an enum in the OpenAPI document.
 */
export const ERROR_CODES = [
  'bad_request',
  'unauthenticated',
  'forbidden',
  'feature_disabled',
  'not_found',
  'request_timeout',
  'conflict',
  'precondition_failed',
  'payload_too_large',
  'uri_too_long',
  'unsupported_media_type',
  'rate_limited',
  'headers_too_large',
  'internal',
  'upstream_error',
  'unavailable',
  'upstream_timeout',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

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

/** An operation behind a feature flag that is off for the caller's organization. */
export class FeatureDisabled extends AppError {
  constructor(message: string) {
    super(403, 'feature_disabled', message);
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
  llm_configuration: 'LLM configuration',
  thread: 'Thread',
  response: 'Response',
  comment: 'Comment',
  tool: 'Tool',
  tool_template: 'Tool template',
  dataset: 'Dataset',
  dataset_query: 'Query',
  metric: 'Metric',
  evaluation: 'Evaluation',
  query_result: 'Query result',
  mailbox: 'Mailbox',
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

/** A model, tool or connector answered with an error or nonsense; the message names which, never its secrets. */
export class UpstreamError extends AppError {
  constructor(message: string) {
    super(502, 'upstream_error', message);
  }
}

/** A model, tool or connector did not answer in time. */
export class UpstreamTimeout extends AppError {
  constructor(message: string) {
    super(504, 'upstream_timeout', message);
  }
}

export class Unavailable extends AppError {
  constructor(message: string, retryAfterSeconds = 5) {
    super(503, 'unavailable', message, [], { 'retry-after': String(retryAfterSeconds) });
  }
}
