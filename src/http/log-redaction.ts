// What the request log may show of a request. Of a URL: query parameters whose names look like
// credentials (token, key, secret, password, signature, code, session…) are logged as [redacted],
// since a client that puts one there should not find it in the log as well. Of the headers: none.
// The request's fields are listed one by one (serializeRequest) and Fastify's response serializer
// writes the status alone, so the headers that carry credentials (Authorization, Cookie with the
// ap_session token and the ap_csrf value, X-CSRF-Token, and Set-Cookie in answers) never reach a log line.
import type { FastifyRequest } from 'fastify';

const CREDENTIAL_NAME = /token|key|secret|passw|pwd|auth|sig|code|session|credential/i;

export function redactUrl(url: string): string {
  const question = url.indexOf('?');
  if (question === -1) return url;
  const pairs = url.slice(question + 1).split('&').map((pair) => {
    const equals = pair.indexOf('=');
    if (equals === -1) return pair;
    let name = pair.slice(0, equals);
    try {
      name = decodeURIComponent(name.replaceAll('+', ' '));
    } catch {
      // A name that does not decode is matched as sent.
    }
    return CREDENTIAL_NAME.test(name) ? `${pair.slice(0, equals)}=[redacted]` : pair;
  });
  return `${url.slice(0, question)}?${pairs.join('&')}`;
}

/** The request as every log line shows it (Fastify's default fields, the URL redacted; never a header). */
export function serializeRequest(request: FastifyRequest) {
  return {
    method: request.method,
    url: redactUrl(request.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}
