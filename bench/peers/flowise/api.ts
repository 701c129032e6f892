// Flowise's own REST API, as its web UI calls it: the first account (open-source Flowise has one
// organization, whose first registered user is its owner), a login that sets the `token`,
// `refreshToken` and session cookies, then requests carrying those cookies and the
// `x-request-from: internal` header that makes Flowise check them (instead of an API key).
// Setup only: nothing here is timed.
import { LOOPBACK } from '../../lib/free-port.js';

export interface FlowiseClient {
  baseUrl: string;
  get<T>(path: string): Promise<T>;
  post<T>(path: string, body: unknown): Promise<T>;
}

const OWNER = { name: 'Bench Owner', email: 'bench@example.com', password: 'Bench-password-1' };

function checkLoopback(url: string): void {
  if (new URL(url).hostname !== LOOPBACK) throw new Error(`Refusing to call ${url}: only ${LOOPBACK} is allowed`);
}

async function call(url: string, init: RequestInit): Promise<Response> {
  checkLoopback(url);
  const response = await fetch(url, { ...init, signal: AbortSignal.timeout(60_000) });
  if (!response.ok) throw new Error(`${init.method ?? 'GET'} ${url} answered ${response.status}: ${(await response.text()).slice(0, 500)}`);
  return response;
}

/** name=value of each Set-Cookie, joined for a Cookie header. */
function cookiesOf(response: Response): string {
  return response.headers
    .getSetCookie()
    .map((cookie) => cookie.split(';')[0]!)
    .join('; ');
}

/** Registers the owner of a fresh Flowise, logs in, and returns a client carrying the login. */
export async function signIn(baseUrl: string): Promise<FlowiseClient> {
  const json = { 'content-type': 'application/json' };
  await call(`${baseUrl}/api/v1/account/register`, {
    method: 'POST',
    headers: json,
    body: JSON.stringify({ user: { name: OWNER.name, email: OWNER.email, credential: OWNER.password } }),
  });
  const login = await call(`${baseUrl}/api/v1/auth/login`, { method: 'POST', headers: json, body: JSON.stringify({ email: OWNER.email, password: OWNER.password }) });
  await login.arrayBuffer();
  const cookie = cookiesOf(login);
  if (!cookie.includes('token=')) throw new Error(`Flowise's login set no token cookie (cookies: ${cookie || 'none'})`);
  const headers = { ...json, cookie, 'x-request-from': 'internal' };
  return {
    baseUrl,
    async get<T>(path: string) {
      return (await (await call(baseUrl + path, { headers })).json()) as T;
    },
    async post<T>(path: string, body: unknown) {
      return (await (await call(baseUrl + path, { method: 'POST', headers, body: JSON.stringify(body) })).json()) as T;
    },
  };
}
