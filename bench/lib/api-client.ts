// A small JSON client for setting up benchmarks (log in, create records). It only talks to the
// loopback interface: a benchmark must never send anything off the machine.
import { LOOPBACK } from './free-port.js';

const REQUEST_TIMEOUT_MS = 30_000;

export interface ApiResponse {
  status: number;
  headers: Headers;
  /** The body exactly as the server sent it. */
  text: string;
}

export class ApiError extends Error {
  constructor(
    readonly method: string,
    readonly path: string,
    readonly status: number,
    readonly body: string,
  ) {
    super(`${method} ${path} answered ${status}: ${body.slice(0, 500)}`);
  }
}

export class ApiClient {
  constructor(
    readonly baseUrl: string,
    private readonly bearer?: string,
  ) {
    if (new URL(baseUrl).hostname !== LOOPBACK) throw new Error(`Refusing to benchmark ${baseUrl}: only ${LOOPBACK} is allowed`);
  }

  withBearer(token: string): ApiClient {
    return new ApiClient(this.baseUrl, token);
  }

  /** The same credentials against another server (e.g. the same data folder restarted on a new port). */
  at(baseUrl: string): ApiClient {
    return new ApiClient(baseUrl, this.bearer);
  }

  /** The Authorization header this client sends, for handing to the load generator. */
  authorizationHeaders(): Record<string, string> {
    return this.bearer === undefined ? {} : { authorization: `Bearer ${this.bearer}` };
  }

  async request(method: string, path: string, body?: unknown): Promise<ApiResponse> {
    const headers: Record<string, string> = { ...this.authorizationHeaders() };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(this.baseUrl + path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    return { status: response.status, headers: response.headers, text: await response.text() };
  }

  /** Sends the request and returns the envelope's data; any other status than expected throws. */
  async call<T>(method: string, path: string, body?: unknown, expectedStatus = 200): Promise<T> {
    const response = await this.request(method, path, body);
    if (response.status !== expectedStatus) throw new ApiError(method, path, response.status, response.text);
    return (JSON.parse(response.text) as { data: T }).data;
  }
}
