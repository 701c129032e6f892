// The names /mcp answers to (API.md §9; the protection against DNS rebinding the MCP specification
// asks of a server): a page of another site whose name was made to resolve to this server sends its
// own name in Host and its own origin in Origin, so both are checked against the names the server
// knows for itself. Localhost names are always allowed: a browser never sends them for a foreign site.
// An entry is a host name, which matches on any port, or host:port, which matches that port alone.

/** Always allowed, on any port. */
const LOCALHOST_NAMES = ['localhost', '127.0.0.1', '[::1]'];

interface HostName {
  hostname: string;
  /** '' where the entry names no port: any port. */
  port: string;
}

/** A Host header or an allowed-host entry, as the URL parser reads it; undefined when it is not one. */
function readHost(host: string): HostName | undefined {
  if (host === '' || /[\s/?#@\\]/.test(host)) return undefined;
  try {
    const url = new URL(`http://${host}`);
    return { hostname: url.hostname, port: url.port };
  } catch {
    return undefined;
  }
}

/** Checks an MCP_ALLOWED_HOSTS entry at start; throws with the reason. */
export function parseMcpHost(entry: string): void {
  if (readHost(entry) === undefined) throw new Error(`"${entry}" is not a host name or host:port such as mcp.example.com or agents.internal:8080`);
}

export class McpHosts {
  private readonly anyPort = new Set<string>();
  private readonly exact = new Set<string>();

  /** The localhost names, the host of the public base URL, and the configured entries. */
  constructor(publicBaseUrl: URL, configured: string[], private readonly corsOrigins: string[]) {
    for (const entry of [...LOCALHOST_NAMES, publicBaseUrl.host, ...configured]) {
      const host = readHost(entry);
      if (host === undefined) continue;
      if (host.port === '') this.anyPort.add(host.hostname);
      else this.exact.add(`${host.hostname}:${host.port}`);
    }
  }

  /** Whether a Host header (host or host:port) names this server. */
  allowsHost(header: string | undefined): boolean {
    if (header === undefined) return false;
    const host = readHost(header);
    if (host === undefined) return false;
    return this.anyPort.has(host.hostname) || this.exact.has(`${host.hostname}:${host.port}`);
  }

  /** Whether an Origin header is this server's own (or an origin CORS_ORIGINS lists by name). */
  allowsOrigin(origin: string): boolean {
    if (this.corsOrigins.includes(origin)) return true;
    let url: URL;
    try {
      url = new URL(origin);
    } catch {
      return false; // "null" (a sandboxed page, a file) and anything else that is not an origin
    }
    if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.origin !== origin) return false;
    return this.allowsHost(url.host);
  }
}
