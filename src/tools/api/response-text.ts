// What the model reads of an API's answer: JSON written compactly, text as text, binary content
// described rather than shown, all cut to the output cap with a mark that says so; and a failure
// told in one sentence that never carries the request's secrets.
import { STATUS_CODES } from 'node:http';
import { EgressFailed, EgressRefused } from '../../net/egress-errors.js';
import type { EgressResponse } from '../../net/egress.js';

const BINARY_TYPE = /^(image|audio|video|font)\/|^application\/(octet-stream|pdf|zip|gzip|x-tar|vnd\.|msword)/i;

/** The text cut to `limit` characters, with a mark the model understands. */
export function capOutput(text: string, limit: number): string {
  if (text.length <= limit) return text;
  return `${text.slice(0, limit)}… [cut: the answer has ${text.length} characters, the first ${limit} are shown]`;
}

/** The body as text for the model. */
export function responseText(response: EgressResponse): string {
  const type = String(response.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (response.body.length === 0) return `(no content, HTTP ${response.status})`;
  if (BINARY_TYPE.test(type)) return `(binary content of type ${type}, ${response.body.length} bytes, not shown)`;
  const text = response.body.toString('utf8');
  if (type === 'application/json' || type.endsWith('+json') || /^\s*[[{]/.test(text)) {
    try {
      return JSON.stringify(JSON.parse(text));
    } catch {
      // Not JSON after all: given as the text it is.
    }
  }
  return text;
}

export function httpFailure(status: number, body: string): string {
  const reason = STATUS_CODES[status] ?? 'Error';
  return `The API answered HTTP ${status} ${reason}: ${body}`;
}

/** A failed call in one sentence (the egress errors name the URL without its query, credentials or headers). */
export function describeFailure(error: unknown, timeoutMs: number): string {
  if (error instanceof EgressRefused) return `The call was refused: ${error.message}`;
  if (error instanceof EgressFailed) {
    if (error.kind === 'timeout') return `The API did not answer within ${timeoutMs} ms`;
    if (error.kind === 'aborted') return 'The call was cancelled before the API answered';
    return `The call failed: ${error.message}`;
  }
  return `The call failed: ${error instanceof Error ? error.message : String(error)}`;
}
