// The organization the analytics benchmarks measure (bench/analytics.mjs, the API's routes, and
// bench/console-analytics.ts, the console's page): a server from the sources in a child process on a
// database of its own, its owner signed in, and the teams, projects, agents, corpora and users made
// through the API that bench/analytics-seed.mjs then gives a history.
import { ApiClient } from './lib/api-client.js';
import { startChildServer } from './lib/child-server.js';
import { LOOPBACK, findFreePort } from './lib/free-port.js';

export const ADMIN_EMAIL = 'bench@example.com';

export async function startServer(cleanup, dataDir, password, databaseUrl) {
  const port = await findFreePort();
  const server = await startChildServer(
    {
      label: 'agent-platform',
      nodeArgs: ['--import', 'tsx', 'src/cli.ts', 'serve'],
      env: {
        DATA_DIR: dataDir,
        PORT: String(port),
        HOST: LOOPBACK,
        LOG_LEVEL: 'warn',
        ADMIN_EMAIL,
        ADMIN_PASSWORD: password,
        LIMIT_REQUESTS_PER_MINUTE: '10000000',
        ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
      },
      port,
      readyPath: '/health',
      startTimeoutMs: 120_000,
    },
    cleanup,
  );
  return server;
}

export async function ownerClient(server, password) {
  const anonymous = new ApiClient(server.baseUrl);
  const session = await anonymous.call('POST', '/api/v2/auth/login', { email: ADMIN_EMAIL, password });
  return anonymous.withBearer(session.token);
}

/** Teams, projects, agents, corpora and users, made through the API as an organization would. */
export async function buildWorld(client) {
  const me = await client.call('GET', '/api/v2/users/me');
  const teams = [];
  for (let i = 0; i < 5; i++) teams.push((await client.call('POST', '/api/v2/teams', { name: `Team ${i}` }, 201)).id);
  const projects = [];
  for (let i = 0; i < 10; i++) projects.push((await client.call('POST', '/api/v2/projects', { name: `Project ${i}` }, 201)).id);
  const agents = [];
  for (let i = 0; i < 20; i++) {
    const agent = await client.call('POST', '/api/v2/agents', { name: `Agent ${i}`, instructions: 'Answer.', team_id: teams[i % 5], project_id: projects[i % 10] }, 201);
    agents.push({ id: agent.id, teamId: teams[i % 5], projectId: projects[i % 10] });
  }
  const corpora = [];
  for (let i = 0; i < 10; i++) {
    const corpus = await client.call('POST', '/api/v2/corpora', { name: `Corpus ${i}` }, 201);
    corpora.push(corpus.id);
    for (const agent of [agents[(2 * i) % 20], agents[(2 * i + 1) % 20]]) await client.call('POST', `/api/v2/corpora/${corpus.id}/agents`, { agent_id: agent.id });
  }
  const users = [me.id];
  for (let i = 0; i < 99; i++) users.push((await client.call('POST', '/api/v2/users', { email: `user${i}@example.com`, first_name: 'User', last_name: String(i) }, 201)).user.id);
  return { organizationId: me.organization_id, agents, corpora, users, firstDocumentId: 1_000_000, firstThreadId: 1_000_000, firstResponseId: 1_000_000 };
}
