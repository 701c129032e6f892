// Starts a worker thread on one of the server's scripts: the compiled one when there is one (dist/,
// in production), the TypeScript source otherwise (tests and `npm run dev` run src/ through tsx).
// Node 20 does not apply `--import` from a worker's execArgv, so the source is loaded by a two-line
// bootstrap that registers tsx's loader inside the thread first.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker, type ResourceLimits } from 'node:worker_threads';

function sourceBootstrap(source: URL): string {
  // tsx's ESM API; its package also exports a CommonJS build under the same name, which
  // require.resolve finds, and whose ESM twin sits beside it.
  const api = createRequire(import.meta.url).resolve('tsx/esm/api').replace(/\.cjs$/, '.mjs');
  return `import(${JSON.stringify(pathToFileURL(api).href)}).then(({ register }) => { register(); return import(${JSON.stringify(source.href)}); });`;
}

/** A thread running `script` (the URL of its compiled `.js`, beside which the `.ts` source sits), within `resourceLimits`. */
export function startScriptThread(script: URL, resourceLimits: ResourceLimits): Worker {
  if (existsSync(fileURLToPath(script))) return new Worker(script, { resourceLimits });
  return new Worker(sourceBootstrap(new URL(script.href.replace(/\.js$/, '.ts'))), { eval: true, resourceLimits });
}
