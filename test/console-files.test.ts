// The web console served by the server itself (API.md §9), from a small built console made here, and
// the build's precompression and stamp, on temporary folders.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SECURITY_HEADERS } from '../src/http/protection.js';
import { startTestApp, type TestApp } from './support/app.js';

const SCRIPT_TAG = '<script type="module" src="/assets/app-abc123.js"></script>';
const INDEX = `<!doctype html>\n<html lang="en">\n<head><meta charset="utf-8"><title>Console</title>${SCRIPT_TAG}</head>\n<body><div id="root"></div></body>\n</html>\n`;
const SCRIPT = `${'document.getElementById("root").textContent = "The console";\n'.repeat(40)}`;
const SECRET = 'the secret beside the console';
const IMMUTABLE = 'public, max-age=31536000, immutable';

const temporaryFolders: string[] = [];
afterAll(() => {
  for (const folder of temporaryFolders) rmSync(folder, { recursive: true, force: true });
});

function temporaryFolder(prefix: string): string {
  const folder = mkdtempSync(join(tmpdir(), prefix));
  temporaryFolders.push(folder);
  return folder;
}

/** A console as the build leaves it: index.html, a hashed asset, their compressed copies, a favicon, the stamp. */
function builtConsole(): string {
  const parent = temporaryFolder('console-files-');
  // Beside the console, where a path that climbed out of it would land.
  writeFileSync(join(parent, 'secret.txt'), SECRET);
  const dir = join(parent, 'console');
  mkdirSync(join(dir, 'assets'), { recursive: true });
  for (const [name, text] of [['index.html', INDEX], ['assets/app-abc123.js', SCRIPT]] as const) {
    writeFileSync(join(dir, name), text);
    writeFileSync(join(dir, `${name}.br`), brotliCompressSync(text));
    writeFileSync(join(dir, `${name}.gz`), gzipSync(text));
  }
  writeFileSync(join(dir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  writeFileSync(join(dir, '.build-stamp.json'), '{"builtAtMs":0,"files":[]}');
  mkdirSync(join(dir, '.vite'));
  writeFileSync(join(dir, '.vite', 'manifest.json'), '{}');
  return dir;
}

function expectSecurityHeaders(headers: Record<string, unknown>): void {
  for (const [name, value] of Object.entries(SECURITY_HEADERS)) expect(headers[name], name).toBe(value);
}

const browser = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };

describe('the console, built', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp('sqlite', { CONSOLE_DIR: builtConsole() });
  });
  afterAll(() => t.close());
  const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers });

  it('is the page of / for a browser, never cached without asking again, with the security headers', async () => {
    const page = await get('/', browser);
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.body).toBe(INDEX);
    expect(page.headers['cache-control']).toBe('no-cache');
    expect(page.headers.vary).toBe('Accept, Accept-Encoding');
    expectSecurityHeaders(page.headers);
  });

  it('leaves / to the JSON index for anything else', async () => {
    for (const headers of [{}, { accept: 'application/json' }, { accept: '*/*' }] as Record<string, string>[]) {
      const index = await get('/', headers);
      expect(index.statusCode).toBe(200);
      expect(index.json()).toMatchObject({ name: 'Agent Platform', docs: '/docs' });
      expect(index.headers.vary).toContain('Accept');
    }
  });

  it('sends the brotli or gzip copy to a client that takes it, the file itself otherwise', async () => {
    const br = await get('/', { ...browser, 'accept-encoding': 'gzip, deflate, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(INDEX);

    const gz = await get('/assets/app-abc123.js', { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gz.headers['content-type']).toMatch(/^(text|application)\/javascript; charset=utf-8$/);
    expect(gunzipSync(gz.rawPayload).toString()).toBe(SCRIPT);

    const plain = await get('/assets/app-abc123.js', { 'accept-encoding': 'identity' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(SCRIPT);
  });

  it('serves hashed assets for a year, with the security headers; HEAD too', async () => {
    for (const method of ['GET', 'HEAD'] as const) {
      const asset = await t.app.inject({ method, url: '/assets/app-abc123.js', headers: { 'accept-encoding': 'br' } });
      expect(asset.statusCode).toBe(200);
      expect(asset.headers['cache-control']).toBe(IMMUTABLE);
      expect(asset.headers.vary).toBe('Accept-Encoding');
      expectSecurityHeaders(asset.headers);
      if (method === 'HEAD') expect(asset.body).toBe('');
    }
  });

  it('answers a missing asset with the API 404, never the page, whatever Accept says', async () => {
    for (const url of ['/assets/app-000000.js', '/assets/app-abc123', '/assets', '/assets/']) {
      for (const headers of [{}, browser]) {
        const missing = await get(url, headers);
        expect(missing.statusCode, url).toBe(404);
        expect(missing.json().error.code).toBe('not_found');
        expectSecurityHeaders(missing.headers);
      }
    }
  });

  it('serves index.html by its name without a cache, and the other files of the build a short while', async () => {
    const index = await get('/index.html');
    expect(index.body).toBe(INDEX);
    expect(index.headers['cache-control']).toBe('no-cache');
    const icon = await get('/favicon.svg');
    expect(icon.statusCode).toBe(200);
    expect(icon.headers['content-type']).toBe('image/svg+xml');
    expect(icon.headers['cache-control']).toBe('public, max-age=3600');
    expectSecurityHeaders(icon.headers);
  });

  it('answers a browser opening one of its pages (a deep link) with the page, GET or HEAD', async () => {
    for (const url of ['/agents', '/agents/12/chat', '/corpora/3?tab=documents']) {
      const page = await get(url, browser);
      expect(page.statusCode, url).toBe(200);
      expect(page.body).toBe(INDEX);
      expect(page.headers['cache-control']).toBe('no-cache');
      expect(page.headers.vary).toBe('Accept, Accept-Encoding');
      expectSecurityHeaders(page.headers);
    }
    const head = await t.app.inject({ method: 'HEAD', url: '/agents/12/chat', headers: browser });
    expect(head.statusCode).toBe(200);
    expect(head.headers['content-type']).toBe('text/html; charset=utf-8');
  });

  it('keeps the 404 for the same path asked without text/html, by another method, or naming a file', async () => {
    const notFound = async (method: 'GET' | 'POST' | 'DELETE', url: string, headers: Record<string, string>) => {
      const reply = await t.app.inject({ method, url, headers });
      expect(reply.statusCode, `${method} ${url}`).toBe(404);
      expect(reply.json().error.code).toBe('not_found');
    };
    await notFound('GET', '/agents/12/chat', {});
    // The same URL is the page for a browser: caches must keep the two apart.
    expect((await get('/agents/12/chat')).headers.vary).toBe('Accept');
    await notFound('GET', '/agents/12/chat', { accept: 'application/json' });
    await notFound('POST', '/agents/12/chat', browser);
    await notFound('DELETE', '/agents/12/chat', browser);
    await notFound('GET', '/agents/report.pdf', browser);
    await notFound('GET', '/robots.txt', browser);
    // The build's own files are not served but by the names the build gave them.
    await notFound('GET', '/.build-stamp.json', browser);
    await notFound('GET', '/.vite/manifest.json', browser);
    await notFound('GET', '/assets/app-abc123.js.br', {});
  });

  it('never serves the console at the reserved paths, whatever Accept says', async () => {
    const reserved = ['/api', '/api/', '/api/v2/no-such-thing', '/api/v2/agents/12', '/mcp', '/mcp/x', '/.well-known/oauth-protected-resource',
      '/docs', '/docs/no-such-page', '/docsx', '/openapi.json', '/health', '/health/x', '/ready', '/metrics'];
    for (const url of reserved) {
      const reply = await get(url, browser);
      expect(reply.body, url).not.toContain(SCRIPT_TAG);
      expect(reply.headers['cache-control'], url).not.toBe('no-cache');
    }
    for (const url of ['/api/v2/no-such-thing', '/mcp/x', '/.well-known/x', '/docs/no-such-page', '/health/x']) {
      expect((await get(url, browser)).statusCode, url).toBe(404);
    }
  });

  it('never reaches a file outside its folder, however the path is written', async () => {
    const attempts = [
      '/assets/../../secret.txt',
      '/../secret.txt',
      '/assets/..%2f..%2fsecret.txt',
      '/assets/%2e%2e/%2e%2e/secret.txt',
      '/%2e%2e/secret.txt',
      '/%2e%2e%2fsecret.txt',
      '/assets/..%5c..%5csecret.txt',
      '/..%2f..%2f..%2f..%2f..%2f..%2fetc%2fpasswd',
      '/assets/%252e%252e/secret.txt',
      '//secret.txt',
      '/assets/..%2f..%2fpackage.json',
    ];
    for (const url of attempts) {
      for (const headers of [{}, browser]) {
        const reply = await get(url, headers);
        expect(reply.body, url).not.toContain(SECRET);
        expect(reply.statusCode, url).toBe(404);
      }
    }
  });
});

describe('the console, built, with CORS_ORIGINS', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp('sqlite', { CONSOLE_DIR: builtConsole(), CORS_ORIGINS: 'https://app.example.com' });
  });
  afterAll(() => t.close());

  it('keeps the Vary of CORS beside its own', async () => {
    const headers = { origin: 'https://app.example.com', 'accept-encoding': 'br' };
    const asset = await t.app.inject({ method: 'GET', url: '/assets/app-abc123.js', headers });
    expect(asset.headers['content-encoding']).toBe('br');
    expect(String(asset.headers.vary).split(', ').sort()).toEqual(['Accept-Encoding', 'Origin']);
    const page = await t.app.inject({ method: 'GET', url: '/agents/12/chat', headers: { ...headers, ...browser } });
    expect(String(page.headers.vary).split(', ').sort()).toEqual(['Accept', 'Accept-Encoding', 'Origin']);
  });
});

describe('the console, not built', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp('sqlite', { CONSOLE_DIR: temporaryFolder('no-console-') });
  });
  afterAll(() => t.close());

  it('leaves / to the page of links and unknown pages to the 404', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/', headers: browser });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('href="/docs"');
    const deep = await t.app.inject({ method: 'GET', url: '/agents/12/chat', headers: browser });
    expect(deep.statusCode).toBe(404);
    expect(deep.json().error.code).toBe('not_found');
  });
});

interface BuildStampScript {
  writeStamp(stampFile: string, startedAtMs: number, inputs: { file: string; mtimeMs: number }[], versions?: Record<string, string | null>): void;
  staleReason(stampFile: string, inputs: { file: string; mtimeMs: number }[], versions?: Record<string, string | null>): string | undefined;
  describeInputs(root: string, files: string[]): { file: string; mtimeMs: number }[];
}

describe('the console build', () => {
  it('writes a brotli and a gzip copy beside each text file that compresses, each reading back as the file', async () => {
    // @ts-expect-error: a script of the build, in JavaScript, without type declarations.
    const { precompressFolder } = (await import('../scripts/build-console.mjs')) as { precompressFolder(folder: string): Promise<string[]> };
    const dir = temporaryFolder('precompress-');
    mkdirSync(join(dir, 'assets', 'nested'), { recursive: true });
    const texts: Record<string, string> = {
      'index.html': `<!doctype html>${'<p>The console</p>\n'.repeat(50)}`,
      'assets/app-abc123.js': SCRIPT,
      'assets/app-abc123.css': 'body { margin: 0; }\n'.repeat(50),
      'assets/nested/data.json': JSON.stringify(Array.from({ length: 100 }, (_, i) => ({ i, name: 'item' }))),
    };
    for (const [name, text] of Object.entries(texts)) writeFileSync(join(dir, name), text);
    writeFileSync(join(dir, 'assets', 'font.woff2'), Buffer.alloc(4096, 7));
    writeFileSync(join(dir, 'tiny.txt'), 'a');

    const written = await precompressFolder(dir);

    expect(written.map((path) => path.slice(dir.length + 1)).sort()).toEqual(Object.keys(texts).flatMap((name) => [`${name}.br`, `${name}.gz`]).sort());
    for (const [name, text] of Object.entries(texts)) {
      expect(brotliDecompressSync(readFileSync(join(dir, `${name}.br`))).toString()).toBe(text);
      expect(gunzipSync(readFileSync(join(dir, `${name}.gz`))).toString()).toBe(text);
    }
  });

  it('rebuilds when an input is newer than the build, a file comes or goes, or a dependency changes version', async () => {
    // @ts-expect-error: a script of the build, in JavaScript, without type declarations.
    const stamp = (await import('../scripts/build-stamp.mjs')) as BuildStampScript;
    const root = temporaryFolder('stamp-');
    const stampFile = join(root, '.build-stamp.json');
    const source = join(root, 'main.tsx');
    writeFileSync(source, 'x');
    // Times set, not waited for: the build started at 2,000 s, the source last changed at 1,000 s.
    utimesSync(source, 1000, 1000);
    const inputs = () => stamp.describeInputs(root, [source]);
    expect(stamp.staleReason(stampFile, inputs(), { vite: '7.3.8' })).toBe('no previous build');

    stamp.writeStamp(stampFile, 2_000_000, inputs(), { vite: '7.3.8' });
    expect(stamp.staleReason(stampFile, inputs(), { vite: '7.3.8' })).toBeUndefined();
    expect(stamp.staleReason(stampFile, inputs(), { vite: '7.4.0' })).toBe('vite installed in another version');
    expect(stamp.staleReason(stampFile, inputs(), { vite: '7.3.8', react: '19.3.1' })).toBe('react installed in another version');

    utimesSync(source, 3000, 3000);
    expect(stamp.staleReason(stampFile, inputs(), { vite: '7.3.8' })).toBe('main.tsx changed');

    const added = join(root, 'added.ts');
    writeFileSync(added, 'y');
    utimesSync(added, 1000, 1000);
    expect(stamp.staleReason(stampFile, stamp.describeInputs(root, [source, added]), { vite: '7.3.8' })).toBe('files added or removed');
  });
});
