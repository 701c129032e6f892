// The administrator's allow-list: hosts (optionally host:port) the server may reach even though they
// are private or loopback, e.g. a local Ollama on 127.0.0.1:11434 or an intranet search service.
// Entries are normalised the way URLs are (case, IPv4 notations, IPv6 compression), so that
// "LocalHost", "127.1:11434" or "[0:0::1]" match what a URL for the same host carries.

export interface AllowedHost {
  hostname: string;
  /** undefined = any port */
  port: number | undefined;
}

const ENTRY = /^(\[[^\]]+\]|[^:[\]]+)(?::(\d{1,5}))?$/;

/** Parses one entry; throws with a readable message when it is not a host or host:port. */
export function parseAllowedHost(entry: string): AllowedHost {
  const trimmed = entry.trim();
  const match = ENTRY.exec(trimmed);
  let hostname: string | undefined;
  if (match !== null && !/[/?#@\s*]/.test(trimmed)) {
    try {
      hostname = normaliseHostname(new URL(`http://${match[1]}/`).hostname);
    } catch {
      hostname = undefined;
    }
  }
  const port = match?.[2] === undefined ? undefined : Number(match[2]);
  if (hostname === undefined || hostname === '' || (port !== undefined && (port < 1 || port > 65535))) {
    throw new Error(`"${entry}" is not a host or host:port (e.g. ollama.internal or 127.0.0.1:11434)`);
  }
  return { hostname, port };
}

function normaliseHostname(hostname: string): string {
  return hostname.toLowerCase().replace(/\.$/, '');
}

/** The port a URL connects to, spelled out or implied by its scheme. */
export function effectivePort(url: URL): number {
  if (url.port !== '') return Number(url.port);
  return url.protocol === 'https:' ? 443 : 80;
}

export class AllowList {
  private readonly entries: AllowedHost[];

  constructor(entries: readonly string[]) {
    this.entries = entries.map(parseAllowedHost);
  }

  /** Whether the administrator allowed this URL's host (and port, where the entry names one). */
  permits(url: URL): boolean {
    const hostname = normaliseHostname(url.hostname);
    const port = effectivePort(url);
    return this.entries.some((entry) => entry.hostname === hostname && (entry.port === undefined || entry.port === port));
  }
}
