import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.js';
import { createEgressClient } from '../src/net/egress.js';

describe('egress configuration', () => {
  it('allows nothing private by default, with bounded time, size and redirects', () => {
    expect(loadConfig({}).egress).toEqual({ allowedHosts: [], defaultTimeoutMs: 30_000, maxResponseBytes: 50 * 1024 * 1024, maxRedirects: 5 });
  });

  it('reads the allow-list as a comma-separated list of host or host:port', () => {
    const config = loadConfig({ EGRESS_ALLOWED_HOSTS: ' 127.0.0.1:11434, ollama.internal ,,', EGRESS_TIMEOUT_MS: '5000', EGRESS_MAX_REDIRECTS: '0' });
    expect(config.egress).toMatchObject({ allowedHosts: ['127.0.0.1:11434', 'ollama.internal'], defaultTimeoutMs: 5000, maxRedirects: 0 });
  });

  it('names every entry that is not a host', () => {
    let error: unknown;
    try {
      loadConfig({ EGRESS_ALLOWED_HOSTS: 'http://x,ok.example,*.corp', EGRESS_MAX_REDIRECTS: '99' });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).problems).toEqual([
      'EGRESS_ALLOWED_HOSTS: "http://x" is not a host or host:port (e.g. ollama.internal or 127.0.0.1:11434)',
      'EGRESS_ALLOWED_HOSTS: "*.corp" is not a host or host:port (e.g. ollama.internal or 127.0.0.1:11434)',
      'EGRESS_MAX_REDIRECTS must be an integer from 0 to 20 (got "99")',
    ]);
  });

  it('gives the egress client its options as they are', () => {
    const client = createEgressClient(loadConfig({ EGRESS_ALLOWED_HOSTS: '127.0.0.1:11434' }).egress);
    client.close();
  });
});
