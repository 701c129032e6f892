// Flowise 3.1.3 from the npm registry, installed once into a cache folder outside the repository
// (never into the project's node_modules, never named in its package.json) and reused while its
// version is the one asked for. The install downloads well over a gigabyte and takes minutes.
//
// Install scripts are skipped, then only sqlite3's is run (`npm rebuild sqlite3`: its prebuilt
// binary, or a build from source with node-gyp). A plain install fails on a machine that reaches
// the npm registry and nothing else: faiss-node (a dependency of flowise-components, for a vector
// store the chatflow does not use) downloads its binary from GitHub, else clones faiss from GitHub,
// and npm rolls the whole install back when that fails. Other install scripts only fetch browsers
// or check binaries that a conversation chatflow does not load.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

export const FLOWISE_VERSION = '3.1.3';
/** Written once both steps succeeded, so that a half-made install is made again, not reused. */
const COMPLETE_MARK = 'bench-install-complete';

export interface FlowiseInstall {
  /** The cache folder holding package.json and node_modules/. */
  folder: string;
  /** node_modules/flowise. */
  packageDir: string;
  /** Versions of the packages that decide what is measured, as installed. */
  versions: Record<string, string>;
  /** Seconds the install took in this run; 0 when the cache was reused. */
  installSeconds: number;
}

/** BENCH_PEERS_CACHE, or ~/.cache/agent-platform-bench: one subfolder per peer and version. */
export function cacheFolder(): string {
  const root = process.env.BENCH_PEERS_CACHE ?? join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'agent-platform-bench');
  return join(root, `flowise-${FLOWISE_VERSION}`);
}

function installedVersion(folder: string, name: string): string | undefined {
  const manifest = join(folder, 'node_modules', name, 'package.json');
  if (!existsSync(manifest)) return undefined;
  return (JSON.parse(readFileSync(manifest, 'utf8')) as { version?: string }).version;
}

async function npm(folder: string, args: string[]): Promise<void> {
  const child = spawn(process.platform === 'win32' ? 'npm.cmd' : 'npm', args, { cwd: folder, stdio: ['ignore', 'inherit', 'inherit'] });
  const [code] = (await once(child, 'exit')) as [number | null];
  if (code !== 0) throw new Error(`npm ${args.join(' ')} failed in ${folder} (exit code ${code}); see its output above`);
}

async function npmInstall(folder: string, log: (message: string) => void): Promise<void> {
  // A package.json of its own, so that npm installs here and not into an enclosing project.
  const manifest = join(folder, 'package.json');
  if (!existsSync(manifest)) writeFileSync(manifest, `${JSON.stringify({ name: 'flowise-bench-peer', private: true }, null, 2)}\n`);
  log(`npm install --no-audit --no-fund --ignore-scripts flowise@${FLOWISE_VERSION} in ${folder} (several minutes, over a gigabyte)`);
  await npm(folder, ['install', '--no-audit', '--no-fund', '--ignore-scripts', `flowise@${FLOWISE_VERSION}`]);
  log('npm rebuild sqlite3 (its native binding; built from source when no prebuilt binary can be fetched)');
  await npm(folder, ['rebuild', 'sqlite3']);
  writeFileSync(join(folder, COMPLETE_MARK), `flowise@${FLOWISE_VERSION}\n`);
}

/** The cached install, made first when it is missing or of another version. */
export async function ensureFlowise(log: (message: string) => void): Promise<FlowiseInstall> {
  const folder = cacheFolder();
  mkdirSync(folder, { recursive: true });
  let installSeconds = 0;
  if (installedVersion(folder, 'flowise') !== FLOWISE_VERSION || !existsSync(join(folder, COMPLETE_MARK))) {
    const started = performance.now();
    await npmInstall(folder, log);
    installSeconds = (performance.now() - started) / 1000;
    if (installedVersion(folder, 'flowise') !== FLOWISE_VERSION) throw new Error(`npm did not install flowise@${FLOWISE_VERSION} into ${folder}`);
  } else {
    log(`reusing flowise@${FLOWISE_VERSION} in ${folder}`);
  }
  const versions: Record<string, string> = {};
  for (const name of ['flowise', 'flowise-components', '@langchain/openai', '@langchain/core', 'sqlite3', 'typeorm', 'express']) {
    versions[name] = installedVersion(folder, name) ?? 'not installed';
  }
  return { folder, packageDir: join(folder, 'node_modules', 'flowise'), versions, installSeconds };
}
