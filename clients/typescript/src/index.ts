// The typed client of the Agent Platform API: the paths and schemas of the server's OpenAPI document
// (openapi.ts, generated: `npm run client:generate` at the repository's root), called through
// openapi-fetch, and a reader of the server's event streams (answers, document progress).
import createFetchClient, { type Client, type ClientOptions } from 'openapi-fetch';
import type { components, paths } from './openapi.js';

export type { components, operations, paths } from './openapi.js';
export type Schemas = components['schemas'];
export type AgentPlatformClient = Client<paths>;

export interface AgentPlatformClientOptions extends ClientOptions {
  /** A bearer token or API key; without one, the client relies on the browser's session cookie. */
  token?: string;
}

/** A client of the server at `baseUrl` (the origin it is served from when omitted, in a browser). */
export function createClient(options: AgentPlatformClientOptions = {}): AgentPlatformClient {
  const { token, headers, ...rest } = options;
  const authorization = token === undefined ? {} : { authorization: `Bearer ${token}` };
  return createFetchClient<paths>({ ...rest, headers: { ...authorization, ...(headers as Record<string, string> | undefined) } });
}

/** One event of a `text/event-stream` answer. */
export interface ServerSentEvent {
  event: string;
  data: string;
  id?: string;
}

/**
 * The events of a `text/event-stream` body, as they arrive (the WHATWG event stream format: `event`,
 * `data` and `id` fields, an empty line ends an event, `:` lines are comments).
 */
export async function* readEventStream(body: ReadableStream<Uint8Array>, signal?: AbortSignal): AsyncGenerator<ServerSentEvent> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const abort = () => void reader.cancel().catch(() => undefined);
  signal?.addEventListener('abort', abort, { once: true });
  let buffer = '';
  let event: { event?: string; data: string[]; id?: string } = { data: [] };
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buffer += decoder.decode(value, { stream: true });
      let newline: number;
      while ((newline = buffer.search(/\r\n|\r|\n/)) >= 0) {
        const line = buffer.slice(0, newline);
        buffer = buffer.slice(newline + (buffer.startsWith('\r\n', newline) ? 2 : 1));
        if (line === '') {
          if (event.data.length > 0 || event.event !== undefined) {
            yield { event: event.event ?? 'message', data: event.data.join('\n'), ...(event.id === undefined ? {} : { id: event.id }) };
          }
          event = { data: [] };
          continue;
        }
        if (line.startsWith(':')) continue;
        const colon = line.indexOf(':');
        const field = colon < 0 ? line : line.slice(0, colon);
        const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
        if (field === 'event') event.event = value;
        else if (field === 'data') event.data.push(value);
        else if (field === 'id') event.id = value;
      }
    }
  } finally {
    signal?.removeEventListener('abort', abort);
    reader.releaseLock();
  }
}
