// The fetch function oauth4webapi is given (its customFetch option): every token request goes through
// the egress client, so the token endpoints obey the same address rules, deadlines and byte caps as
// every other outbound call of the server.
import type { EgressClient } from '../../../net/egress.js';

const TOKEN_RESPONSE_BYTES = 256 * 1024;

/**
 * Some providers answer `"refresh_token": ""` when they keep the former one; oauth4webapi refuses an
 * empty string, so it is read as no refresh token at all (the stored one stays).
 */
function withoutEmptyRefreshToken(body: Buffer): Buffer {
  if (!body.includes('"refresh_token"')) return body;
  try {
    const parsed = JSON.parse(body.toString('utf8')) as Record<string, unknown>;
    if (parsed === null || typeof parsed !== 'object' || parsed.refresh_token !== '') return body;
    delete parsed.refresh_token;
    return Buffer.from(JSON.stringify(parsed), 'utf8');
  } catch {
    return body;
  }
}

export function egressFetch(egress: EgressClient, signal?: AbortSignal) {
  return async (url: string, options: { method: string; headers: Record<string, string>; body: unknown; signal?: AbortSignal }): Promise<Response> => {
    const body = options.body instanceof URLSearchParams ? options.body.toString() : typeof options.body === 'string' ? options.body : undefined;
    const abort = options.signal ?? signal;
    const response = await egress.request(url, {
      method: options.method,
      headers: options.headers,
      ...(body !== undefined ? { body } : {}),
      maxBytes: TOKEN_RESPONSE_BYTES,
      maxRedirects: 0,
      ...(abort ? { signal: abort } : {}),
    });
    const headers = new Headers();
    for (const [name, value] of Object.entries(response.headers)) {
      if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
    }
    // A Response cannot carry a body with these statuses.
    const empty = response.status === 204 || response.status === 304;
    return new Response(empty ? null : new Uint8Array(withoutEmptyRefreshToken(response.body)), { status: response.status, headers });
  };
}
