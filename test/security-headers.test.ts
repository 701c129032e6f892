// The one Content-Security-Policy: built once, the same on the API reference, its assets and the
// API; it lets same-origin scripts and styles run, never upgrades to HTTPS, and no HSTS is sent
// (both are the proxy's decisions).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildContentSecurityPolicy, CONTENT_SECURITY_POLICY, CONTENT_SECURITY_POLICY_DIRECTIVES } from '../src/http/content-security-policy.js';
import { SECURITY_HEADERS } from '../src/http/protection.js';
import { startTestApp, type TestApp } from './support/app.js';

describe('the Content-Security-Policy', () => {
  it('is written from its directives: each with its sources, separated by semicolons', () => {
    expect(buildContentSecurityPolicy({ 'default-src': ["'none'"], 'img-src': ["'self'", 'data:'], 'block-all-mixed-content': [] })).toBe(
      "default-src 'none'; img-src 'self' data:; block-all-mixed-content",
    );
  });

  it('runs scripts and styles of this origin only, is not framed, and does not upgrade to HTTPS', () => {
    const directives = new Map(CONTENT_SECURITY_POLICY.split('; ').map((directive) => [directive.split(' ')[0], directive.split(' ').slice(1)]));
    expect(directives.get('default-src')).toEqual(["'none'"]);
    expect(directives.get('script-src')).toEqual(["'self'"]);
    expect(directives.get('script-src-attr')).toEqual(["'none'"]);
    expect(directives.get('connect-src')).toEqual(["'self'"]);
    expect(directives.get('frame-ancestors')).toEqual(["'none'"]);
    expect(CONTENT_SECURITY_POLICY).not.toContain('upgrade-insecure-requests');
    expect(CONTENT_SECURITY_POLICY).not.toMatch(/https:|http:/);
  });

  it('is worked out once, at start: the headers every answer carries hold that string', () => {
    expect(SECURITY_HEADERS['content-security-policy']).toBe(CONTENT_SECURITY_POLICY);
    expect(CONTENT_SECURITY_POLICY).toBe(buildContentSecurityPolicy(CONTENT_SECURITY_POLICY_DIRECTIVES));
  });
});

describe('the security headers of the app', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp('sqlite');
  });
  afterAll(() => t.close());

  it('/docs, its scripts and styles, its document and the API all carry the one policy, without HSTS', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/docs' });
    expect(page.statusCode).toBe(200);
    // What the policy allows is all the page needs: its scripts and styles from here, no inline script.
    const assets = [...page.body.matchAll(/(?:src|href)="([^"]+\.(?:js|css))"/g)].map((match) => match[1]!);
    expect(assets.length).toBeGreaterThanOrEqual(4);
    expect(page.body).not.toMatch(/(?:src|href)="https?:/);
    expect(page.body).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    for (const url of ['/docs', '/docs/', ...assets.map((asset) => new URL(asset, 'http://h/docs/').pathname), '/docs/json', '/openapi.json', '/api/v2/users/me', '/no/such/page']) {
      const reply = await t.app.inject({ method: 'GET', url });
      expect(reply.headers['content-security-policy'], url).toBe(CONTENT_SECURITY_POLICY);
      expect(reply.headers['strict-transport-security'], url).toBeUndefined();
      expect(reply.headers['x-content-type-options'], url).toBe('nosniff');
      for (const [name, value] of Object.entries(SECURITY_HEADERS)) expect(reply.headers[name], `${url} ${name}`).toBe(value);
    }
  });
});
