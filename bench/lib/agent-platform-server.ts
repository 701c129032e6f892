// The real server, as production runs it: `node dist/cli.js serve` on a fresh SQLite database in a
// temporary folder, with the first owner created from ADMIN_EMAIL and ADMIN_PASSWORD. A suite that
// seeds the database directly stops the server and starts it again on the same folder.
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
  /** The server's DATA_DIR: its SQLite file, secret key and stored files. */
  dataDir: string;
  /** Settings added to the defaults (e.g. EGRESS_ALLOWED_HOSTS), kept across a restart. */
  env: Record<string, string>;
}

async function startOn(config: BenchConfig, cleanup: CleanupStack, dataDir: string, adminPassword: string, env: Record<string, string>): Promise<AgentPlatformServer> {
  const port = await findFreePort();
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
        ...env,
      },
      port,
      readyPath: '/health',
      // Migrations and worker threads start slowly on a busy machine: patience, not a failed run.
      startTimeoutMs: 120_000,
    },
    cleanup,
  );
  return { server, adminEmail: ADMIN_EMAIL, adminPassword, dataDir, env };
}

export async function startAgentPlatform(config: BenchConfig, cleanup: CleanupStack, env: Record<string, string> = {}): Promise<AgentPlatformServer> {
  const dataDir = await makeTempDir('agent-platform-bench', cleanup);
  // 15 random bytes are 20 base64url characters; the server asks for at least 12.
  return startOn(config, cleanup, dataDir, randomBytes(15).toString('base64url'), env);
}

/**
 * Stops the server (SIGTERM: it closes the database cleanly), runs `whileStopped` (e.g. writes to
 * its SQLite file), then starts a new server on the same data folder. Sessions and API keys stay
 * valid: they live in the database, and the secret key in the folder.
 */
export async function restartAgentPlatform(
  previous: AgentPlatformServer,
  config: BenchConfig,
  cleanup: CleanupStack,
  whileStopped: () => Promise<void> | void = () => undefined,
): Promise<AgentPlatformServer> {
  await previous.server.stop();
  if (!previous.server.hasExited()) throw new Error('the Agent Platform server did not stop');
  await whileStopped();
  return startOn(config, cleanup, previous.dataDir, previous.adminPassword, previous.env);
}
