// MSAL's HTTP goes through the platform's egress client (its networkClient option), so the token
// endpoint obeys the same address rules, deadlines and byte caps as every other outbound call.
// MSAL insists on https authorities; a login base configured as http (a fake identity platform on
// loopback in the tests) is reached by mapping MSAL's https URL of that host onto the configured origin.
import type { INetworkModule, NetworkRequestOptions, NetworkResponse } from '@azure/msal-node';
import type { EgressClient } from '../../../net/egress.js';

const TOKEN_RESPONSE_BYTES = 256 * 1024;

export function egressNetworkModule(egress: EgressClient, loginBase: URL, signal?: AbortSignal): INetworkModule {
  const target = (url: string) => {
    const parsed = new URL(url);
    if (parsed.host === loginBase.host) parsed.protocol = loginBase.protocol;
    return parsed;
  };
  const send = async <T>(method: 'GET' | 'POST', url: string, options?: NetworkRequestOptions, timeout?: number): Promise<NetworkResponse<T>> => {
    const response = await egress.request(target(url), {
      method,
      headers: options?.headers ?? {},
      ...(options?.body !== undefined ? { body: options.body } : {}),
      ...(timeout !== undefined ? { timeoutMs: timeout } : {}),
      maxBytes: TOKEN_RESPONSE_BYTES,
      ...(signal ? { signal } : {}),
    });
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(response.headers)) if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
    let body: unknown = {};
    try {
      body = JSON.parse(response.body.toString('utf8'));
    } catch {
      // MSAL reads a non-JSON answer as an empty one and reports the status.
    }
    return { headers, body: body as T, status: response.status };
  };
  return {
    sendGetRequestAsync: (url, options, timeout) => send('GET', url, options, timeout),
    sendPostRequestAsync: (url, options) => send('POST', url, options),
  };
}
