// Starts an extraction thread from the compiled script when there is one (dist/, in production),
// and from the TypeScript source otherwise (tests and `npm run dev` run src/ through tsx). Node 20
// does not apply `--import` from a worker's execArgv, so the source is loaded by a two-line bootstrap
// that registers tsx's loader inside the thread first.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker, type ResourceLimits } from 'node:worker_threads';

const COMPILED = new URL('./extraction-thread.js', import.meta.url);
const SOURCE = new URL('./extraction-thread.ts', import.meta.url);

function sourceBootstrap(): string {
  // tsx's ESM API; its package also exports a CommonJS build under the same name, which
  // require.resolve finds, and whose ESM twin sits beside it.
  const api = createRequire(import.meta.url).resolve('tsx/esm/api').replace(/\.cjs$/, '.mjs');
  return `import(${JSON.stringify(pathToFileURL(api).href)}).then(({ register }) => { register(); return import(${JSON.stringify(SOURCE.href)}); });`;
}

export function startExtractionThread(resourceLimits: ResourceLimits): Worker {
  if (existsSync(fileURLToPath(COMPILED))) return new Worker(COMPILED, { resourceLimits });
  return new Worker(sourceBootstrap(), { eval: true, resourceLimits });
}
