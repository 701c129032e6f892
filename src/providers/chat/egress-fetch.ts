// The fetch API over the egress client, for provider libraries that take a custom `fetch` (the AI
// SDK): every model call then obeys the server's address rules, deadline and byte caps like any other
// outbound request. The body arrives as it streams; an answer that breaks off once it has begun is
// reported as ResponseCut, so that callers can tell a cut stream from a host that cannot be reached.
import type { IncomingHttpHeaders } from 'node:http';
import type { EgressClient } from '../../net/egress.js';
import { EgressFailed } from '../../net/egress-errors.js';

export interface EgressFetchOptions {
  /**
   * Deadline of one whole request, body included; called per request (with the request's abort signal,
   * by which the caller may know its call) so that retries share one budget.
   */
  timeoutMs: (signal: AbortSignal | undefined) => number;
  /** Most bytes of an answer's body: one for every request, or one per request (read like the deadline); the egress client's own when absent. */
  maxBytes?: number | ((signal: AbortSignal | undefined) => number | undefined);
}

/** The answer had begun and then broke off (the connection dropped mid-stream). */
export class ResponseCut extends Error {
  constructor(
    readonly url: string,
    cause: unknown,
  ) {
    super(`The answer from ${url} broke off before it was complete`, { cause });
    this.name = 'ResponseCut';
  }
}

/** Statuses whose answers carry no body, which the Response constructor refuses one for. */
const NO_BODY = new Set([101, 204, 205, 304]);

export function egressFetch(egress: EgressClient, options: EgressFetchOptions): typeof fetch {
  return async (input, init) => {
    const request = await outgoingOf(input, init);
    const answer = await egress.stream(request.url, {
      method: request.method,
      headers: headersOf(request.headers),
      body: request.body,
      timeoutMs: options.timeoutMs(init?.signal ?? undefined),
      maxBytes: typeof options.maxBytes === 'function' ? options.maxBytes(init?.signal ?? undefined) : options.maxBytes,
      signal: init?.signal ?? undefined,
    });
    const responseHeaders = responseHeadersOf(answer.headers);
    if (NO_BODY.has(answer.status)) {
      await answer.body[Symbol.asyncIterator]().return?.();
      return new Response(null, { status: answer.status, headers: responseHeaders });
    }
    return new Response(readableOf(answer.body, answer.url), { status: answer.status, headers: responseHeaders });
  };
}

/**
 * The request's URL, method, headers and body. Provider libraries post a JSON string to a URL string:
 * that is taken as it is, without a Request object (whose body would be read back through a web stream).
 */
async function outgoingOf(input: Parameters<typeof fetch>[0], init: RequestInit | undefined) {
  if (typeof input === 'string' && (init?.body === undefined || init.body === null || typeof init.body === 'string')) {
    return { url: new URL(input).href, method: (init?.method ?? 'GET').toUpperCase(), headers: new Headers(init?.headers), body: init?.body ?? undefined };
  }
  const request = new Request(input, init);
  const body = request.body === null ? undefined : new Uint8Array(await request.arrayBuffer());
  return { url: request.url, method: request.method, headers: request.headers, body };
}

/** Empty credentials are left out rather than sent: a configuration without a key sends no key header. */
function headersOf(headers: Headers): Record<string, string> {
  const out: Record<string, string> = {};
  headers.forEach((value, name) => {
    const blank = value.trim() === '' || value.trim() === 'Bearer';
    if (blank && (name === 'authorization' || name === 'x-api-key' || name === 'api-key')) return;
    out[name] = value;
  });
  return out;
}

function responseHeadersOf(headers: IncomingHttpHeaders): Headers {
  const out = new Headers();
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) out.append(name, one);
  }
  return out;
}

function readableOf(body: AsyncIterable<Buffer>, url: string): ReadableStream<Uint8Array> {
  const chunks = body[Symbol.asyncIterator]();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const next = await chunks.next();
        if (next.done) controller.close();
        else controller.enqueue(new Uint8Array(next.value.buffer, next.value.byteOffset, next.value.byteLength));
      } catch (error) {
        // The deadline, a cancellation and the byte cap say what they are; anything else broke the answer off.
        const known = error instanceof EgressFailed && error.kind !== 'connection';
        controller.error(known ? error : new ResponseCut(url, error));
      }
    },
    async cancel() {
      await chunks.return?.();
    },
  });
}
