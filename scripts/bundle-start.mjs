#!/usr/bin/env node
// Bundles the compiled start path (dist/cli.js and every module it imports, statically or not, from
// dist/) into dist/cli.js itself and a few chunks beside it (dist/start-*.js), so that a start reads a
// few files instead of some 1,200 modules.
// Bundled with it: the ES-module packages most of those files came from (Kysely, TypeBox, Orama's
// word lists). Every other package stays an import of node_modules, as before: the CommonJS ones
// (Fastify and its plugins, pino…: some read their own files or start threads from their folder),
// the native ones (better-sqlite3, sqlite-vec), and those loaded at first use.
// Each dynamic import() becomes a chunk of its own, loaded at that import as the module was, with the
// packages it imports: so what was loaded at first use still is, and src/young-generation.ts still
// runs before the rest is loaded.
// The rest of dist/ stays as tsc wrote it: worker threads (document extraction, API imports) start
// from those files. Each bundled module's `import.meta.url` is replaced by its own file's address in
// dist/, so the paths it makes relative to itself (the route schemas, the lexicon tables, the console,
// package.json, thread scripts) are the ones they were.
import { build } from 'esbuild';
import { readdirSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'dist');
const entry = join(dist, 'cli.js');

/** Pure JavaScript, ES modules, nothing read from their own folders: many files for little code. */
const BUNDLED_PACKAGES = new Set(['kysely', '@sinclair/typebox', '@orama/stopwords', '@orama/stemmers']);

function packageName(specifier) {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0];
}

/** Packages outside BUNDLED_PACKAGES stay imports; so do Node's own modules. */
const packagesOutside = {
  name: 'packages-outside',
  setup(esbuild) {
    esbuild.onResolve({ filter: /^[^./]/ }, (args) => (BUNDLED_PACKAGES.has(packageName(args.path)) ? undefined : { path: args.path, external: true }));
  },
};

/** `import.meta.url` of a module of dist/ is its own file's, wherever the bundle is. */
const ownFileUrl = {
  name: 'own-file-url',
  setup(esbuild) {
    esbuild.onLoad({ filter: /\.js$/ }, async (args) => {
      if (!args.path.startsWith(dist + sep)) return undefined;
      const source = await readFile(args.path, 'utf8');
      const own = `./${relative(dist, args.path).split(sep).join('/')}`;
      return { contents: source.replaceAll('import.meta.url', `new URL(${JSON.stringify(own)}, import.meta.url).href`), loader: 'js', resolveDir: dirname(args.path) };
    });
  },
};

const CHUNK_PREFIX = 'start-';

const started = Date.now();
// The chunks of an earlier build, whose names are their contents' digests.
for (const name of readdirSync(dist)) if (name.startsWith(CHUNK_PREFIX) && name.endsWith('.js')) rmSync(join(dist, name));
const result = await build({
  entryPoints: [entry],
  outdir: dist,
  entryNames: '[name]',
  // Beside the entry, so that the addresses made for import.meta.url hold in every chunk.
  chunkNames: `${CHUNK_PREFIX}[hash]`,
  splitting: true,
  allowOverwrite: true,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  plugins: [packagesOutside, ownFileUrl],
  logLevel: 'warning',
  metafile: true,
  legalComments: 'none',
});
// tsc's map of dist/cli.js, which no longer is tsc's (the bundle names each module's dist/ file in a
// comment above its code).
rmSync(`${entry}.map`, { force: true });
const modules = Object.keys(result.metafile.inputs).length;
const files = Object.keys(result.metafile.outputs).length;
process.stderr.write(`Bundled the start path into dist/cli.js and ${files - 1} chunks (${modules} modules) in ${Date.now() - started} ms.\n`);
