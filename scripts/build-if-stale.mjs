#!/usr/bin/env node
// Compiles src/ into dist/ only when a source (or the compiler settings) changed since the last
// build, so that `npm start` pays for tsc once, not on every start; then builds the web console into
// dist/console/ on the same rule (build-console.mjs). `--force` always builds both. After the
// TypeScript build, the routes' schemas are compiled into dist/route-schemas.cjs
// and its code file (compile-route-schemas.mjs), which starts use instead of compiling them, and the PII lexicon's word
// tables into dist/guardrails/pii/lexicon-tables.json (write-lexicon-tables.mjs), and the start path
// is bundled into dist/cli.js and its chunks (bundle-start.mjs).
// Without the devDependencies (`npm ci --omit=dev`), the type declarations the checker needs are
// absent: the build then emits without type checking (`noCheck`), which produces the same JavaScript.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildConsoleIfStale } from './build-console.mjs';
import { describeInputs, filesUnder, staleReason, writeStamp } from './build-stamp.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'dist');
const stampFile = join(dist, '.build-stamp.json');
const routeSchemasFile = join(dist, 'route-schemas.cjs');
const lexiconTablesFile = join(dist, 'guardrails', 'pii', 'lexicon-tables.json');
const require = createRequire(join(root, 'package.json'));

function inputs() {
  const files = [
    ...filesUnder(join(root, 'src')),
    join(root, 'tsconfig.json'),
    join(root, 'tsconfig.build.json'),
    require.resolve('typescript/package.json'),
    join(root, 'scripts', 'bundle-start.mjs'),
    require.resolve('esbuild/package.json'),
  ];
  return describeInputs(root, files);
}

/**
 * Whether every type declaration package of devDependencies is installed. Each is asked for, not
 * one alone: a production dependency may bring one of them along (Vite brings @types/node).
 */
function hasTypeDeclarations() {
  const { devDependencies = {} } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  return Object.keys(devDependencies)
    .filter((name) => name.startsWith('@types/'))
    .every((name) => {
      try {
        require.resolve(`${name}/package.json`);
        return true;
      } catch {
        return false;
      }
    });
}

function compile(fullCheck) {
  if (fullCheck) {
    const tsc = require.resolve('typescript/bin/tsc');
    return spawnSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.build.json')], { stdio: 'inherit' }).status === 0;
  }
  const ts = require('typescript');
  const configFile = join(root, 'tsconfig.build.json');
  const { config, error } = ts.readConfigFile(configFile, ts.sys.readFile);
  if (error) throw new Error(ts.flattenDiagnosticMessageText(error.messageText, '\n'));
  const parsed = ts.parseJsonConfigFileContent(config, ts.sys, root, { noCheck: true, types: [] }, configFile);
  const emitted = ts.createProgram(parsed.fileNames, parsed.options).emit();
  return !emitted.emitSkipped;
}

/** The start path in a few files instead of some 1,200 (bundle-start.mjs): it replaces tsc's dist/cli.js. */
function bundleStart() {
  return spawnSync(process.execPath, [join(root, 'scripts', 'bundle-start.mjs')], { stdio: 'inherit' }).status === 0;
}

/** In a process of its own: it builds the app, whose modules and handles need not stay in this one. */
function compileRouteSchemas() {
  return spawnSync(process.execPath, [join(root, 'scripts', 'compile-route-schemas.mjs')], { stdio: 'inherit' }).status === 0;
}

/** The PII lexicon's tables, read from their packages once here rather than at every start. */
function writeLexiconTables() {
  return spawnSync(process.execPath, [join(root, 'scripts', 'write-lexicon-tables.mjs')], { stdio: 'inherit' }).status === 0;
}

const force = process.argv.includes('--force');
const started = Date.now();
const current = inputs();
const reason = force ? 'asked for' : staleReason(stampFile, current);
if (reason !== undefined) {
  const fullCheck = hasTypeDeclarations();
  process.stderr.write(`Building dist/ (${reason})${fullCheck ? '' : ' without type checking: devDependencies not installed'}…\n`);
  if (!compile(fullCheck) || !bundleStart() || !compileRouteSchemas() || !writeLexiconTables()) {
    process.stderr.write('Build failed.\n');
    process.exit(1);
  }
  writeStamp(stampFile, started, current);
  process.stderr.write(`Built in ${((Date.now() - started) / 1000).toFixed(1)} s.\n`);
} else if ((!existsSync(routeSchemasFile) || !existsSync(`${routeSchemasFile}.code`)) && !compileRouteSchemas()) {
  process.stderr.write('Compiling the route schemas failed.\n');
  process.exit(1);
} else if (!existsSync(lexiconTablesFile) && !writeLexiconTables()) {
  process.stderr.write('Writing the PII lexicon tables failed.\n');
  process.exit(1);
}

// A console that does not build stops the start as a server that does not compile would: serving the
// API without the console it ships with would hide the failure until someone opens the page.
try {
  const done = await buildConsoleIfStale(root, { force });
  if (done !== undefined) process.stderr.write(`${done}\n`);
} catch (error) {
  process.stderr.write(`Console build failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
}
