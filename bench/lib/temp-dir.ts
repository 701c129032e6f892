import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CleanupStack } from './cleanup.js';

/** A fresh folder under the system's temporary folder, removed with everything in it at cleanup. */
export async function makeTempDir(prefix: string, cleanup: CleanupStack): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), `${prefix}-`));
  cleanup.defer(`remove ${dir}`, () => rm(dir, { recursive: true, force: true, maxRetries: 3 }));
  return dir;
}
