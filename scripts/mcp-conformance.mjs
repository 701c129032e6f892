#!/usr/bin/env node
// The official MCP conformance suite (@modelcontextprotocol/conformance) against /mcp, for the server
// scenarios that apply to this server (docs/mcp.md lists the others and why). Starts the built server
// (dist/, built first when stale, as `npm start` does) on a scratch SQLite data folder with an owner and an API key, and runs each
// scenario on Node.js 22 or later (the suite needs it: NODE24, else `npx -p node@24`). Fails when a
// scenario has a failed check.
//
// The suite's client sends no credential (it tests servers without authentication), while /mcp
// requires one: the scenarios talk to a loopback relay that adds `Authorization: Bearer <key>` and
// passes everything else through unchanged, Host and Origin included, so the server's own checks
// (DNS rebinding) are what the suite sees.
//
//   node scripts/mcp-conformance.mjs [--scenario <name>]... [--keep]
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';

/** The server scenarios that apply: the lifecycle, ping, listing tools and resources, DNS-rebinding protection. */
const SCENARIOS = ['server-initialize', 'ping', 'tools-list', 'resources-list', 'dns-rebinding-protection'];

const root = resolve(import.meta.dirname, '..');
const { values } = parseArgs({ options: { scenario: { type: 'string', multiple: true }, keep: { type: 'boolean', default: false } } });
const scenarios = values.scenario ?? SCENARIOS;
const work = mkdtempSync(join(tmpdir(), 'mcp-conformance-'));
const children = [];

function cleanUp() {
  for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
  if (!values.keep) rmSync(work, { recursive: true, force: true });
}
process.on('exit', cleanUp);
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => process.exit(130));

function newerNode() {
  if (process.env.NODE24) return process.env.NODE24;
  if (Number(process.versions.node.split('.')[0]) >= 22) return process.execPath;
  return execFileSync('npx', ['-y', '-p', 'node@24', '-c', 'command -v node'], { encoding: 'utf8' }).trim();
}

function freePort() {
  return new Promise((done, fail) => {
    const probe = http.createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => done(port));
    });
    probe.on('error', fail);
  });
}

const env = {
  ...process.env,
  DATA_DIR: join(work, 'data'),
  DATABASE_URL: '',
  ADMIN_EMAIL: 'owner@example.com',
  ADMIN_PASSWORD: 'conformance owner password',
  LOG_LEVEL: 'warn',
  PASSWORD_HASH_COST: '10',
};
/** The built server, as `npm start` runs it (built first where dist/ is stale). */
const cli = [join(root, 'dist/cli.js')];

async function startServer() {
  const port = await freePort();
  const server = spawn(process.execPath, [...cli, 'serve'], { cwd: root, env: { ...env, PORT: String(port), HOST: '127.0.0.1' }, stdio: ['ignore', 'inherit', 'inherit'] });
  children.push(server);
  // Ready once /ready answers 200; polled, as the server takes a few seconds to migrate and start.
  for (;;) {
    if (server.exitCode !== null) throw new Error(`the server stopped (exit ${server.exitCode})`);
    const ready = await fetch(`http://127.0.0.1:${port}/ready`).then((reply) => reply.ok, () => false);
    if (ready) return port;
    await new Promise((wake) => setTimeout(wake, 200));
  }
}

/** A loopback relay to the server that adds the API key to every request. */
function startRelay(serverPort, key) {
  const relay = http.createServer((incoming, outgoing) => {
    const upstream = http.request(
      { host: '127.0.0.1', port: serverPort, method: incoming.method, path: incoming.url, headers: { ...incoming.headers, authorization: `Bearer ${key}` } },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      },
    );
    upstream.on('error', () => outgoing.destroy());
    outgoing.on('close', () => upstream.destroy());
    incoming.pipe(upstream);
  });
  return new Promise((done) => relay.listen(0, '127.0.0.1', () => done({ port: relay.address().port, close: () => relay.close() })));
}

/** Runs one scenario; its checks, read from the results the suite writes. */
function runScenario(node, url, scenario) {
  const output = join(work, 'results', scenario);
  const bin = join(root, 'node_modules/@modelcontextprotocol/conformance/dist/index.js');
  const run = spawn(node, [bin, 'server', '--url', url, '--scenario', scenario, '-o', output], { cwd: work, stdio: ['ignore', 'pipe', 'pipe'] });
  let text = '';
  run.stdout.on('data', (chunk) => (text += chunk));
  run.stderr.on('data', (chunk) => (text += chunk));
  return new Promise((done) =>
    run.on('close', (code) => {
      const checks = readdirSync(output, { recursive: true })
        .filter((file) => String(file).endsWith('checks.json'))
        .flatMap((file) => JSON.parse(readFileSync(join(output, String(file)), 'utf8')));
      done({ code, checks, text });
    }),
  );
}

const started = Date.now();
const node = newerNode();
execFileSync(process.execPath, [join(root, 'scripts/build-if-stale.mjs')], { cwd: root, stdio: 'inherit' });
const timing = (what) => console.log(`${what} after ${((Date.now() - started) / 1000).toFixed(1)} s`);
const key = execFileSync(process.execPath, [...cli, 'create-api-key', '--email', env.ADMIN_EMAIL, '--name', 'MCP conformance'], { cwd: root, env, encoding: 'utf8' }).trim();
const serverPort = await startServer();
timing('server ready');
const relay = await startRelay(serverPort, key);
const url = `http://127.0.0.1:${relay.port}/mcp`;
console.log(`MCP conformance ${JSON.parse(readFileSync(join(root, 'node_modules/@modelcontextprotocol/conformance/package.json'), 'utf8')).version} on Node.js ${execFileSync(node, ['--version'], { encoding: 'utf8' }).trim()} against ${url}`);

// Side by side: the scenarios are independent, and each starts a Node.js of its own.
const outcomes = await Promise.all(scenarios.map((scenario) => runScenario(node, url, scenario)));
let failed = 0;
scenarios.forEach((scenario, i) => {
  const { code, checks, text } = outcomes[i];
  const failures = checks.filter((check) => check.status === 'FAILURE');
  const warnings = checks.filter((check) => check.status === 'WARNING');
  const ok = code === 0 && failures.length === 0 && checks.length > 0;
  console.log(`${ok ? 'pass' : 'FAIL'}  ${scenario}: ${checks.length} checks, ${failures.length} failed, ${warnings.length} warnings`);
  for (const check of [...failures, ...warnings]) console.log(`      ${check.status} ${check.id}: ${check.errorMessage ?? JSON.stringify(check.details ?? {})}`);
  if (!ok) {
    failed++;
    if (failures.length === 0) console.log(text);
  }
});
relay.close();
console.log(`${scenarios.length - failed} of ${scenarios.length} scenarios passed in ${((Date.now() - started) / 1000).toFixed(1)} s`);
process.exit(failed === 0 ? 0 : 1);
