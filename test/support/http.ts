// Requests through the real app (app.inject), with JSON in and out.
import type { App } from '../../src/app.js';

export interface Reply<T = any> {
  status: number;
  headers: Record<string, string | string[] | number | undefined>;
  body: T;
  text: string;
}

export interface RequestOptions {
  token?: string | undefined;
  headers?: Record<string, string>;
  /** A raw payload sent as is (with its own content type in headers). */
  raw?: string | Buffer;
}

export async function request<T = any>(app: App, method: string, url: string, body?: unknown, options: RequestOptions = {}): Promise<Reply<T>> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  let payload: string | Buffer | undefined = options.raw;
  if (body !== undefined && payload === undefined) {
    payload = JSON.stringify(body);
    headers['content-type'] ??= 'application/json';
  }
  const response = await app.inject({ method: method as 'GET', url, headers, ...(payload === undefined ? {} : { payload }) });
  let parsed: unknown = undefined;
  try {
    parsed = response.body ? JSON.parse(response.body) : undefined;
  } catch {
    parsed = undefined;
  }
  return { status: response.statusCode, headers: response.headers, body: parsed as T, text: response.body };
}

/** A client bound to one app and one credential. */
export function client(app: App, token?: string) {
  return {
    get: <T = any>(url: string, options: RequestOptions = {}) => request<T>(app, 'GET', url, undefined, { token, ...options }),
    post: <T = any>(url: string, body?: unknown, options: RequestOptions = {}) => request<T>(app, 'POST', url, body, { token, ...options }),
    put: <T = any>(url: string, body?: unknown, options: RequestOptions = {}) => request<T>(app, 'PUT', url, body, { token, ...options }),
    delete: <T = any>(url: string, options: RequestOptions = {}) => request<T>(app, 'DELETE', url, undefined, { token, ...options }),
  };
}

export type Client = ReturnType<typeof client>;
