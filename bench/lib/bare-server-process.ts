import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { startChildServer, type ChildServer } from './child-server.js';
import type { CleanupStack } from './cleanup.js';
import { findFreePort } from './free-port.js';
import { makeTempDir } from './temp-dir.js';

export interface BareRoute {
  /** The Fastify route path, with the same parameters as the real route, so routing costs the same. */
  route: string;
  /** A concrete path that matches it, probed to know the server is ready. */
  samplePath: string;
  /** The JSON text to answer with. */
  body: string;
  /** Also forward asks (POST /api/v2/agents/:agent_id/responses) to this model (bench/bare-forward.ts). */
  forwardTo?: { baseUrl: string; model: string };
}

/** Starts bench/bare-server.ts in a child process (through tsx, as it is TypeScript). */
export async function startBareServer(bare: BareRoute, cleanup: CleanupStack, readyPollMs?: number): Promise<ChildServer> {
  const dir = await makeTempDir('agent-platform-bench-bare', cleanup);
  const bodyFile = join(dir, 'body.json');
  await writeFile(bodyFile, bare.body, 'utf8');
  const port = await findFreePort();
  return startChildServer(
    {
      label: 'bare-fastify',
      nodeArgs: ['--import', 'tsx', join('bench', 'bare-server.ts')],
      env: {
        BARE_PORT: String(port),
        BARE_ROUTE: bare.route,
        BARE_BODY_FILE: bodyFile,
        ...(bare.forwardTo === undefined ? {} : { BARE_MODEL_URL: bare.forwardTo.baseUrl, BARE_MODEL: bare.forwardTo.model }),
      },
      port,
      readyPath: bare.samplePath,
      ...(readyPollMs === undefined ? {} : { readyPollMs }),
    },
    cleanup,
  );
}
