// The DNS step of every outbound connection. Node's sockets call this `lookup` to turn the host name
// into addresses and then connect to exactly the addresses it returns, so checking them here is
// checking the address connected to: a name that resolved to a public address when a URL was
// submitted and to 127.0.0.1 now (DNS rebinding) is refused now.
import { promises as dns } from 'node:dns';
import type { LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';
import { classifyAddress } from './address-policy.js';
import { EgressFailed, EgressRefused } from './egress-errors.js';

export type HostResolver = (hostname: string) => Promise<LookupAddress[]>;

/** The operating system's resolver (getaddrinfo: /etc/hosts, then DNS), every address it knows. */
export const systemResolver: HostResolver = (hostname) => dns.lookup(hostname, { all: true, verbatim: true });

function wantedFamily(family: number | string | undefined): 4 | 6 | undefined {
  if (family === 4 || family === 'IPv4') return 4;
  if (family === 6 || family === 'IPv6') return 6;
  return undefined;
}

/**
 * A lookup for one request. `target` is the URL as messages show it. When the host is on the
 * administrator's allow-list the addresses are not judged, only resolved.
 */
export function guardedLookup(resolve: HostResolver, target: string, allowListed: boolean): LookupFunction {
  const choose = (addresses: LookupAddress[], family: 4 | 6 | undefined): LookupAddress[] => {
    const usable = family === undefined ? addresses : addresses.filter((entry) => entry.family === family);
    if (usable.length === 0) {
      throw new EgressFailed('connection', `Could not fetch ${target}: the host name does not resolve`);
    }
    if (!allowListed) {
      // Every address must pass, not just the first: the socket may try them all (happy eyeballs).
      for (const entry of usable) {
        const verdict = classifyAddress(entry.address);
        if (!verdict.allowed) throw new EgressRefused('address', target, `the host resolves to ${verdict.kind}`);
      }
    }
    return usable;
  };

  return (hostname, options, callback) => {
    const family = wantedFamily(options.family);
    const answer = resolve(hostname).then(
      (addresses) => choose(addresses, family),
      () => {
        throw new EgressFailed('connection', `Could not fetch ${target}: the host name does not resolve`);
      },
    );
    answer.then(
      (addresses) => {
        if (options.all === true) callback(null, addresses);
        else callback(null, addresses[0]!.address, addresses[0]!.family);
      },
      (error: NodeJS.ErrnoException) => callback(error, '', 0),
    );
  };
}
