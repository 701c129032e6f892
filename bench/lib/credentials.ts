import { ApiClient } from './api-client.js';
import type { AgentPlatformServer } from './agent-platform-server.js';

/** Logs in as the first owner: a client that authenticates with the session token, as a browser does. */
export async function sessionClient(platform: AgentPlatformServer): Promise<ApiClient> {
  const anonymous = new ApiClient(platform.server.baseUrl);
  const session = await anonymous.call<{ token: string }>('POST', '/api/v2/auth/login', {
    email: platform.adminEmail,
    password: platform.adminPassword,
  });
  return anonymous.withBearer(session.token);
}

/**
 * Logs in as the first owner and creates an API key, returning a client that authenticates with the
 * key: API keys are what machines (the typical heavy callers) use, and their lookup is the hot path.
 */
export async function apiKeyClient(platform: AgentPlatformServer): Promise<ApiClient> {
  const session = await sessionClient(platform);
  const key = await session.call<{ key: string }>('POST', '/api/v2/auth/api-keys', { name: 'benchmark' }, 201);
  return session.withBearer(key.key);
}
