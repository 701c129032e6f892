#!/usr/bin/env node
// Compiles src/ into dist/ only when a source (or the compiler settings) changed since the last
// build, so that `npm start` pays for tsc once, not on every start. `--force` always compiles.
// Without the devDependencies (`npm ci --omit=dev`), the type declarations the checker needs are
// absent: the build then emits without type checking (`noCheck`), which produces the same JavaScript.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'dist');
const stampFile = join(dist, '.build-stamp.json');
const require = createRequire(join(root, 'package.json'));

function sourceFiles(folder) {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    return entry.isDirectory() ? sourceFiles(path) : [path];
  });
}

function inputs() {
  const files = [...sourceFiles(join(root, 'src')), join(root, 'tsconfig.json'), join(root, 'tsconfig.build.json'), require.resolve('typescript/package.json')];
  return files.map((file) => ({ file: relative(root, file), mtimeMs: statSync(file).mtimeMs })).sort((a, b) => a.file.localeCompare(b.file));
}

/** Why a build is needed, or undefined when dist/ is up to date. */
function staleReason(current) {
  if (!existsSync(stampFile)) return 'no previous build';
  let stamp;
  try {
    stamp = JSON.parse(readFileSync(stampFile, 'utf8'));
  } catch {
    return 'unreadable build stamp';
  }
  if (JSON.stringify(stamp.files) !== JSON.stringify(current.map((input) => input.file))) return 'files added or removed';
  const changed = current.find((input) => input.mtimeMs > stamp.builtAtMs);
  return changed ? `${changed.file} changed` : undefined;
}

function hasTypeDeclarations() {
  try {
    require.resolve('@types/node/package.json');
    return true;
  } catch {
    return false;
  }
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

const force = process.argv.includes('--force');
const started = Date.now();
const current = inputs();
const reason = force ? 'asked for' : staleReason(current);
if (reason !== undefined) {
  const fullCheck = hasTypeDeclarations();
  process.stderr.write(`Building dist/ (${reason})${fullCheck ? '' : ' without type checking: devDependencies not installed'}…\n`);
  if (!compile(fullCheck)) {
    process.stderr.write('Build failed.\n');
    process.exit(1);
  }
  writeFileSync(stampFile, `${JSON.stringify({ builtAtMs: started, files: current.map((input) => input.file) })}\n`);
  process.stderr.write(`Built in ${((Date.now() - started) / 1000).toFixed(1)} s.\n`);
}
