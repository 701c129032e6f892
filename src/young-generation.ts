// V8's young generation (the new space, where objects are born) grows, by a factor of two each time,
// while a process allocates much and keeps much of it; it does not shrink back when the process then
// idles. A start allocates much (every module, the routes, the migrations): left alone, the server
// idled with the largest young generation (32 MB) before its first request. Held at its first size
// during the start and let grow again once the server listens, it grows under load exactly as in a
// process that just started, and an idle server keeps 1 MB (measured: 35 MiB less resident memory,
// docs/performance-history.md).
import { setFlagsFromString } from 'node:v8';

/** V8's own factor (--semi-space-growth-factor), unless the process was started with another. */
const DEFAULT_GROWTH_FACTOR = 2;

function givenOnCommandLine(): boolean {
  return [...process.execArgv, ...(process.env.NODE_OPTIONS ?? '').split(/\s+/)].some((argument) => /^--semi[-_]space[-_]growth[-_]factor/.test(argument));
}

let held = false;

/** Called first thing by the CLI: the young generation stays at its first size until released. */
export function holdYoungGeneration(): void {
  if (held || givenOnCommandLine()) return;
  setFlagsFromString('--semi-space-growth-factor=1');
  held = true;
}

/** Once the process has started: the young generation grows again as V8 decides. */
export function releaseYoungGeneration(): void {
  if (!held) return;
  setFlagsFromString(`--semi-space-growth-factor=${DEFAULT_GROWTH_FACTOR}`);
  held = false;
}
