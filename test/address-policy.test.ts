// The classification behind the egress client, tested directly: public addresses are judged here and
// never connected to (this machine has no network, and tests send traffic only to loopback).
import { describe, expect, it } from 'vitest';
import { classifyAddress, literalAddress, refusedHostname } from '../src/net/address-policy.js';
import { AllowList, parseAllowedHost } from '../src/net/allowed-hosts.js';

describe('address classification', () => {
  it.each([
    ['8.8.8.8'],
    ['1.1.1.1'],
    ['93.184.216.34'],
    ['2606:4700:4700::1111'],
    ['2a00:1450:4001:80b::200e'],
    ['::ffff:8.8.8.8'],
  ])('lets the public address %s through', (address) => {
    expect(classifyAddress(address)).toEqual({ allowed: true });
  });

  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['::1', 'loopback'],
    ['10.0.0.1', 'private'],
    ['172.16.5.4', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['fc00::1', 'private'],
    ['fd12:3456::1', 'private'],
    ['169.254.169.254', 'link-local'],
    ['169.254.0.1', 'link-local'],
    ['fe80::1', 'link-local'],
    ['fe80::1%eth0', 'link-local'],
    ['0.0.0.0', 'unspecified'],
    ['::', 'unspecified'],
    ['100.64.0.1', 'carrier-grade'],
    ['100.127.255.254', 'carrier-grade'],
    ['224.0.0.1', 'multicast'],
    ['ff02::1', 'multicast'],
    ['255.255.255.255', 'broadcast'],
    ['240.0.0.1', 'reserved'],
    ['192.0.2.1', 'reserved'],
    ['198.18.0.1', 'reserved'],
    ['2001:db8::1', 'reserved'],
    // IPv4 hidden in IPv6: mapped, compatible, NAT64, 6to4, Teredo
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:a9fe:a9fe', 'link-local'],
    ['::ffff:10.1.2.3', 'private'],
    ['::127.0.0.1', 'loopback'],
    ['::7f00:1', 'reserved'],
    ['64:ff9b::7f00:1', 'special'],
    ['2002:7f00:1::', 'special'],
    ['2001:0:4136:e378::1', 'special'],
    // odd IPv4 notations, in case one reaches the check without URL normalisation
    ['2130706433', 'loopback'],
    ['0x7f.0.0.1', 'loopback'],
    ['0177.0.0.1', 'loopback'],
    ['127.1', 'loopback'],
    ['not-an-address', 'not a valid address'],
  ])('refuses %s (%s)', (address, words) => {
    const verdict = classifyAddress(address);
    expect(verdict.allowed).toBe(false);
    expect(verdict.allowed === false && verdict.kind).toContain(words);
  });
});

describe('host names', () => {
  it.each(['localhost', 'LOCALHOST.', 'app.localhost', 'metadata.google.internal', 'db.internal', 'printer.local', 'metadata', 'intranet', 'router.home.arpa'])(
    'refuses %s',
    (hostname) => {
      expect(refusedHostname(hostname)).toBeDefined();
    },
  );

  it.each(['example.com', 'api.openai.com', 'docs.example.org.'])('leaves %s to DNS and the connect-time check', (hostname) => {
    expect(refusedHostname(hostname)).toBeUndefined();
  });

  it('recognises IP literals in URL form', () => {
    expect(literalAddress('[::1]')).toBe('::1');
    expect(literalAddress('127.0.0.1')).toBe('127.0.0.1');
    expect(literalAddress('example.com')).toBeUndefined();
  });
});

describe('allow-list', () => {
  it('normalises entries the way URLs are', () => {
    expect(parseAllowedHost('LocalHost')).toEqual({ hostname: 'localhost', port: undefined });
    expect(parseAllowedHost('127.1:11434')).toEqual({ hostname: '127.0.0.1', port: 11434 });
    expect(parseAllowedHost('[0:0::1]:8080')).toEqual({ hostname: '[::1]', port: 8080 });
    expect(parseAllowedHost(' ollama.internal. ')).toEqual({ hostname: 'ollama.internal', port: undefined });
  });

  it.each(['', 'http://x', 'x/y', 'user@x', '*.example.com', 'x:0', 'x:99999', 'a b', '[::1'])('rejects the entry "%s"', (entry) => {
    expect(() => parseAllowedHost(entry)).toThrow('is not a host or host:port');
  });

  it('matches host, and port where the entry names one', () => {
    const list = new AllowList(['ollama.internal', '127.0.0.1:11434']);
    expect(list.permits(new URL('http://ollama.internal:1234/x'))).toBe(true);
    expect(list.permits(new URL('https://OLLAMA.internal./'))).toBe(true);
    expect(list.permits(new URL('http://127.0.0.1:11434/api'))).toBe(true);
    expect(list.permits(new URL('http://2130706433:11434/api'))).toBe(true);
    expect(list.permits(new URL('http://127.0.0.1:11435/api'))).toBe(false);
    expect(list.permits(new URL('http://127.0.0.1/api'))).toBe(false);
    expect(list.permits(new URL('http://evil.example/'))).toBe(false);
  });

  it('applies the default port of the scheme', () => {
    const list = new AllowList(['search.corp:443']);
    expect(list.permits(new URL('https://search.corp/'))).toBe(true);
    expect(list.permits(new URL('http://search.corp/'))).toBe(false);
  });
});
