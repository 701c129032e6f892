// TRUST_PROXY as Fastify takes it. Fastify treats a bare hop count as "trust nothing" (a direct
// client could claim any address), so a count is turned into the rule it names: believe the last
// `hops` entries of X-Forwarded-For. Safe only when the server is reachable through its proxies alone
// (README: "Behind a reverse proxy"); a list of the proxies' addresses is safe everywhere.
import type { Config } from '../config.js';

export type TrustProxyOption = boolean | string[] | ((address: string, hop: number) => boolean);

export function trustProxyOption(setting: Config['trustProxy']): TrustProxyOption {
  if (typeof setting !== 'number') return setting;
  return (_address, hop) => hop < setting;
}
