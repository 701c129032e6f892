// `npm run bench:analytics`: the analytics routes over 1,000,000 usage events spread over 90 days
// (with 100,000 responses, their votes and ratings, and 20,000 documents), on SQLite and, when
// DATABASE_URL names a PostgreSQL server, on PostgreSQL. Each route is asked by day over the 90
// days (Europe/Paris), sequentially, and its time to the last byte measured; p50, p95 and max are
// printed with the aim (p95 under 300 ms). The server runs from the sources (as `npm run dev`), in
// a child process, on a database of its own. See docs/performance.md.
//
// Settings: BENCH_ANALYTICS_EVENTS (default 1000000), BENCH_ANALYTICS_REQUESTS (timed requests a
// route, default 30), BENCH_ANALYTICS_DATABASES (default sqlite, and postgres with DATABASE_URL).
import { randomBytes } from 'node:crypto';
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { countRowsRead } from './analytics-rows.mjs';
import { analyticsPlan, postgresSink, seedAnalytics, sqliteSink } from './analytics-seed.mjs';
import { buildWorld, ownerClient, startServer } from './analytics-world.mjs';
import { CleanupStack } from './lib/cleanup.js';
import { describeMachine, formatMachine } from './lib/machine.js';
import { percentile } from './lib/percentiles.js';
import { processCpuSeconds } from './lib/process-cpu.js';
import { createScratchPostgres, postgresServerUrl } from './lib/scratch-postgres.js';
import { openForSeeding, openReadOnly } from './lib/seed-database.js';
import { makeTempDir } from './lib/temp-dir.js';

const EVENTS = Number(process.env.BENCH_ANALYTICS_EVENTS ?? 1_000_000);
const REQUESTS = Number(process.env.BENCH_ANALYTICS_REQUESTS ?? 30);
const WARMUP = 3;
const DAYS = 90;
const AIM_P95_MS = 300;

const log = (message) => process.stderr.write(`[bench:analytics] ${message}\n`);

/** What is asked: every route by day over the whole range, and a few other scopes and rankings. */
function targets(world, range) {
  const base = `from=${range.from}&to=${range.to}&interval=day&timezone=Europe/Paris`;
  const routes = ['summary', 'cost', 'tokens', 'query-count', 'votes', 'document-count', 'indexing-mode', 'most-active'];
  return [
    ...routes.map((route) => ({ label: `${route} (overall)`, path: `/api/v2/analytics/${route}?${base}` })),
    { label: 'summary (busiest agent)', path: `/api/v2/analytics/summary?${base}&scope=agent&scope_id=${world.agents[0].id}` },
    { label: 'cost (busiest user)', path: `/api/v2/analytics/cost?${base}&scope=user&scope_id=${world.users[0]}` },
    { label: 'query-count (a team)', path: `/api/v2/analytics/query-count?${base}&scope=team&scope_id=${world.agents[0].teamId}` },
    { label: 'tokens (a corpus)', path: `/api/v2/analytics/tokens?${base}&scope=corpus&scope_id=${world.corpora[0]}` },
    { label: 'most-active users', path: `/api/v2/analytics/most-active?${base}&entity=users` },
    { label: 'most-active corpora', path: `/api/v2/analytics/most-active?${base}&entity=corpora` },
    { label: 'cost by hour, 7 days', path: `/api/v2/analytics/cost?from=${range.lastWeek}&to=${range.to}&interval=hour&timezone=Europe/Paris` },
  ];
}

async function measure(client, target, serverPid) {
  const times = [];
  let cpuBefore = 0;
  for (let i = 0; i < WARMUP + REQUESTS; i++) {
    if (i === WARMUP) cpuBefore = processCpuSeconds(serverPid) ?? Number.NaN;
    const started = performance.now();
    const reply = await client.request('GET', target.path);
    const elapsed = performance.now() - started;
    if (reply.status !== 200) throw new Error(`${target.label}: ${reply.status} ${reply.text.slice(0, 300)}`);
    if (i === 0) checkTotals(target.label, JSON.parse(reply.text).data);
    if (i >= WARMUP) times.push(elapsed);
  }
  // The server's own CPU time a request (on PostgreSQL the database's work is not in it): what the
  // request costs whatever else the machine runs. And the load beside each figure: the machine is
  // shared, and the times grow with it.
  const cpuMs = (((processCpuSeconds(serverPid) ?? Number.NaN) - cpuBefore) * 1000) / REQUESTS;
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 50), p95: percentile(times, 95), max: times.at(-1), cpuMs, load: loadavg()[0] };
}

/** Every total is the sum of its points (costs to the nano-dollar): checked on the real volume too. */
function checkTotals(label, data) {
  for (const [figure, total] of Object.entries(data.totals)) {
    const sum = data.points.reduce((acc, point) => acc + point[figure], 0);
    if (Math.round(sum * 1e9) !== Math.round(total * 1e9)) throw new Error(`${label}: ${figure} sums to ${sum}, total ${total}`);
  }
}

async function runOn(kind) {
  const cleanup = new CleanupStack();
  try {
    const dataDir = await makeTempDir('agent-platform-analytics-bench', cleanup);
    const password = randomBytes(15).toString('base64url');
    const serverUrl = postgresServerUrl();
    const databaseUrl = kind === 'postgres' ? await createScratchPostgres(serverUrl, 'analytics_bench', cleanup) : undefined;
    let server = await startServer(cleanup, dataDir, password, databaseUrl);
    let client = await ownerClient(server, password);
    const world = await buildWorld(client);
    const endMs = Date.now();
    const plan = analyticsPlan({ events: EVENTS, days: DAYS, endMs });
    const seedStarted = performance.now();
    let seeded;
    if (kind === 'sqlite') {
      await server.stop();
      const db = openForSeeding(dataDir);
      seeded = await seedAnalytics(sqliteSink(db), world, plan, log);
      db.close();
      server = await startServer(cleanup, dataDir, password, undefined);
      client = client.at(server.baseUrl);
    } else {
      const pgClient = new pg.Client({ connectionString: databaseUrl });
      await pgClient.connect();
      seeded = await seedAnalytics(postgresSink(pgClient), world, plan, log);
      for (const table of ['documents', 'chat_threads', 'agent_responses']) {
        await pgClient.query(`select setval(pg_get_serial_sequence('${table}', 'id'), (select max(id) from ${table}))`);
      }
      // What autovacuum does shortly after a bulk load (the rollups' rows were updated once an event),
      // done at once so that plans and visibility are settled before measuring.
      await pgClient.query('vacuum analyze');
      await pgClient.end();
    }
    log(`${kind}: seeded ${EVENTS} events, ${seeded.responses} responses in ${seeded.threads} threads in ${((performance.now() - seedStarted) / 1000).toFixed(0)} s`);

    const range = { from: new Date(endMs - DAYS * 86_400_000).toISOString(), to: new Date(endMs + 60_000).toISOString(), lastWeek: new Date(endMs - 7 * 86_400_000).toISOString() };
    const overall = JSON.parse((await client.request('GET', `/api/v2/analytics/query-count?from=${range.from}&to=${range.to}&interval=month`)).text).data.totals;
    log(`${kind}: ${overall.queries} questions counted`);
    const results = [];
    for (const target of targets(world, range)) {
      const figures = await measure(client, target, server.pid);
      results.push({ kind, label: target.label, ...figures });
      log(`${kind} ${target.label}: p95 ${figures.p95.toFixed(1)} ms`);
    }
    for (const [label, rows] of await rowsReadIn(kind, dataDir, databaseUrl, world.organizationId, range)) results.push({ kind, label, rows });
    return results;
  } finally {
    await cleanup.runAll();
  }
}

/** The rows each way of reading reads (analytics-rows.mjs), counted in the database measured. */
async function rowsReadIn(kind, dataDir, databaseUrl, organizationId, range) {
  if (kind === 'sqlite') {
    const db = openReadOnly(dataDir);
    try {
      return await countRowsRead(async (text, params) => db.prepare(text).pluck().get(...params), organizationId, range);
    } finally {
      db.close();
    }
  }
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return await countRowsRead(async (text, params) => {
      let n = 0;
      return Object.values((await client.query(text.replace(/\?/g, () => `$${++n}`), params)).rows[0])[0];
    }, organizationId, range);
  } finally {
    await client.end();
  }
}

const kinds = (process.env.BENCH_ANALYTICS_DATABASES ?? (postgresServerUrl() ? 'sqlite,postgres' : 'sqlite')).split(',');
process.stdout.write(`Machine: ${formatMachine(describeMachine())}\n`);
process.stdout.write(`${EVENTS.toLocaleString('en')} usage events over ${DAYS} days; ${REQUESTS} timed requests a target after ${WARMUP} untimed\n\n`);
const rows = [];
for (const kind of kinds) rows.push(...(await runOn(kind)));
process.stdout.write('| database | target | p50 ms | p95 ms | max ms | p95 < 300 ms | server CPU ms | load average |\n|---|---|---:|---:|---:|:-:|---:|---:|\n');
for (const row of rows.filter((row) => row.rows === undefined)) {
  process.stdout.write(`| ${row.kind} | ${row.label} | ${row.p50.toFixed(1)} | ${row.p95.toFixed(1)} | ${row.max.toFixed(1)} | ${row.p95 < AIM_P95_MS ? 'yes' : 'no'} | ${row.cpuMs.toFixed(1)} | ${row.load.toFixed(1)} |\n`);
}
process.stdout.write('\n| database | rows read | rows |\n|---|---|---:|\n');
for (const row of rows.filter((row) => row.rows !== undefined)) process.stdout.write(`| ${row.kind} | ${row.label} | ${row.rows.toLocaleString('en')} |\n`);
