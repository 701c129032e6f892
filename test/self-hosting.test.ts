// What a self-hoster meets first: GET /, the client address behind a reverse proxy, and CORS, all
// through the real app.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { databaseKinds } from './support/databases.js';
import { startTestApp, type TestApp } from './support/app.js';

const login = { email: 'nobody@example.com', password: 'not the password at all' };

describe.each(databaseKinds)('self-hosting on %s', (kind) => {
  let running: TestApp | undefined;
  const start = async (env: Record<string, string> = {}) => (running = await startTestApp(kind, env));
  afterEach(async () => {
    await running?.close();
    running = undefined;
  });

  it('GET / says where one is: JSON by default, a page for a browser where the console was not built', async () => {
    // An empty folder: no console (the built one is test/console-files.test.ts's).
    const { app } = await start({ CONSOLE_DIR: mkdtempSync(join(tmpdir(), 'no-console-')) });
    const json = await app.inject({ method: 'GET', url: '/' });
    expect(json.statusCode).toBe(200);
    expect(json.json()).toMatchObject({ name: 'Agent Platform', docs: '/docs', openapi: '/openapi.json' });
    expect(json.json().version).toMatch(/^\d+\.\d+\.\d+/);
    expect(json.json().first_steps.length).toBeGreaterThan(0);
    expect(json.headers.vary).toContain('Accept');

    const page = await app.inject({ method: 'GET', url: '/', headers: { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' } });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.body).toContain('href="/docs"');
    expect(page.body).toContain('href="/openapi.json"');
    expect(page.body).toContain(json.json().version);
  });

  it('without TRUST_PROXY, X-Forwarded-For is ignored: every caller behind the proxy shares the login limit', async () => {
    const { app } = await start({ LIMIT_LOGINS_PER_MINUTE: '2' });
    const from = (address: string) => app.inject({ method: 'POST', url: '/api/v2/auth/login', payload: login, headers: { 'x-forwarded-for': address } });
    expect((await from('203.0.113.1')).statusCode).toBe(401);
    expect((await from('203.0.113.1')).statusCode).toBe(401);
    expect((await from('203.0.113.2')).statusCode).toBe(429);
  });

  it('with TRUST_PROXY naming the proxy, each client behind it has its own login limit', async () => {
    // app.inject comes from 127.0.0.1: the proxy.
    const { app } = await start({ LIMIT_LOGINS_PER_MINUTE: '2', TRUST_PROXY: '127.0.0.1,10.0.0.0/8' });
    const from = (address: string) => app.inject({ method: 'POST', url: '/api/v2/auth/login', payload: login, headers: { 'x-forwarded-for': address } });
    expect((await from('203.0.113.1')).statusCode).toBe(401);
    expect((await from('203.0.113.1')).statusCode).toBe(401);
    const limited = await from('203.0.113.1');
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toBeDefined();
    expect((await from('203.0.113.2')).statusCode).toBe(401);
    // A forged hop in front of the client is not believed past an untrusted address.
    expect((await from('198.51.100.7, 203.0.113.3')).statusCode).toBe(401);
  });

  it('TRUST_PROXY=1 believes the one hop the proxy appended', async () => {
    const { app } = await start({ LIMIT_LOGINS_PER_MINUTE: '1', TRUST_PROXY: '1' });
    const from = (forwarded: string) => app.inject({ method: 'POST', url: '/api/v2/auth/login', payload: login, headers: { 'x-forwarded-for': forwarded } });
    expect((await from('203.0.113.1')).statusCode).toBe(401);
    expect((await from('198.51.100.9, 203.0.113.1')).statusCode).toBe(429);
    expect((await from('203.0.113.2')).statusCode).toBe(401);
  });

  it('sends no CORS headers unless CORS_ORIGINS is set', async () => {
    const { app } = await start();
    const reply = await app.inject({ method: 'GET', url: '/health', headers: { origin: 'https://app.example.com' } });
    expect(reply.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('CORS_ORIGINS: answers preflights and exposes headers to allowed origins, nothing to others', async () => {
    const { app } = await start({ CORS_ORIGINS: 'https://app.example.com, http://localhost:5173' });
    const preflight = await app.inject({
      method: 'OPTIONS',
      url: '/api/v2/agents',
      headers: { origin: 'https://app.example.com', 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization,content-type' },
    });
    expect(preflight.statusCode).toBe(204);
    expect(preflight.headers['access-control-allow-origin']).toBe('https://app.example.com');
    expect(String(preflight.headers['access-control-allow-methods'])).toContain('POST');
    expect(String(preflight.headers['access-control-allow-headers']).toLowerCase()).toContain('authorization');
    expect(preflight.headers.vary).toContain('Origin');

    const allowed = await app.inject({ method: 'GET', url: '/api/version', headers: { origin: 'http://localhost:5173' } });
    expect(allowed.headers['access-control-allow-origin']).toBe('http://localhost:5173');
    expect(String(allowed.headers['access-control-expose-headers']).split(/,\s*/)).toEqual(expect.arrayContaining(['X-Request-Id', 'ETag', 'X-Total-Count', 'Retry-After']));
    expect(allowed.headers['access-control-allow-credentials']).toBeUndefined();

    // An error answer carries the headers too, or the browser could not read it.
    const unauthenticated = await app.inject({ method: 'GET', url: '/api/v2/agents', headers: { origin: 'https://app.example.com' } });
    expect(unauthenticated.statusCode).toBe(401);
    expect(unauthenticated.headers['access-control-allow-origin']).toBe('https://app.example.com');

    const refused = await app.inject({ method: 'GET', url: '/api/version', headers: { origin: 'https://evil.example.net' } });
    expect(refused.statusCode).toBe(200);
    expect(refused.headers['access-control-allow-origin']).toBeUndefined();
    const refusedPreflight = await app.inject({
      method: 'OPTIONS',
      url: '/api/v2/agents',
      headers: { origin: 'https://evil.example.net', 'access-control-request-method': 'DELETE' },
    });
    expect(refusedPreflight.headers['access-control-allow-origin']).toBeUndefined();
    expect(refusedPreflight.headers['access-control-allow-methods']).toBeUndefined();
  });

  it('CORS_ORIGINS=* allows any origin', async () => {
    const { app } = await start({ CORS_ORIGINS: '*' });
    const reply = await app.inject({ method: 'GET', url: '/health', headers: { origin: 'https://anywhere.example.org' } });
    expect(reply.headers['access-control-allow-origin']).toBe('*');
  });
});
