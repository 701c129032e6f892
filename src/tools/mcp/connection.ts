// One session with an MCP server, opened for one listing or one call and closed after it, with the
// official SDK's client: Streamable HTTP, the older HTTP+SSE transport (tried when a server in `auto`
// mode answers the first POST with 400, 404 or 405, as the SDK's documentation shows), or stdio for a
// command the operator lists. Every HTTP request of a session goes through the egress client (its
// `fetch`): address rules at connect time, redirects checked, the byte cap; the whole session, from
// the first request to the answer, has one deadline.
import { performance } from 'node:perf_hooks';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { RequestOptions } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { EgressFailed, EgressRefused } from '../../net/egress-errors.js';
import type { EgressClient } from '../../net/egress.js';
import { egressFetch } from '../../providers/chat/egress-fetch.js';
import { loadClientSdk, type ClientSdk } from './client-sdk.js';
import type { McpToolConfig } from './config.js';
import type { RemoteToolList } from '../tool.js';

/** Who the platform says it is to the servers it calls. */
const CLIENT_INFO = { name: 'agent-platform', version: '1' };

/** A session lives for one listing or call: a stream that breaks is not resumed, the call fails. */
const NO_RECONNECTION = { maxRetries: 0, initialReconnectionDelay: 1000, maxReconnectionDelay: 1000, reconnectionDelayGrowFactor: 1 };

/** Statuses with which a server that speaks only HTTP+SSE answers a Streamable HTTP POST. */
const NOT_STREAMABLE = new Set([400, 404, 405]);

export interface McpServerTarget {
  config: McpToolConfig;
  /** Sent as `Authorization: Bearer <secret>` when set. */
  secret: string | null;
  /** The request headers, opened. */
  headers: Record<string, string>;
}

export interface McpSessionDeps {
  egress: EgressClient;
  /** The commands of local servers the operator allows (MCP_STDIO_COMMANDS). */
  stdioCommands: readonly string[];
}

export interface McpSessionBounds {
  /** Deadline of the whole session. */
  timeoutMs: number;
  /** Largest body of one HTTP answer (the SSE stream of the older transport included). */
  maxResponseBytes: number;
  /** The caller's cancellation (the client went away). */
  signal?: AbortSignal;
}

/** The session's deadline passed before the server answered. */
export class McpDeadline extends Error {
  constructor(readonly timeoutMs: number) {
    super(`The MCP server did not answer within ${timeoutMs} ms`);
    this.name = 'McpDeadline';
  }
}

/** A local server whose command the operator does not (or no longer) list. */
export class McpCommandRefused extends Error {
  constructor(command: string) {
    super(`The command "${command}" is not one the operator allows for local MCP servers (MCP_STDIO_COMMANDS)`);
    this.name = 'McpCommandRefused';
  }
}

export interface McpSession {
  client: Client;
  /** Options for every request of the session: its signal and deadline. */
  options: RequestOptions;
  transport: RemoteToolList['transport'];
}

/**
 * The fetch with every failure of a request or of reading its body told to `onError` as it is: the SDK
 * reports a broken stream only as text, and a request waiting for that stream would wait for the deadline.
 */
function observedFetch(fetch: typeof globalThis.fetch, onError: (error: Error) => void): typeof globalThis.fetch {
  return async (input, init) => {
    let response: Response;
    try {
      response = await fetch(input, init);
    } catch (error) {
      onError(error as Error);
      throw error;
    }
    if (response.body === null) return response;
    const reader = response.body.getReader();
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        try {
          const next = await reader.read();
          if (next.done) controller.close();
          else controller.enqueue(next.value);
        } catch (error) {
          onError(error as Error);
          controller.error(error);
        }
      },
      cancel: (reason) => reader.cancel(reason),
    });
    return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
  };
}

function transportsOf(sdk: ClientSdk, target: McpServerTarget, deps: McpSessionDeps, bounds: McpSessionBounds, remaining: () => number, onError: (error: Error) => void) {
  const url = new URL(target.config.url!);
  const fetch = observedFetch(egressFetch(deps.egress, { timeoutMs: remaining, maxBytes: bounds.maxResponseBytes }), onError);
  const headers = { ...target.headers, ...(target.secret === null ? {} : { Authorization: `Bearer ${target.secret}` }) };
  return {
    streamable: () => new sdk.StreamableHTTPClientTransport(url, { fetch, requestInit: { headers }, reconnectionOptions: NO_RECONNECTION }),
    sse: () => new sdk.SSEClientTransport(url, { fetch, requestInit: { headers } }),
  };
}

/** The error that says most: ours and the egress client's, found through `cause`. */
export function rootOf(error: unknown): unknown {
  let current = error;
  for (let depth = 0; depth < 5 && current instanceof Error; depth++) {
    if (current instanceof McpDeadline || current instanceof EgressRefused || current instanceof EgressFailed || current instanceof McpCommandRefused) return current;
    if (current.cause === undefined) break;
    current = current.cause;
  }
  return error;
}

async function connectWith(sdk: ClientSdk, make: () => Transport, options: RequestOptions): Promise<Client> {
  const client = new sdk.Client(CLIENT_INFO);
  try {
    await client.connect(make(), options);
    return client;
  } catch (error) {
    closeQuietly(client);
    throw error;
  }
}

async function connect(target: McpServerTarget, deps: McpSessionDeps, bounds: McpSessionBounds, options: RequestOptions, remaining: () => number, onError: (error: Error) => void) {
  const { command, args, transport = 'auto' } = target.config;
  const sdk = await loadClientSdk();
  if (command !== undefined) {
    if (!deps.stdioCommands.includes(command)) throw new McpCommandRefused(command);
    // The child gets the SDK's short list of environment variables (PATH, HOME…), none of the server's settings.
    const client = await connectWith(sdk, () => new sdk.StdioClientTransport({ command, args: args ?? [], stderr: 'ignore' }), options);
    return { client, transport: 'stdio' as const };
  }
  const transports = transportsOf(sdk, target, deps, bounds, remaining, onError);
  if (transport !== 'sse') {
    try {
      return { client: await connectWith(sdk, transports.streamable, options), transport: 'streamable_http' as const };
    } catch (error) {
      const olderServer = error instanceof sdk.StreamableHTTPError && NOT_STREAMABLE.has(error.code ?? 0);
      if (transport === 'streamable_http' || !olderServer) throw error;
    }
  }
  return { client: await connectWith(sdk, transports.sse, options), transport: 'sse' as const };
}

/** Closing never holds the answer: a local server may take seconds to stop, and a failure to close changes nothing. */
function closeQuietly(client: Client): void {
  void client.close().catch(() => undefined);
}

/** Opens a session, runs `use` in it, and closes it; every request of it within one deadline. */
export async function withMcpSession<T>(target: McpServerTarget, deps: McpSessionDeps, bounds: McpSessionBounds, use: (session: McpSession) => Promise<T>): Promise<T> {
  const startedAt = performance.now();
  const remaining = () => Math.max(1, Math.round(bounds.timeoutMs - (performance.now() - startedAt)));
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(new McpDeadline(bounds.timeoutMs)), bounds.timeoutMs);
  const cancel = () => deadline.abort(bounds.signal?.reason ?? new Error('The call was cancelled'));
  bounds.signal?.addEventListener('abort', cancel, { once: true });
  if (bounds.signal?.aborted) cancel();
  const options: RequestOptions = { signal: deadline.signal, timeout: bounds.timeoutMs, maxTotalTimeout: bounds.timeoutMs };
  // An answer streamed back that breaks the byte cap, or a refused redirect, fails only its stream, not
  // the request waiting for it: the session ends there with that reason rather than at its deadline.
  const onError = (error: Error) => {
    const root = rootOf(error);
    // The egress deadline of a request is what remains of the session's: passing it is the session's deadline.
    if (root instanceof EgressFailed && root.kind === 'timeout') deadline.abort(new McpDeadline(bounds.timeoutMs));
    else if (root instanceof EgressFailed || root instanceof EgressRefused) deadline.abort(root);
  };
  let client: Client | undefined;
  try {
    const connected = await raceAbort(connect(target, deps, bounds, options, remaining, onError), deadline.signal);
    client = connected.client;
    return await raceAbort(use({ client, options, transport: connected.transport }), deadline.signal);
  } finally {
    clearTimeout(timer);
    bounds.signal?.removeEventListener('abort', cancel);
    if (client !== undefined) closeQuietly(client);
  }
}

/** The promise, or the signal's reason once it is aborted: a transport that ignores the signal cannot outlive the deadline. */
function raceAbort<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) {
    promise.catch(() => undefined);
    return Promise.reject(signal.reason as Error);
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason as Error);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error as Error);
      },
    );
  });
}
