// The OpenAI-compatible routes answer errors in OpenAI's shape (API.md §8, the one exception to §3),
// so that OpenAI's clients raise their usual errors. Every error of these routes (credentials, rate
// limit, validation, a failed model) is first written in the envelope by the one error handler;
// this hook, on these routes only, rewrites the envelope into OpenAI's body with the same status.
import type { FastifyInstance } from 'fastify';
import type { ErrorBody } from '../../http/error-handler.js';

const TYPE_BY_STATUS: Record<number, string> = {
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  429: 'rate_limit_error',
};

export interface OpenAiErrorBody {
  error: { message: string; type: string; code: string | null; param: string | null };
}

export function errorType(status: number): string {
  return TYPE_BY_STATUS[status] ?? (status >= 500 ? 'api_error' : 'invalid_request_error');
}

export function openAiError(status: number, code: string, message: string, param: string | null = null): OpenAiErrorBody {
  return { error: { message, type: errorType(status), code, param } };
}

/** The OpenAI error body for an envelope: this server's code (API.md §3), and the body field a detail points at as `param`. */
function fromEnvelope(status: number, envelope: ErrorBody): OpenAiErrorBody {
  const pointer = envelope.error.details[0]?.pointer;
  const param = pointer?.startsWith('/body/') ? pointer.slice('/body/'.length).split('/')[0]! : null;
  return openAiError(status, envelope.error.code, envelope.message, param);
}

function isEnvelope(value: unknown): value is ErrorBody {
  const body = value as Partial<ErrorBody> | null;
  return typeof body === 'object' && body !== null && body.success === false && typeof body.error?.code === 'string';
}

/** Rewrites error envelopes of the routes of `app` (an encapsulated plugin) into OpenAI's shape. */
export function installOpenAiErrorShape(app: FastifyInstance): void {
  app.addHook('onSend', async (_request, reply, payload) => {
    if (reply.statusCode < 400 || typeof payload !== 'string') return payload;
    let parsed: unknown;
    try {
      parsed = JSON.parse(payload);
    } catch {
      return payload;
    }
    return isEnvelope(parsed) ? JSON.stringify(fromEnvelope(reply.statusCode, parsed)) : payload;
  });
}
