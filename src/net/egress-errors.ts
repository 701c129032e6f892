// Errors of the egress client. Both are AppErrors so that a route can let them through as they are:
// a URL upload naming a refused or unreachable address is the client's mistake (400), a document over
// the size limit is a 413. Callers that talk to providers (LLM, embeddings) translate EgressFailed into
// their own answer (e.g. 503 Unavailable) because there the fault is not the client's.
//
// Messages name the URL without credentials, query or fragment, never the headers, and never the
// address a name resolved to (that would map the internal network for whoever asks).
import { AppError } from '../errors.js';

/** The short form of a URL that messages may show: scheme, host, port and path. */
export function describeUrl(url: URL): string {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return `a ${url.protocol} URL`;
  const path = url.pathname.length > 120 ? `${url.pathname.slice(0, 120)}…` : url.pathname;
  return `${url.protocol}//${url.host}${path}`;
}

export type EgressRefusedReason = 'scheme' | 'hostname' | 'address' | 'url';

/** The destination is not one the server may reach (SSRF guard). Nothing was sent. */
export class EgressRefused extends AppError {
  constructor(
    readonly reason: EgressRefusedReason,
    target: string,
    why: string,
  ) {
    super(400, 'bad_request', `Refused to fetch ${target}: ${why}`);
  }
}

export type EgressFailureKind = 'timeout' | 'too_large' | 'connection' | 'redirects' | 'aborted';

/** The destination was allowed but no complete answer came back. */
export class EgressFailed extends AppError {
  /** Whether trying again later may succeed (network trouble) or not (size, redirect loop). */
  readonly retryable: boolean;

  constructor(
    readonly kind: EgressFailureKind,
    message: string,
  ) {
    super(kind === 'too_large' ? 413 : 400, kind === 'too_large' ? 'payload_too_large' : 'bad_request', message);
    this.retryable = kind === 'timeout' || kind === 'connection';
  }
}
