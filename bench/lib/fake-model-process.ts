import { join } from 'node:path';
import { startChildServer, type ChildServer } from './child-server.js';
import type { CleanupStack } from './cleanup.js';
import { findFreePort } from './free-port.js';

export interface FakeModel {
  server: ChildServer;
  /** host:port, for the Agent Platform server's EGRESS_ALLOWED_HOSTS. */
  host: string;
  /** The base URL of an LLM configuration: http://127.0.0.1:<port>/v1. */
  baseUrl: string;
}

/** Starts bench/lib/fake-model-server.ts in a child process of its own (through tsx, as it is TypeScript). */
export async function startFakeModel(cleanup: CleanupStack): Promise<FakeModel> {
  const port = await findFreePort();
  const server = await startChildServer(
    {
      label: 'fake-model',
      nodeArgs: ['--import', 'tsx', join('bench', 'lib', 'fake-model-server.ts')],
      env: { FAKE_MODEL_PORT: String(port) },
      port,
      readyPath: '/v1/models',
    },
    cleanup,
  );
  return { server, host: new URL(server.baseUrl).host, baseUrl: `${server.baseUrl}/v1` };
}
