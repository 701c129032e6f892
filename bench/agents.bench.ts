// The agents suite: reading one agent (the most frequent call) against a bare Fastify route with the
// same body, and restoring an agent to a checkpoint in a 1,000-record history (the heaviest write).
// Beside them, a public route without database (what every route pays) and the caller's own profile.
import { ApiClient } from './lib/api-client.js';
import { startAgentPlatform } from './lib/agent-platform-server.js';
import { startBareServer } from './lib/bare-server-process.js';
import type { BenchConfig } from './lib/bench-config.js';
import { apiKeyClient, sessionClient } from './lib/credentials.js';
import { assertMostlySuccessful, measureLoad, type LoadResult, type LoadTarget } from './lib/load.js';
import type { SuiteReport } from './lib/report.js';
import type { BenchSuite, SuiteContext } from './lib/suite.js';

const HISTORY_RECORDS = 1_000;
const HISTORY_PAGE_SIZE = 100;
/** Aim: the authenticated read keeps at least half the throughput of the bare route. */
const READ_RATIO_AIM = 0.5;
/** Aim: a restore answers within 20 ms at the 99th percentile. */
const RESTORE_P99_AIM_MS = 20;

/** A plausible system prompt of a few hundred characters; each revision differs. */
function instructionsRevision(revision: number): string {
  return [
    `Revision ${revision}.`,
    'You are the support assistant of a company selling accounting software to small businesses.',
    'Answer in the language of the question, in short paragraphs, citing the help-centre article you used.',
    'If you are unsure, say so and offer to open a ticket; never invent a feature or a price.',
  ].join(' ');
}

interface AgentView {
  id: number;
  version: number;
}

interface HistoryPage {
  items: { history_id: number }[];
  total: number;
}

/** Creates the agent (one history record) and updates it until it has `records` history records. */
async function createAgentWithHistory(client: ApiClient, records: number): Promise<AgentView> {
  const agent = await client.call<AgentView>(
    'POST',
    '/api/v2/agents',
    {
      name: 'Benchmark support agent',
      description: 'Answers customer questions about invoices and payroll',
      instructions: instructionsRevision(0),
      temperature: 0.3,
      max_tokens: 1024,
      conversation_starters: ['How do I send an invoice?', 'Why was my payroll run rejected?'],
    },
    201,
  );
  // Sequential on purpose: each update is one transaction, and their order is the history's order.
  for (let revision = 1; revision < records; revision++) {
    await client.call('PUT', `/api/v2/agents/${agent.id}`, { instructions: instructionsRevision(revision) });
  }
  return agent;
}

/** The id of the record in the middle of the history (newest first, paginated). */
async function middleHistoryId(client: ApiClient, agentId: number, expectedTotal: number): Promise<number> {
  const path = (page: number) => `/api/v2/agents/${agentId}/history?page_size=${HISTORY_PAGE_SIZE}&page=${page}`;
  const first = await client.call<HistoryPage>('GET', path(1));
  if (first.total !== expectedTotal) throw new Error(`expected ${expectedTotal} history records, the server lists ${first.total}`);
  const middle = Math.floor(first.total / 2);
  const page = Math.floor(middle / HISTORY_PAGE_SIZE) + 1;
  const { items } = page === 1 ? first : await client.call<HistoryPage>('GET', path(page));
  const record = items[middle % HISTORY_PAGE_SIZE];
  if (record === undefined) throw new Error(`history page ${page} has no item ${middle % HISTORY_PAGE_SIZE}`);
  return record.history_id;
}

async function expectSameBody(url: string, expected: string): Promise<void> {
  const response = await fetch(url, { signal: AbortSignal.timeout(5_000) });
  const text = await response.text();
  if (response.status !== 200 || text !== expected) {
    throw new Error(`the bare route does not answer the real body (status ${response.status}):\n${text}\n---\n${expected}`);
  }
}

async function runAgentsSuite({ config, cleanup, log }: SuiteContext): Promise<SuiteReport> {
  log('starting the Agent Platform server (SQLite, fresh data folder)');
  const platform = await startAgentPlatform(config, cleanup);
  const client = await apiKeyClient(platform);
  // A browser's credential: a session token from login, looked up in another table than keys.
  const session = await sessionClient(platform);

  log(`creating an agent with ${HISTORY_RECORDS} history records`);
  const agent = await createAgentWithHistory(client, HISTORY_RECORDS);
  const restoreTo = await middleHistoryId(client, agent.id, HISTORY_RECORDS);
  const agentPath = `/api/v2/agents/${agent.id}`;
  const captured = await client.request('GET', agentPath);
  if (captured.status !== 200) throw new Error(`GET ${agentPath} answered ${captured.status}: ${captured.text}`);

  // A restore is checked once before the load, so that a broken route fails here with its message.
  const restoreBody = JSON.stringify({ history_id: restoreTo });
  const restored = await client.call<{ history_id: number }>('PUT', `${agentPath}/history`, { history_id: restoreTo });
  if (restored.history_id !== restoreTo) throw new Error(`restore answered record ${restored.history_id}, not ${restoreTo}`);

  log('starting the bare Fastify server with the same body');
  const bare = await startBareServer({ route: '/api/v2/agents/:agent_id', samplePath: agentPath, body: captured.text }, cleanup);
  await expectSameBody(bare.baseUrl + agentPath, captured.text);

  const targets: LoadTarget[] = [
    { name: 'bare Fastify GET (same body)', url: bare.baseUrl + agentPath, serverPid: bare.pid },
    {
      name: 'GET /api/v2/agents/{id} (API key)',
      url: platform.server.baseUrl + agentPath,
      headers: client.authorizationHeaders(),
      serverPid: platform.server.pid,
    },
    {
      name: 'GET /api/v2/agents/{id} (session token)',
      url: platform.server.baseUrl + agentPath,
      headers: session.authorizationHeaders(),
      serverPid: platform.server.pid,
    },
    {
      name: 'PUT /api/v2/agents/{id}/history (restore)',
      url: `${platform.server.baseUrl}${agentPath}/history`,
      method: 'PUT',
      headers: { ...client.authorizationHeaders(), 'content-type': 'application/json' },
      body: restoreBody,
      serverPid: platform.server.pid,
    },
    // Beside the aims: what every route pays before its own work (a public route, no credential, no
    // database, a body of a few bytes), and the other read a client makes on every page.
    { name: 'GET /api/version (no credential, no database)', url: `${platform.server.baseUrl}/api/version`, serverPid: platform.server.pid },
    { name: 'GET /api/v2/users/me (API key)', url: `${platform.server.baseUrl}/api/v2/users/me`, headers: client.authorizationHeaders(), serverPid: platform.server.pid },
  ];
  const results: LoadResult[] = [];
  for (const target of targets) {
    log(`loading ${target.name}: ${config.warmupSeconds} s warm-up, ${config.durationSeconds} s measured, ${config.connections} connections`);
    const result = await measureLoad(target, config);
    assertMostlySuccessful(result);
    results.push(result);
  }
  if (platform.server.hasExited()) throw new Error(`the Agent Platform server died during the load:\n${platform.server.outputTail()}`);

  const [bareRead, keyRead, sessionRead, restore, everyRoute] = results as [LoadResult, LoadResult, LoadResult, LoadResult, LoadResult];
  const cpuRatio = (read: LoadResult) => (read.serverCpuMicrosPerRequest / bareRead.serverCpuMicrosPerRequest).toFixed(1);
  return {
    title: 'agents: read one agent, restore a checkpoint (SQLite)',
    results,
    aims: [
      { label: 'authenticated GET rps / bare rps (API key)', value: keyRead.requestsPerSecond / bareRead.requestsPerSecond, comparison: '>=', target: READ_RATIO_AIM },
      {
        label: 'authenticated GET rps / bare rps (session token)',
        value: sessionRead.requestsPerSecond / bareRead.requestsPerSecond,
        comparison: '>=',
        target: READ_RATIO_AIM,
      },
      { label: 'restore p99', value: restore.p99Ms, comparison: '<', target: RESTORE_P99_AIM_MS, unit: ' ms' },
    ],
    notes: [
      // Throughput of the bare route is often capped by the load generator, not the server; the CPU
      // each server spends per request does not depend on that.
      `server CPU per request, authenticated GET / bare: ${cpuRatio(keyRead)}x with the API key, ${cpuRatio(sessionRead)}x with the session token`,
      `the hooks every route runs (GET /api/version): ${(everyRoute.requestsPerSecond / bareRead.requestsPerSecond).toFixed(2)} of the bare route's requests a second, ${cpuRatio(everyRoute)}x its CPU a request`,
      `agent ${agent.id}: ${HISTORY_RECORDS} history records before the load (each restore appends one more); restoring to record ${restoreTo}`,
      `response body: ${Buffer.byteLength(captured.text)} bytes`,
    ],
  };
}

export const agentsSuite: BenchSuite = {
  name: 'agents',
  description: 'GET one agent (API key, session token) vs a bare Fastify route; restore a checkpoint in a 1,000-record history; a public route and GET /api/v2/users/me beside them',
  // Start-up and seeding take well under two minutes; each of the six targets its warm-up and run.
  timeBudgetSeconds: (config: BenchConfig) => 180 + 6 * (config.warmupSeconds + config.durationSeconds + 20),
  run: runAgentsSuite,
};
