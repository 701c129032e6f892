// Writes the server's OpenAPI document to a file, from the app built in-process exactly as the server
// builds it (on a scratch SQLite folder, no network), so that linters and client generators see what
// /openapi.json serves. Usage: tsx scripts/dump-openapi.ts <out.json>
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';

const out = process.argv[2] ?? 'openapi.json';
const dataDir = mkdtempSync(join(tmpdir(), 'openapi-dump-'));
try {
  const app = await buildApp(
    loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', ADMIN_PASSWORD: 'openapi-dump-password', PASSWORD_HASH_COST: '10', WORKER_IN_PROCESS: 'false' }),
  );
  try {
    const reply = await app.inject({ method: 'GET', url: '/openapi.json' });
    if (reply.statusCode !== 200) throw new Error(`/openapi.json answered ${reply.statusCode}: ${reply.body}`);
    writeFileSync(out, JSON.stringify(JSON.parse(reply.body), null, 2) + '\n');
  } finally {
    await app.close();
  }
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
