// The SSRF guard of the egress client, end to end: a listener on loopback must receive no connection
// at all when the client is asked for a refused destination, directly, through DNS or by redirect.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LookupAddress } from 'node:dns';
import { createEgressClient, type EgressClient } from '../src/net/egress.js';
import { EgressFailed, EgressRefused } from '../src/net/egress-errors.js';
import { startListener, type Listener } from './support/listeners.js';
import { rejection } from './support/rejection.js';

/** Plays DNS: each test host name answers with fixed addresses; nothing reaches a real resolver. */
const fakeDns: Record<string, LookupAddress[]> = {
  'rebind.example': [{ address: '127.0.0.1', family: 4 }],
  'mixed.example': [
    { address: '93.184.216.34', family: 4 },
    { address: '127.0.0.1', family: 4 },
  ],
  'private.example': [{ address: '10.0.0.5', family: 4 }],
  'metadata.example': [{ address: '169.254.169.254', family: 4 }],
  'v6-loopback.example': [{ address: '::1', family: 6 }],
  'mapped.example': [{ address: '::ffff:127.0.0.1', family: 6 }],
  'api.allowed.example': [{ address: '127.0.0.1', family: 4 }],
};
async function resolveHost(hostname: string): Promise<LookupAddress[]> {
  const answer = fakeDns[hostname];
  if (answer === undefined) throw Object.assign(new Error(`no such host ${hostname}`), { code: 'ENOTFOUND' });
  return answer;
}

let target: Listener; // must never be reached
let allowed: Listener; // allow-listed; redirects wherever ?to= says
let client: EgressClient;

beforeAll(async () => {
  target = await startListener();
  allowed = await startListener((request, response) => {
    const to = new URL(request.url!, 'http://x').searchParams.get('to');
    if (to !== null) response.writeHead(302, { location: to }).end();
    else response.end('allowed');
  });
  client = createEgressClient({
    allowedHosts: [`127.0.0.1:${allowed.port}`, `api.allowed.example:${allowed.port}`],
    defaultTimeoutMs: 5_000,
    resolveHost,
  });
});

afterAll(async () => {
  client.close();
  await Promise.all([target.close(), allowed.close()]);
});

async function expectRefused(url: string, reason?: string): Promise<EgressRefused> {
  const before = target.connections();
  const refused = await rejection(client.request(url), EgressRefused);
  if (reason !== undefined) expect(refused.reason, url).toBe(reason);
  expect(refused.status).toBe(400);
  expect(refused.code).toBe('bad_request');
  expect(target.connections(), `${url} reached the listener`).toBe(before);
  return refused;
}

describe('egress refuses non-public destinations', () => {
  it('loopback in every spelling', async () => {
    const port = () => target.port;
    for (const host of [
      '127.0.0.1',
      '127.0.0.2',
      '[::1]',
      '[0:0:0:0:0:0:0:1]',
      '[::ffff:127.0.0.1]',
      '[::ffff:7f00:1]',
      '2130706433',
      '0x7f.0.0.1',
      '0x7f000001',
      '0177.0.0.1',
      '127.1',
      '127.0.1',
      '127.0.0.1.',
      '0',
      '0.0.0.0',
      '[::]',
    ]) {
      await expectRefused(`http://${host}:${port()}/`, 'address');
    }
  });

  it('loopback and internal host names', async () => {
    for (const host of ['localhost', 'LOCALHOST.', 'app.localhost', 'metadata.google.internal', 'metadata', 'printer.local']) {
      await expectRefused(`http://${host}:${target.port}/`, 'hostname');
    }
  });

  it('private, link-local, metadata, CGNAT, multicast and reserved addresses', async () => {
    for (const url of [
      'http://10.0.0.1/',
      'http://172.16.0.1/',
      'http://192.168.0.1/',
      'http://169.254.169.254/latest/meta-data/',
      'http://[fe80::1]/',
      'http://[fc00::1]/',
      'http://[fd00:ec2::254]/',
      'http://100.64.0.1/',
      'http://224.0.0.1/',
      'http://255.255.255.255/',
      'http://240.0.0.1/',
      'http://[::ffff:169.254.169.254]/',
      'http://[64:ff9b::7f00:1]/',
    ]) {
      await expectRefused(url, 'address');
    }
  });

  it('names that resolve to refused addresses, checked at connect time (DNS rebinding)', async () => {
    for (const host of ['rebind.example', 'mixed.example', 'private.example', 'metadata.example', 'v6-loopback.example', 'mapped.example']) {
      const error = await expectRefused(`http://${host}:${target.port}/`, 'address');
      expect(error.message).toContain(host);
      // the address it resolved to is not told: that would map the internal network
      expect(error.message).not.toMatch(/127\.0\.0\.1|10\.0\.0\.5|169\.254|::1/);
    }
  });

  it('schemes other than http and https', async () => {
    for (const url of [
      'file:///etc/passwd',
      `ftp://127.0.0.1:${target.port}/`,
      `gopher://127.0.0.1:${target.port}/_GET%20/`,
      'data:text/plain,hello',
      'javascript:alert(1)',
      `ws://127.0.0.1:${target.port}/`,
      `dict://127.0.0.1:${target.port}/`,
    ]) {
      await expectRefused(url, 'scheme');
    }
  });

  it('strings that are not absolute URLs', async () => {
    for (const url of ['', 'not a url', '/relative/path', 'http://[fe80::1%25eth0]/']) {
      await expectRefused(url, 'url');
    }
  });

  it('an allow-listed host on another port than the one allowed', async () => {
    await expectRefused(`http://127.0.0.1:${target.port}/`, 'address');
    await expectRefused(`http://api.allowed.example:${target.port}/`, 'address');
  });

  it('redirects to refused destinations, from an allowed host', async () => {
    for (const to of [
      `http://127.0.0.1:${target.port}/`,
      `http://localhost:${target.port}/`,
      `http://[::1]:${target.port}/`,
      `http://2130706433:${target.port}/`,
      `//127.0.0.1:${target.port}/protocol-relative`,
      `http://rebind.example:${target.port}/`,
      'http://169.254.169.254/latest/meta-data/',
      'file:///etc/passwd',
      `gopher://127.0.0.1:${target.port}/_x`,
    ]) {
      const requestsBefore = allowed.requests.length;
      await expectRefused(`${allowed.origin}/?to=${encodeURIComponent(to)}`);
      expect(allowed.requests.length).toBe(requestsBefore + 1);
    }
  });

  it('messages carry neither credentials nor query strings', async () => {
    const error = await expectRefused(`http://user:s3cret@127.0.0.1:${target.port}/path?token=abc#frag`);
    expect(error.message).toBe(`Refused to fetch http://127.0.0.1:${target.port}/path: the host is a loopback address`);
  });
});

describe('egress reaches allowed destinations', () => {
  it('an allow-listed host:port, by address', async () => {
    const answer = await client.request(`${allowed.origin}/hello`);
    expect(answer.status).toBe(200);
    expect(answer.body.toString()).toBe('allowed');
    expect(answer.url).toBe(`${allowed.origin}/hello`);
  });

  it('an allow-listed name, connecting to the address it resolves to', async () => {
    const answer = await client.request(`http://api.allowed.example:${allowed.port}/`);
    expect(answer.body.toString()).toBe('allowed');
  });

  it('a public name that does not resolve fails as a connection problem, not a refusal', async () => {
    const error = await rejection(client.request('http://nowhere.example/'), EgressFailed);
    expect(error.kind).toBe('connection');
    expect(error.message).toBe('Could not fetch http://nowhere.example/: the host name does not resolve');
  });
});
