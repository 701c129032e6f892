// The one outbound HTTP client. URL uploads, providers (LLM, embeddings), API tools and web search
// all go through it, so that every request of the server obeys the same rules:
// - only http: and https:, to public addresses, checked when the socket connects (guarded-lookup.ts)
//   and, for IP literals, before (sockets do not look literals up);
// - redirects followed here, each hop checked by the same rules, at most `maxRedirects`;
// - one deadline for the whole call (every hop and the body), and a cap on the body's bytes;
// - hosts the administrator allow-lists may be private or loopback (a local Ollama, the tests).
import http from 'node:http';
import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import https from 'node:https';
import { classifyAddress, literalAddress, refusedHostname } from './address-policy.js';
import { AllowList } from './allowed-hosts.js';
import { EgressFailed, EgressRefused, describeUrl } from './egress-errors.js';
import { connectionFailure, redirectTarget, type OutgoingRequest } from './egress-hops.js';
import { traceOutgoingRequest } from './egress-span.js';
import { guardedLookup, systemResolver, type HostResolver } from './guarded-lookup.js';

export interface EgressClientOptions {
  /** Hosts or host:port that may be reached even when private or loopback. */
  allowedHosts?: readonly string[];
  /** Deadline of a whole call (all hops and the body) unless the call sets its own. */
  defaultTimeoutMs?: number;
  /** Largest response body accepted unless the call sets its own. */
  maxResponseBytes?: number;
  maxRedirects?: number;
  userAgent?: string;
  /** Replaces the system resolver; tests use it to play DNS answers (rebinding). */
  resolveHost?: HostResolver;
}

export interface EgressRequestInit {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Uint8Array;
  timeoutMs?: number;
  maxBytes?: number;
  maxRedirects?: number;
  signal?: AbortSignal;
}

export interface EgressResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
  /** The URL that answered, after redirects. */
  url: string;
}

export interface EgressStream {
  status: number;
  headers: IncomingHttpHeaders;
  /** Read it to the end or break out of it: either releases the connection and the deadline. */
  body: AsyncIterable<Buffer>;
  url: string;
}

export interface EgressClient {
  request(url: string | URL, init?: EgressRequestInit): Promise<EgressResponse>;
  /** Like request, but hands the body over as it arrives (Server-Sent Events from LLM providers). */
  stream(url: string | URL, init?: EgressRequestInit): Promise<EgressStream>;
  /** Closes idle kept-alive connections. */
  close(): void;
}

const MiB = 1024 * 1024;

export function createEgressClient(options: EgressClientOptions = {}): EgressClient {
  const allowList = new AllowList(options.allowedHosts ?? []);
  const resolveHost = options.resolveHost ?? systemResolver;
  const defaults = {
    timeoutMs: options.defaultTimeoutMs ?? 30_000,
    maxBytes: options.maxResponseBytes ?? 50 * MiB,
    maxRedirects: options.maxRedirects ?? 5,
  };
  const userAgent = options.userAgent ?? 'agent-platform';
  // Kept-alive sockets were connected through the guarded lookup, so reusing them is safe.
  const agents = { 'http:': new http.Agent({ keepAlive: true }), 'https:': new https.Agent({ keepAlive: true }) };

  function send(outgoing: OutgoingRequest, allowListed: boolean, signal: AbortSignal): Promise<IncomingMessage> {
    const { url } = outgoing;
    return new Promise((resolve, reject) => {
      if (signal.aborted) return reject(signal.reason);
      const transport = url.protocol === 'https:' ? https : http;
      const request = transport.request(url, {
        method: outgoing.method,
        headers: outgoing.headers,
        agent: agents[url.protocol as 'http:' | 'https:'],
        lookup: guardedLookup(resolveHost, describeUrl(url), allowListed),
      });
      traceOutgoingRequest(outgoing, request);
      // Destroying the request also ends a response being read: the deadline covers the body. A
      // response already received whole (its body not yet read by the caller) is ended by itself: its
      // socket may have no error listener left, and destroying it with the reason would throw.
      let answer: IncomingMessage | undefined;
      const onAbort = () => (answer?.complete ? answer.destroy() : request.destroy(signal.reason));
      signal.addEventListener('abort', onAbort, { once: true });
      request.once('close', () => signal.removeEventListener('abort', onAbort));
      request.once('response', (response: IncomingMessage) => resolve((answer = response)));
      request.once('error', (error) => reject(signal.aborted ? signal.reason : connectionFailure(error, url)));
      request.end(outgoing.body);
    });
  }

  async function* readBody(response: IncomingMessage, maxBytes: number, url: URL, signal: AbortSignal, done: () => void) {
    let received = 0;
    try {
      for await (const chunk of response as AsyncIterable<Buffer>) {
        received += chunk.length;
        if (received > maxBytes) {
          throw new EgressFailed('too_large', `The answer of ${describeUrl(url)} is larger than the limit of ${maxBytes} bytes`);
        }
        yield chunk;
      }
    } catch (error) {
      throw signal.aborted ? signal.reason : connectionFailure(error, url);
    } finally {
      response.destroy();
      done();
    }
  }

  async function stream(input: string | URL, init: EgressRequestInit = {}): Promise<EgressStream> {
    const timeoutMs = init.timeoutMs ?? defaults.timeoutMs;
    const maxBytes = init.maxBytes ?? defaults.maxBytes;
    const maxRedirects = init.maxRedirects ?? defaults.maxRedirects;
    let outgoing = firstRequest(input, init, userAgent);

    const deadline = new AbortController();
    const timer = setTimeout(() => {
      deadline.abort(new EgressFailed('timeout', `No complete answer from ${describeUrl(outgoing.url)} within ${timeoutMs} ms`));
    }, timeoutMs);
    const cancel = () => deadline.abort(new EgressFailed('aborted', `The request to ${describeUrl(outgoing.url)} was cancelled`));
    init.signal?.addEventListener('abort', cancel, { once: true });
    const done = () => {
      clearTimeout(timer);
      init.signal?.removeEventListener('abort', cancel);
    };
    if (init.signal?.aborted) cancel();

    try {
      for (let redirects = 0; ; redirects++) {
        const allowListed = checkDestination(outgoing.url, allowList);
        const response = await send(outgoing, allowListed, deadline.signal);
        const next = redirectTarget(outgoing, response);
        if (next !== undefined) {
          response.destroy();
          if (redirects >= maxRedirects) {
            throw new EgressFailed('redirects', `${describeUrl(outgoing.url)} redirected more than ${maxRedirects} times`);
          }
          outgoing = next;
          continue;
        }
        const declared = Number(response.headers['content-length']);
        if (Number.isFinite(declared) && declared > maxBytes) {
          response.destroy();
          throw new EgressFailed('too_large', `The answer of ${describeUrl(outgoing.url)} is larger than the limit of ${maxBytes} bytes`);
        }
        return {
          status: response.statusCode ?? 0,
          headers: response.headers,
          body: readBody(response, maxBytes, outgoing.url, deadline.signal, done),
          url: outgoing.url.href,
        };
      }
    } catch (error) {
      done();
      throw error;
    }
  }

  async function request(input: string | URL, init: EgressRequestInit = {}): Promise<EgressResponse> {
    const answer = await stream(input, init);
    const chunks: Buffer[] = [];
    for await (const chunk of answer.body) chunks.push(chunk);
    return { status: answer.status, headers: answer.headers, body: Buffer.concat(chunks), url: answer.url };
  }

  return {
    request,
    stream,
    close() {
      agents['http:'].destroy();
      agents['https:'].destroy();
    },
  };
}

/**
 * Throws EgressRefused unless the URL may be requested, judged before any DNS lookup (scheme, IP
 * literal, internal host names); answers whether the allow-list let it through. Addresses a name
 * resolves to are judged again when the socket connects. Also used to refuse a destination when it
 * is saved (an API tool's URL) rather than only when it is called.
 */
export function checkDestination(url: URL, allowList: AllowList): boolean {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new EgressRefused('scheme', describeUrl(url), 'only http: and https: URLs can be fetched');
  }
  if (allowList.permits(url)) return true;
  const literal = literalAddress(url.hostname);
  if (literal !== undefined) {
    const verdict = classifyAddress(literal);
    if (!verdict.allowed) throw new EgressRefused('address', describeUrl(url), `the host is ${verdict.kind}`);
    return false;
  }
  const why = refusedHostname(url.hostname);
  if (why !== undefined) throw new EgressRefused('hostname', describeUrl(url), why);
  return false;
}

function firstRequest(input: string | URL, init: EgressRequestInit, userAgent: string): OutgoingRequest {
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    throw new EgressRefused('url', 'the URL', 'it is not a valid absolute URL');
  }
  const headers: Record<string, string> = { 'user-agent': userAgent };
  for (const [name, value] of Object.entries(init.headers ?? {})) headers[name.toLowerCase()] = value;
  return { url, method: (init.method ?? 'GET').toUpperCase(), headers, body: init.body };
}
