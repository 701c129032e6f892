// What a conditional read saves on the agents and corpora listings, in-process (app.inject, the
// production configuration: no response check): a page of 100 agents and one of 100 corpora, each
// answered three ways, alternately — a 200 that reads and serialises the rows (the kept bytes
// forgotten first), a 200 from the bytes kept by its tag, and a 304. Medians of each, with the load
// average beside them. SQLite; PostgreSQL too with DATABASE_URL naming a server.
//   npx tsx bench/conditional-reads.ts
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { buildApp, type App } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { UsersRepo } from '../src/modules/users/users.repo.js';
import { CleanupStack } from './lib/cleanup.js';
import { createScratchPostgres, postgresServerUrl } from './lib/scratch-postgres.js';

const ROWS = 100;
const ROUNDS = 200;
const OWNER = 'owner@example.com';

async function seeded(app: App): Promise<string> {
  const owner = await new UsersRepo(app.database.db, app.database.dialect).findByEmail(OWNER);
  const { key } = await app.services.auth.createApiKey({ userId: owner!.id, organizationId: owner!.organization_id }, { name: 'bench' });
  const headers = { authorization: `Bearer ${key}` };
  for (let i = 0; i < ROWS; i++) {
    const agent = await app.inject({ method: 'POST', url: '/api/v2/agents', headers, payload: { name: `Agent ${i}`, description: 'Answers questions about the handbook, with its sources.', instructions: 'Quote the handbook.' } });
    const corpus = await app.inject({ method: 'POST', url: '/api/v2/corpora', headers, payload: { name: `Corpus ${i}`, description: 'Policies and procedures.' } });
    if (agent.statusCode !== 201 || corpus.statusCode !== 201) throw new Error(`seeding failed: ${agent.body} ${corpus.body}`);
  }
  return key;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function measure(app: App, key: string, url: string) {
  const headers = { authorization: `Bearer ${key}` };
  const first = await app.inject({ method: 'GET', url, headers });
  const tag = first.headers.etag as string;
  const times = { rendered: [] as number[], kept: [] as number[], notModified: [] as number[] };
  const timed = async (into: number[], extra: Record<string, string>, status: number) => {
    const start = performance.now();
    const reply = await app.inject({ method: 'GET', url, headers: { ...headers, ...extra } });
    into.push(performance.now() - start);
    if (reply.statusCode !== status) throw new Error(`${url}: ${reply.statusCode}, expected ${status}`);
  };
  for (let round = 0; round < ROUNDS; round++) {
    app.services.servedBytes.clear();
    await timed(times.rendered, {}, 200);
    await timed(times.kept, {}, 200);
    await timed(times.notModified, { 'if-none-match': tag }, 304);
  }
  return { url, bytes: first.body.length, rendered: median(times.rendered), kept: median(times.kept), notModified: median(times.notModified) };
}

async function run(label: string, env: Record<string, string>, cleanup: CleanupStack) {
  const dataDir = mkdtempSync(join(tmpdir(), 'conditional-reads-'));
  cleanup.defer('data dir', () => rmSync(dataDir, { recursive: true, force: true }));
  const app = await buildApp(
    loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', ADMIN_EMAIL: OWNER, ADMIN_PASSWORD: 'correct horse battery staple', LIMIT_REQUESTS_PER_MINUTE: '10000000', ...env }),
  );
  cleanup.defer('app', () => app.close());
  const key = await seeded(app);
  for (const url of [`/api/v2/agents?page_size=${ROWS}`, `/api/v2/corpora?page_size=${ROWS}`]) {
    const loadBefore = loadavg()[0]!;
    const result = await measure(app, key, url);
    const f = (ms: number) => `${ms.toFixed(2)} ms`;
    console.log(
      `${label} ${result.url} (${result.bytes} bytes): 200 reading rows ${f(result.rendered)}, 200 from kept bytes ${f(result.kept)}, 304 ${f(result.notModified)}; ` +
        `load ${loadBefore.toFixed(2)} → ${loadavg()[0]!.toFixed(2)}`,
    );
  }
}

const cleanup = new CleanupStack();
try {
  await run('SQLite', {}, cleanup);
  const server = postgresServerUrl();
  if (server !== undefined) await run('PostgreSQL', { DATABASE_URL: await createScratchPostgres(server, 'bench_conditional', cleanup) }, cleanup);
} finally {
  await cleanup.runAll();
}
