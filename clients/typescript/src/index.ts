// The typed client of the Agent Platform API: the paths and schemas of the server's OpenAPI document
// (openapi.ts, generated: `npm run client:generate` at the repository's root), called through
// openapi-fetch; typed readers of the server's event streams (answers, document progress, chat
// completions); and the serializer of multipart uploads.
import createFetchClient, { type Client, type ClientOptions } from 'openapi-fetch';
import type { components, paths } from './openapi.js';

export type { components, operations, paths } from './openapi.js';
export { readEventStream, type ServerSentEvent } from './event-stream.js';
export { toFormData } from './form-data.js';
export {
  readAskEvents,
  readChatCompletionEvents,
  readCorpusEvents,
  type AskStreamEvent,
  type ChatCompletionStreamEvent,
  type CorpusStreamEvent,
  type EventStreamSource,
} from './typed-events.js';
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
