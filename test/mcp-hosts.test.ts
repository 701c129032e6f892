// The names /mcp answers to (src/modules/mcp/mcp-hosts.ts): localhost on any port, the public base
// URL's host, MCP_ALLOWED_HOSTS; an Origin is the server's own when its host is one of those.
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { McpHosts } from '../src/modules/mcp/mcp-hosts.js';

describe('the hosts /mcp answers to', () => {
  const hosts = new McpHosts(new URL('https://agents.example.com'), ['mcp.internal:8080', 'Platform.Local'], ['https://app.example.com']);

  it('takes the localhost names on any port, the public host, and the configured names', () => {
    for (const host of ['localhost', 'localhost:3000', '127.0.0.1:8080', '[::1]:8080', 'agents.example.com', 'AGENTS.example.com:443', 'mcp.internal:8080', 'platform.local:9000']) {
      expect(hosts.allowsHost(host), host).toBe(true);
    }
  });

  it('refuses other names, another port of a host:port entry, and what is not a host', () => {
    for (const host of [undefined, '', 'evil.example.com', 'agents.example.com.evil.com', 'mcp.internal:8081', 'mcp.internal', '127.0.0.2', 'localhost@evil.com', 'evil.com/localhost', 'local host']) {
      expect(hosts.allowsHost(host), String(host)).toBe(false);
    }
  });

  it('takes an Origin of an allowed host or listed in CORS_ORIGINS, and refuses the others', () => {
    for (const origin of ['http://localhost:5173', 'https://agents.example.com', 'https://app.example.com']) expect(hosts.allowsOrigin(origin), origin).toBe(true);
    for (const origin of ['null', 'https://evil.example.com', 'http://app.example.com', 'file://localhost', 'https://agents.example.com/path', 'chrome-extension://abc']) {
      expect(hosts.allowsOrigin(origin), origin).toBe(false);
    }
  });

  it('reads MCP_ALLOWED_HOSTS at start and refuses an entry that is not a host', () => {
    expect(loadConfig({}).mcpAllowedHosts).toEqual([]);
    expect(loadConfig({ MCP_ALLOWED_HOSTS: 'mcp.example.com, agents.internal:8080' }).mcpAllowedHosts).toEqual(['mcp.example.com', 'agents.internal:8080']);
    expect(() => loadConfig({ MCP_ALLOWED_HOSTS: 'https://mcp.example.com/' })).toThrow(/MCP_ALLOWED_HOSTS/);
  });
});
