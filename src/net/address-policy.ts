// Which destinations an outbound request may reach. Only public unicast addresses pass; every
// special-purpose range (loopback, private, link-local with the cloud metadata address, CGNAT,
// multicast, reserved, documentation, transition mechanisms that embed an IPv4 address…) is refused.
// The classification comes from ipaddr.js, which keeps the IANA special-purpose tables; this file
// only decides what to do with its answer.
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/** Why an address is refused, in words a user can read ("a loopback address"). */
export type AddressVerdict = { allowed: true } | { allowed: false; kind: string };

const RANGE_WORDS: Record<string, string> = {
  unspecified: 'an unspecified address',
  broadcast: 'a broadcast address',
  multicast: 'a multicast address',
  linkLocal: 'a link-local address',
  loopback: 'a loopback address',
  carrierGradeNat: 'a shared (carrier-grade NAT) address',
  private: 'a private address',
  uniqueLocal: 'a private address',
  reserved: 'a reserved address',
};

function describeRange(range: string): string {
  return RANGE_WORDS[range] ?? 'a special-purpose address';
}

// Global unicast IPv6 lives in 2000::/3. Everything outside it (IPv4-compatible ::a.b.c.d, NAT64
// 64:ff9b::/96, deprecated site-local…) is special, even where ipaddr.js has no name for it.
const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3');

/** The verdict on one IP address (v4 or v6, any notation ipaddr.js parses, zone id allowed). */
export function classifyAddress(address: string): AddressVerdict {
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.parse(address);
  } catch {
    return { allowed: false, kind: 'not a valid address' };
  }
  if (parsed.kind() === 'ipv6') {
    const v6 = parsed as ipaddr.IPv6;
    // ::ffff:127.0.0.1 reaches 127.0.0.1: judge the IPv4 address inside.
    if (v6.isIPv4MappedAddress()) return classifyIPv4(v6.toIPv4Address());
    const range = v6.range();
    if (range !== 'unicast') return { allowed: false, kind: describeRange(range) };
    if (!v6.match(GLOBAL_UNICAST_V6)) return { allowed: false, kind: 'a reserved address' };
    return { allowed: true };
  }
  return classifyIPv4(parsed as ipaddr.IPv4);
}

function classifyIPv4(address: ipaddr.IPv4): AddressVerdict {
  const range = address.range();
  return range === 'unicast' ? { allowed: true } : { allowed: false, kind: describeRange(range) };
}

// Names that point inside the machine or the cloud whatever DNS says. Single-label names ("db",
// "metadata") resolve through search domains to internal services, so they are refused too.
const INTERNAL_SUFFIXES = ['.localhost', '.local', '.internal', '.home.arpa', '.localdomain'];
const INTERNAL_NAMES = new Set(['localhost', 'localhost.localdomain', 'metadata.google.internal']);

/** Refusal reason for a host name (not an IP literal), or undefined when DNS may decide. */
export function refusedHostname(hostname: string): string | undefined {
  const name = hostname.toLowerCase().replace(/\.$/, '');
  if (name === '' || INTERNAL_NAMES.has(name) || INTERNAL_SUFFIXES.some((suffix) => name.endsWith(suffix))) {
    return 'the host name is internal';
  }
  if (!name.includes('.')) return 'the host name is not a public domain name';
  return undefined;
}

/** The IP address a URL host names literally ("[::1]" → "::1"), or undefined for a host name. */
export function literalAddress(hostname: string): string | undefined {
  const bare = hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
  return isIP(bare) === 0 ? undefined : bare;
}
