// Timed HTTP requests for the suites that measure one request at a time (a large listing, a
// sequence of searches): node:http directly, so that the client adds as little as possible to the
// time measured, and only to the loopback interface.
import { Agent, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { performance } from 'node:perf_hooks';
import { LOOPBACK } from './free-port.js';

export interface TimedResponse {
  status: number;
  headers: IncomingHttpHeaders;
  /** Bytes of the body received. */
  bytes: number;
  /** From sending the request to the last byte of the body, in milliseconds. */
  ms: number;
  /** From sending the request to the response's headers, in milliseconds. */
  firstByteMs: number;
  /** From sending the request to the first byte of the body (NaN when the body is empty), in milliseconds. */
  firstBodyByteMs: number;
  /** The body, when asked to keep it. */
  body: Buffer | undefined;
}

export interface TimedRequest {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Keep the body (to check it); otherwise only its bytes are counted. */
  keepBody?: boolean;
  agent?: Agent;
  timeoutMs?: number;
  /** Called with each piece of the body as it arrives and the milliseconds since the request was sent. */
  onData?: (chunk: Buffer, elapsedMs: number) => void;
}

export function timedRequest(url: string, options: TimedRequest = {}): Promise<TimedResponse> {
  const target = new URL(url);
  if (target.hostname !== LOOPBACK) return Promise.reject(new Error(`Refusing to request ${url}: only ${LOOPBACK} is allowed`));
  const body = options.body === undefined ? undefined : Buffer.isBuffer(options.body) ? options.body : Buffer.from(options.body);
  const headers: Record<string, string> = { ...options.headers };
  if (body !== undefined) headers['content-length'] = String(body.length);
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = httpRequest(
      {
        host: target.hostname,
        port: target.port,
        path: target.pathname + target.search,
        method: options.method ?? 'GET',
        headers,
        ...(options.agent === undefined ? { agent: false } : { agent: options.agent }),
        timeout: options.timeoutMs ?? 60_000,
      },
      (response) => {
        const firstByteMs = performance.now() - started;
        const chunks: Buffer[] = [];
        let bytes = 0;
        let firstBodyByteMs = Number.NaN;
        response.on('data', (chunk: Buffer) => {
          const elapsedMs = performance.now() - started;
          if (bytes === 0) firstBodyByteMs = elapsedMs;
          bytes += chunk.length;
          if (options.keepBody) chunks.push(chunk);
          options.onData?.(chunk, elapsedMs);
        });
        response.on('error', reject);
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            bytes,
            ms: performance.now() - started,
            firstByteMs,
            firstBodyByteMs,
            body: options.keepBody ? Buffer.concat(chunks) : undefined,
          }),
        );
      },
    );
    req.on('timeout', () => req.destroy(new Error(`${options.method ?? 'GET'} ${url}: no answer within ${options.timeoutMs ?? 60_000} ms`)));
    req.on('error', reject);
    req.end(body);
  });
}

/** One kept-alive connection, for timing requests one after another as a single client would. */
export function singleConnectionAgent(): Agent {
  return new Agent({ keepAlive: true, maxSockets: 1 });
}
