// One search request through the egress client, the same way for every provider: the provider says
// what to send and how to read the answer; here the answer's status, size, deadline and JSON become
// results or a SearchFailed that says what happened in words, the API key never among them.
import { STATUS_CODES } from 'node:http';
import { EgressFailed, EgressRefused } from '../../net/egress-errors.js';
import type { EgressClient } from '../../net/egress.js';
import type { SentRequest } from '../tool.js';
import { SearchFailed, type SearchHit, type SearchOptions } from './provider.js';

export interface ProviderRequest {
  method: 'GET' | 'POST';
  url: URL;
  headers: Record<string, string>;
  body: string | null;
}

/** What a provider knows: how to ask, how to read the answer, and what a refusal of its key means. */
export interface ProviderProtocol {
  label: string;
  request(query: string, maxResults: number): ProviderRequest;
  /** Throws SearchFailed when the JSON is not the provider's answer. */
  parse(answer: unknown): SearchHit[];
  /** The message for a 401 or 403. */
  refusedMessage(status: number): string;
}

export const MASK = '****';

/** The request with the secret replaced wherever it appears (headers, URL, body). */
export function maskedRequest(request: ProviderRequest, secret: string | null): SentRequest {
  const hide = (text: string) => (secret ? text.split(secret).join(MASK) : text);
  return {
    method: request.method,
    url: hide(request.url.href),
    headers: Object.fromEntries(Object.entries(request.headers).map(([name, value]) => [name, hide(value)])),
    body: request.body === null ? null : hide(request.body),
  };
}

/** The provider's own words about an error, short, without the secret. */
function providerWords(body: Buffer, secret: string | null): string {
  const text = body.toString('utf8').replace(/\s+/g, ' ').trim().slice(0, 200);
  const hidden = secret ? text.split(secret).join(MASK) : text;
  return hidden === '' ? '' : `: ${hidden}`;
}

function statusFailure(protocol: ProviderProtocol, status: number, body: Buffer, secret: string | null, retryAfter: string | undefined): SearchFailed {
  const { label } = protocol;
  if (status === 401 || status === 403) return new SearchFailed(protocol.refusedMessage(status), status);
  if (status === 429) {
    const wait = retryAfter ? ` (it asks to wait ${retryAfter} s)` : '';
    return new SearchFailed(`${label} is limiting the rate of searches (HTTP 429)${wait}; try again later`, status);
  }
  if (status >= 500) return new SearchFailed(`${label} failed (HTTP ${status} ${STATUS_CODES[status] ?? ''})`.replace(' )', ')'), status);
  return new SearchFailed(`${label} refused the search (HTTP ${status})${providerWords(body, secret)}`, status);
}

function transportFailure(label: string, error: unknown, timeoutMs: number): SearchFailed {
  if (error instanceof EgressRefused) return new SearchFailed(`The address of ${label} was refused: ${error.message}`);
  if (error instanceof EgressFailed) {
    if (error.kind === 'timeout') return new SearchFailed(`${label} did not answer within ${timeoutMs} ms`);
    if (error.kind === 'aborted') return new SearchFailed(`The search was cancelled before ${label} answered`);
    if (error.kind === 'too_large') return new SearchFailed(`The answer of ${label} is larger than the tool's limit`);
    return new SearchFailed(`${label} could not be reached: ${error.message}`);
  }
  return new SearchFailed(`${label} could not be reached: ${error instanceof Error ? error.message : String(error)}`);
}

export async function sendSearch(
  egress: EgressClient,
  protocol: ProviderProtocol,
  secret: string | null,
  query: string,
  options: SearchOptions,
): Promise<SearchHit[]> {
  const request = protocol.request(query, options.maxResults);
  let response;
  try {
    response = await egress.request(request.url, {
      method: request.method,
      headers: request.headers,
      ...(request.body === null ? {} : { body: request.body }),
      timeoutMs: options.timeoutMs,
      maxBytes: options.maxBytes,
      signal: options.signal,
    });
  } catch (error) {
    throw transportFailure(protocol.label, error, options.timeoutMs);
  }
  if (response.status >= 300) {
    const retryAfter = response.headers['retry-after'];
    throw statusFailure(protocol, response.status, response.body, secret, Array.isArray(retryAfter) ? retryAfter[0] : retryAfter);
  }
  let answer: unknown;
  try {
    answer = JSON.parse(response.body.toString('utf8'));
  } catch {
    throw new SearchFailed(`${protocol.label} answered with something that is not JSON (HTTP ${response.status})`, response.status);
  }
  return protocol.parse(answer).slice(0, options.maxResults);
}
