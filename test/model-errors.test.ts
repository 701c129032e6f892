// How a failed model call is classified, from the chain of errors the provider library hands back.
import { APICallError } from 'ai';
import { describe, expect, it } from 'vitest';
import { EgressFailed } from '../src/net/egress-errors.js';
import { classifyModelFailure } from '../src/providers/chat/model-errors.js';

const LABEL = 'The model provider at http://127.0.0.1:1';
const KEY = 'sk-test-0123456789abcdef';

function wrappedInStatus(statusCode: number, cause: unknown) {
  return new APICallError({ message: 'failed', url: 'http://127.0.0.1:1/v1/chat/completions', requestBodyValues: {}, statusCode, cause, responseBody: `key ${KEY}` });
}

describe('model failure classes', () => {
  it('a deadline met after the stream began is a timeout, though the library wraps it in the 200 answer', () => {
    const failure = classifyModelFailure(wrappedInStatus(200, new EgressFailed('timeout', 'deadline')), LABEL, 5000);
    expect(failure.error.errorClass).toBe('timeout');
    expect(failure.error.status).toBe(504);
    expect(failure.retryable).toBe(false);
  });

  it('a status with no transport failure behind it keeps its class', () => {
    expect(classifyModelFailure(wrappedInStatus(429, undefined), LABEL, 5000).error.errorClass).toBe('rate_limited');
    expect(classifyModelFailure(wrappedInStatus(401, undefined), LABEL, 5000).error.errorClass).toBe('auth');
    expect(classifyModelFailure(wrappedInStatus(503, undefined), LABEL, 5000)).toMatchObject({ retryable: true, error: { errorClass: 'bad_response' } });
  });

  it('a lost connection anywhere in the chain is unreachable and may be tried again', () => {
    const failure = classifyModelFailure(new Error('outer', { cause: wrappedInStatus(200, new EgressFailed('connection', 'reset')) }), LABEL, 5000);
    expect(failure).toMatchObject({ retryable: true, error: { errorClass: 'unreachable' } });
  });
});
