// A Debian package's files, fetched the way any machine with Debian's apt sources can: `apt-get
// download` (no install, no root needed) into a cache folder, then `dpkg-deb -x` beside it. Both
// are kept, so that later runs read the same files without the network.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readdir, rename, rm } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const COMMAND_TIMEOUT_MS = 300_000;

export interface UnpackedPackage {
  name: string;
  version: string;
  /** The folder the package's files were unpacked into (holding `usr/…`). */
  root: string;
}

/** The cache of downloaded packages: BENCH_CACHE_DIR, or agent-platform-bench in the user's cache folder. */
export function benchCacheDir(env: Record<string, string | undefined> = process.env): string {
  if (env.BENCH_CACHE_DIR) return env.BENCH_CACHE_DIR;
  return join(env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'agent-platform-bench');
}

async function downloadedFile(folder: string, name: string): Promise<string | undefined> {
  const files = existsSync(folder) ? await readdir(folder) : [];
  // apt-get writes <name>_<version, ':' as %3a>_<architecture>.deb.
  const file = files.filter((entry) => entry.startsWith(`${name}_`) && entry.endsWith('.deb')).sort().pop();
  return file === undefined ? undefined : join(folder, file);
}

async function aptGetDownload(folder: string, name: string): Promise<void> {
  try {
    await run('apt-get', ['download', name], { cwd: folder, timeout: COMMAND_TIMEOUT_MS });
  } catch (error) {
    // A machine whose package lists were never read knows no package: read them once, as root.
    if (process.getuid?.() !== 0) {
      throw new Error(`apt-get download ${name} failed (run \`apt-get update\` as root once?): ${(error as Error).message}`);
    }
    await run('apt-get', ['update', '-qq'], { timeout: COMMAND_TIMEOUT_MS });
    await run('apt-get', ['download', name], { cwd: folder, timeout: COMMAND_TIMEOUT_MS });
  }
}

/** The package's files from the cache, downloaded and unpacked first when they are not there yet. */
export async function unpackDebianPackage(name: string, cacheDir = benchCacheDir(), log: (message: string) => void = () => undefined): Promise<UnpackedPackage> {
  const debs = join(cacheDir, 'debs');
  await mkdir(debs, { recursive: true });
  let deb = await downloadedFile(debs, name);
  if (deb === undefined) {
    log(`downloading the Debian package ${name} into ${debs}`);
    await aptGetDownload(debs, name);
    deb = await downloadedFile(debs, name);
    if (deb === undefined) throw new Error(`apt-get download ${name} left no ${name}_*.deb in ${debs}`);
  }
  const version = (await run('dpkg-deb', ['--field', deb, 'Version'])).stdout.trim();
  const root = join(cacheDir, 'unpacked', `${name}_${version.replace(/[^\w.+~-]/g, '_')}`);
  if (!existsSync(root)) {
    log(`unpacking ${deb}`);
    // Unpacked beside, then renamed: an interrupted run never leaves a half-unpacked folder behind.
    const partial = `${root}.partial-${process.pid}`;
    await rm(partial, { recursive: true, force: true });
    await mkdir(partial, { recursive: true });
    await run('dpkg-deb', ['-x', deb, partial], { timeout: COMMAND_TIMEOUT_MS });
    await rename(partial, root);
  }
  return { name, version, root };
}
