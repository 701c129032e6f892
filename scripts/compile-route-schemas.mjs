#!/usr/bin/env node
// Compiles the routes' schemas at build time: builds the app from dist/ once, on a scratch SQLite
// database, with every validator and serializer compiled and its code kept, and writes that code to
// dist/route-schemas.cjs and its code file (dist/route-schemas.cjs.code), which every start then
// uses instead of compiling (src/http/precompiled-schemas.ts). Whatever routes the app registers are in it, whichever module adds them.
// Run by build-if-stale.mjs after the TypeScript build; prints one line.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const dist = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist');
const load = (file) => import(pathToFileURL(join(dist, file)).href);

export async function compileRouteSchemas() {
  const started = Date.now();
  const schemas = await load('http/precompiled-schemas.js');
  // A file left by the previous build is not read while recording, and is replaced at the end.
  rmSync(schemas.ROUTE_SCHEMAS_FILE, { force: true });
  rmSync(schemas.codeFileOf(schemas.ROUTE_SCHEMAS_FILE), { force: true });
  schemas.startRecordingSchemas();
  const { loadConfig } = await load('config.js');
  const { buildApp } = await load('app.js');
  const scratch = mkdtempSync(join(tmpdir(), 'agent-platform-route-schemas-'));
  try {
    const config = loadConfig(
      {
        DATA_DIR: scratch,
        CONSOLE_DIR: scratch,
        LOG_LEVEL: 'silent',
        ADMIN_PASSWORD: 'route schemas at build time',
        PASSWORD_HASH_COST: '10',
        WORKER_IN_PROCESS: 'false',
      },
      false,
    );
    const app = await buildApp(config);
    await app.close();
    const written = schemas.writeRecordedSchemas(schemas.ROUTE_SCHEMAS_FILE);
    return `Compiled the routes' schemas (${written.validators} validators, ${written.serializers} serializers) in ${((Date.now() - started) / 1000).toFixed(1)} s.`;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  process.stderr.write(`${await compileRouteSchemas()}\n`);
}
