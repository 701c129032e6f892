// The one place that writes error bodies. Typed errors keep their status and code; Fastify's own
// errors (bad JSON, schema violations, limits, a bad URL, a parameter over the router's limit) are
// translated, and so are the errors Node's HTTP parser meets before Fastify sees a request; anything
// else is a 500 whose details go to the log under the request id, never to the client.
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest, FastifyServerOptions } from 'fastify';
import type { Dialect } from '../db/dialect.js';
import { AppError, type ErrorCode, type ErrorDetail } from '../errors.js';
import type { ConsoleFiles } from './console-files.js';
import { SECURITY_HEADERS } from './protection.js';
import { generateRequestId } from './request-id.js';

const CODE_BY_STATUS: Record<number, ErrorCode> = {
  400: 'bad_request',
  401: 'unauthenticated',
  403: 'forbidden',
  404: 'not_found',
  408: 'request_timeout',
  409: 'conflict',
  412: 'precondition_failed',
  413: 'payload_too_large',
  414: 'uri_too_long',
  415: 'unsupported_media_type',
  429: 'rate_limited',
  431: 'headers_too_large',
  503: 'unavailable',
};

interface ValidationIssue {
  instancePath: string;
  keyword: string;
  message?: string;
  params: Record<string, unknown>;
}

const PART_POINTER: Record<string, string> = { body: '/body', querystring: '/query', params: '/params', headers: '/headers' };

function validationDetails(context: string | undefined, issues: ValidationIssue[]): ErrorDetail[] {
  const base = PART_POINTER[context ?? 'body'] ?? '/body';
  return issues.map((issue) => {
    const missing = issue.keyword === 'required' ? `/${String(issue.params.missingProperty)}` : '';
    const pointer = `${base}${issue.instancePath}${missing}`;
    const message = issue.keyword === 'required' ? 'is required' : (issue.message ?? 'is invalid');
    return { pointer, message };
  });
}

function summarise(details: ErrorDetail[]): string {
  const first = details[0];
  if (!first) return 'The request is invalid';
  const more = details.length > 1 ? ` (and ${details.length - 1} more problem${details.length > 2 ? 's' : ''})` : '';
  return `${first.pointer} ${first.message}${more}`;
}

export interface ErrorBody {
  success: false;
  message: string;
  error: { code: ErrorCode; request_id: string; details: ErrorDetail[] };
}

function body(request: FastifyRequest, code: ErrorCode, message: string, details: ErrorDetail[] = []): ErrorBody {
  return { success: false, message, error: { code, request_id: String(request.id), details } };
}

/** Fastify's own client errors: keep the status, speak the envelope. */
function fromFastifyError(error: FastifyError): { status: number; code: ErrorCode; message: string; details: ErrorDetail[] } | undefined {
  if (error.validation) {
    const details = validationDetails(error.validationContext, error.validation as ValidationIssue[]);
    return { status: 400, code: 'bad_request', message: summarise(details), details };
  }
  if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
    // A JSON operation given another content type is a malformed request, not an unprocessable file.
    return { status: 400, code: 'bad_request', message: 'Unsupported Content-Type: send application/json', details: [] };
  }
  const status = error.statusCode;
  if (status !== undefined && status >= 400 && status < 500) {
    return { status, code: CODE_BY_STATUS[status] ?? 'bad_request', message: error.message, details: [] };
  }
  return undefined;
}

/** The answers Fastify's router makes before any route or hook runs, in the envelope. */
export const frameworkErrors: NonNullable<FastifyServerOptions['frameworkErrors']> = (error, request, anyReply) => {
  // The router answers before any hook, so the headers every answer carries are set here.
  const reply = (anyReply as FastifyReply).headers(SECURITY_HEADERS).header('x-request-id', request.id);
  const { status, code, message } = routerAnswer(error, request);
  // Not awaited: the router takes no promise back, and a failure to send is Fastify's to log.
  void reply.code(status).send(body(request, code, message));
};

function routerAnswer(error: FastifyError, request: FastifyRequest): { status: number; code: ErrorCode; message: string } {
  if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') return { status: 414, code: 'uri_too_long', message: 'A path parameter is longer than the server accepts' };
  if (error.code === 'FST_ERR_BAD_URL') return { status: 400, code: 'bad_request', message: 'The URL is malformed: a percent-encoded part does not decode' };
  request.log.error({ err: error }, 'unexpected router fault');
  return { status: 500, code: 'internal', message: 'Internal server error' };
}

const CLIENT_ERROR_STATUS: Record<string, { status: number; reason: string; message: string }> = {
  HPE_HEADER_OVERFLOW: { status: 431, reason: 'Request Header Fields Too Large', message: 'The request headers are larger than the server accepts' },
  ERR_HTTP_REQUEST_TIMEOUT: { status: 408, reason: 'Request Timeout', message: 'The request was not received in time' },
};

/**
 * A request Node's HTTP parser refused (a bad header character, headers over the limit, a malformed
 * request line): answered in the envelope, then the connection is closed, since what follows on it
 * cannot be trusted to start a request.
 */
export function clientErrorHandler(error: Error & { code?: string }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  if (!socket.writable) {
    socket.destroy(error);
    return;
  }
  const known = CLIENT_ERROR_STATUS[error.code ?? ''] ?? { status: 400, reason: 'Bad Request', message: 'The request is malformed and cannot be read' };
  const payload = JSON.stringify({
    success: false,
    message: known.message,
    error: { code: CODE_BY_STATUS[known.status], request_id: generateRequestId(), details: [] },
  });
  socket.end(
    `HTTP/1.1 ${known.status} ${known.reason}\r\nContent-Type: application/json; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(payload)}\r\nConnection: close\r\n\r\n${payload}`,
  );
}

export function installErrorHandler(app: FastifyInstance, dialect: Dialect, consoleFiles?: ConsoleFiles): void {
  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    if (error instanceof AppError) {
      if (error.status >= 500) request.log.error({ err: error }, 'request failed');
      return reply.code(error.status).headers(error.headers).send(body(request, error.code, error.message, error.details));
    }
    const client = fromFastifyError(error);
    if (client) {
      return reply.code(client.status).send(body(request, client.code, client.message, client.details));
    }
    if (dialect.isUnavailable(error)) {
      request.log.error({ err: error }, 'database unavailable');
      return reply
        .code(503)
        .header('retry-after', '5')
        .send(body(request, 'unavailable', 'The database is unavailable; try again shortly'));
    }
    request.log.error({ err: error }, 'unexpected fault');
    return reply.code(500).send(body(request, 'internal', 'Internal server error'));
  });

  app.setNotFoundHandler((request, reply) => {
    // The web console's files and pages are what no route of the API matches (console-files.ts).
    if (consoleFiles?.answerUnmatched(request, reply)) return;
    reply.code(404).send(body(request, 'not_found', `No route ${request.method} ${request.url.split('?')[0]}`));
  });
}
