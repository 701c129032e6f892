// The real server, as production runs it: `node dist/cli.js serve` on a fresh SQLite database in a
// temporary folder, with the first owner created from ADMIN_EMAIL and ADMIN_PASSWORD.
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { BenchConfig } from './bench-config.js';
import { startChildServer, type ChildServer } from './child-server.js';
import type { CleanupStack } from './cleanup.js';
import { LOOPBACK, findFreePort } from './free-port.js';
import { makeTempDir } from './temp-dir.js';

export const ADMIN_EMAIL = 'bench@example.com';

/**
 * The highest LIMIT_REQUESTS_PER_MINUTE the server accepts (src/config.ts). The rate limiter still
 * runs on every request, as in production, but never refuses the benchmark's load.
 */
const REQUESTS_PER_MINUTE = 10_000_000;

export interface AgentPlatformServer {
  server: ChildServer;
  adminEmail: string;
  adminPassword: string;
}

export async function startAgentPlatform(config: BenchConfig, cleanup: CleanupStack): Promise<AgentPlatformServer> {
  const dataDir = await makeTempDir('agent-platform-bench', cleanup);
  const port = await findFreePort();
  // 15 random bytes are 20 base64url characters; the server asks for at least 12.
  const adminPassword = randomBytes(15).toString('base64url');
  const profiling = config.cpuProfileDir === undefined ? [] : ['--cpu-prof', '--cpu-prof-dir', config.cpuProfileDir];
  const server = await startChildServer(
    {
      label: 'agent-platform',
      nodeArgs: [...profiling, join('dist', 'cli.js'), 'serve'],
      env: {
        DATA_DIR: dataDir,
        PORT: String(port),
        HOST: LOOPBACK,
        LOG_LEVEL: 'warn',
        ADMIN_EMAIL,
        ADMIN_PASSWORD: adminPassword,
        LIMIT_REQUESTS_PER_MINUTE: String(REQUESTS_PER_MINUTE),
      },
      port,
      readyPath: '/health',
    },
    cleanup,
  );
  return { server, adminEmail: ADMIN_EMAIL, adminPassword };
}
