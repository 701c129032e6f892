// Builds the web console (console/, a Vite project) into dist/console/, where the server serves it
// from (src/http/console-files.ts), then writes a brotli and a gzip copy beside each file
// that compresses, so that the server sends them as they are rather than compressing per request.
// Vite and React are dependencies, not devDependencies: a production install builds the console on
// its first `npm start` as it builds the server.
import { existsSync, readFileSync } from 'node:fs';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import { describeInputs, filesUnder, staleReason, writeStamp } from './build-stamp.mjs';

/** Text formats worth compressing; images, fonts (woff2 is brotli already) and archives are not. */
const COMPRESSIBLE = /\.(html|js|mjs|css|svg|json|txt|map|xml|webmanifest|ico|wasm)$/;

const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);

/** What the console is built from: its sources, the generated API client it imports, and no output or cache. */
function consoleInputs(root) {
  const files = [...filesUnder(join(root, 'console'), ['node_modules', 'dist']), ...filesUnder(join(root, 'clients', 'typescript', 'src'))];
  return describeInputs(root, files);
}

/**
 * The installed version of every dependency of package.json: Vite, its React plugin and React among
 * them, and whatever else the console imports. A server-only upgrade rebuilds the console too, which
 * is rare and cheaper than missing an upgrade that changes the bundle.
 */
function dependencyVersions(root) {
  const { dependencies = {} } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const versions = {};
  for (const name of Object.keys(dependencies).sort()) {
    // Read from the file: some packages (the React plugin) do not export their package.json.
    const manifest = join(root, 'node_modules', name, 'package.json');
    versions[name] = existsSync(manifest) ? JSON.parse(readFileSync(manifest, 'utf8')).version : null;
  }
  return versions;
}

/**
 * Writes `<file>.br` (brotli, quality 11) and `<file>.gz` (gzip, level 9) beside every compressible
 * file under `folder`, each only when smaller than the file. Returns the files written.
 */
export async function precompressFolder(folder) {
  const entries = await readdir(folder, { recursive: true, withFileTypes: true });
  const files = entries.filter((entry) => entry.isFile() && COMPRESSIBLE.test(entry.name)).map((entry) => join(entry.parentPath, entry.name));
  const written = await Promise.all(files.map((file) => precompressFile(file)));
  return written.flat();
}

async function precompressFile(file) {
  const original = await readFile(file);
  const variants = await Promise.all([
    brotli(original, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: 11,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
        [constants.BROTLI_PARAM_SIZE_HINT]: original.length,
      },
    }).then((bytes) => ({ path: `${file}.br`, bytes })),
    gzipped(original, { level: 9 }).then((bytes) => ({ path: `${file}.gz`, bytes })),
  ]);
  // A tiny file can grow when compressed: then the server sends it as it is.
  const worth = variants.filter((variant) => variant.bytes.length < original.length);
  await Promise.all(worth.map((variant) => writeFile(variant.path, variant.bytes)));
  return worth.map((variant) => variant.path);
}

/**
 * Builds the console when `force`, or when its inputs changed since the last console build (a stamp in
 * dist/console/). Returns a line saying what was done, or undefined when nothing was; throws when the
 * build fails. Without console/ there is nothing to build: the server then serves its home page at /.
 */
export async function buildConsoleIfStale(root, { force }) {
  const source = join(root, 'console');
  const outDir = join(root, 'dist', 'console');
  const stampFile = join(outDir, '.build-stamp.json');
  if (!existsSync(join(source, 'vite.config.ts'))) return force ? 'No console/ to build.' : undefined;
  const started = Date.now();
  const inputs = consoleInputs(root);
  const versions = dependencyVersions(root);
  const reason = force ? 'asked for' : staleReason(stampFile, inputs, versions);
  if (reason === undefined) return undefined;
  process.stderr.write(`Building dist/console/ (${reason})…\n`);
  const { build } = await import('vite');
  // Vite builds for whatever NODE_ENV it finds set (React's development bundles under NODE_ENV=test or
  // development); the console served is the production build, whoever asks for it.
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    await build({
      configFile: join(source, 'vite.config.ts'),
      mode: 'production',
      // Set here whatever the console's config says: Vite would otherwise take the working folder for
      // the root, and the server serves this folder only. Emptied first, so that no file of an earlier
      // build (nor its compressed copy) outlives it.
      root: source,
      build: { outDir, emptyOutDir: true },
      logLevel: 'warn',
    });
  } finally {
    if (nodeEnv === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = nodeEnv;
  }
  const compressed = await precompressFolder(outDir);
  writeStamp(stampFile, started, inputs, versions);
  return `Built the console in ${((Date.now() - started) / 1000).toFixed(1)} s (${compressed.length} compressed copies).`;
}
