// Makes the picture of the console's analytics page: docs/images/console-analytics.png, at 1280×800,
// the last 30 days of an organization by day. Starts the real app (a scratch SQLite folder, the console
// of dist/console, or of CONSOLE_DIR) with the fake model of the tests, built here rather than with the
// tests' startTestApp, whose databases come from Vitest's global setup; arranges agents through the API
// and asks them through it (today's figures are real answers); the 30 days before are a history of
// usage events recorded as the runtime records them (as test/support/usage-history.ts does), shaped
// like a working month: weekdays busier than weekends, one agent asked most.
// Run: npx tsx scripts/console-screenshot-analytics.ts [output.png]   (Debian's chromium, or CHROMIUM_PATH)
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { chromium } from 'playwright-core';
import { buildApp, type App } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { recordUsage } from '../src/modules/analytics/usage-events.js';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../test/browser/support/chromium.js';
import { createModelConfiguration } from '../test/support/ask.js';
import { createAgent, createUser, type TestUser } from '../test/support/factories.js';
import { startFakeOpenAi, type FakeLlmServer } from '../test/support/fake-openai.js';
import { seededRandom } from '../bench/lib/text-corpus.js';

const OUTPUT = resolve(process.argv[2] ?? 'docs/images/console-analytics.png');
const DAY_MS = 86_400_000;
const DAYS = 30;
const AGENTS = [
  { name: 'Store helper', weight: 5 },
  { name: 'HR assistant', weight: 3 },
  { name: 'IT service desk', weight: 2 },
  { name: 'Travel desk', weight: 1 },
];
const PRICE_IN = 0.15 / 1e6;
const PRICE_OUT = 0.6 / 1e6;

const EMAIL = 'owner@example.com';
const PASSWORD = 'correct horse battery staple';

interface Server {
  app: App;
  fake: FakeLlmServer;
  admin: TestUser;
  baseUrl: string;
  close(): Promise<void>;
}

async function startServer(): Promise<Server> {
  const fake = await startFakeOpenAi();
  const dataDir = mkdtempSync(join(tmpdir(), 'agent-platform-screenshot-'));
  const consoleDir: Record<string, string> = process.env.CONSOLE_DIR ? { CONSOLE_DIR: process.env.CONSOLE_DIR } : {};
  const app = await buildApp(
    loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', ADMIN_EMAIL: EMAIL, ADMIN_PASSWORD: PASSWORD, PASSWORD_HASH_COST: '10', EGRESS_ALLOWED_HOSTS: fake.host, ...consoleDir }),
  );
  const admin = await createUser(app, { role: 'owner' });
  const baseUrl = await app.listen({ port: 0, host: '127.0.0.1' });
  return {
    app,
    fake,
    admin,
    baseUrl,
    close: async () => {
      await app.close();
      await fake.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

async function arrange(server: Server): Promise<void> {
  const { admin, fake, app } = server;
  const owners = await admin.api.get(`/api/v2/users?q=${encodeURIComponent(EMAIL)}`);
  await admin.api.put(`/api/v2/users/${owners.body.data.items[0].id}`, { first_name: 'Ada', last_name: 'Lovelace' });
  const model = await createModelConfiguration(admin, fake, { name: 'Fake model (priced)', input_price_per_million: 0.15, output_price_per_million: 0.6 });
  const agents = [];
  for (const agent of AGENTS) agents.push({ ...(await createAgent(admin, { name: agent.name, status: 'active', llm_configuration_id: model.id })), weight: agent.weight });
  const people = [admin.id];
  for (const name of ['grace', 'alan', 'katherine']) people.push((await createUser(app, { role: 'member', email: `${name}@example.com` })).id);

  // Today: real questions.
  fake.tokens = { prompt: 412, completion: 61 };
  for (const agent of agents.slice(0, 3)) {
    const reply = await admin.api.post(`/api/v2/agents/${agent.id}/responses`, { query: 'How do returns work?' });
    if (reply.status !== 201) throw new Error(`ask: ${reply.status} ${reply.text}`);
    await admin.api.put(`/api/v2/responses/${reply.body.data.id}/vote`, { vote: 'up' });
  }

  // The 30 days before: a history of answers, as the runtime records them.
  const { repos } = app.services.store;
  const random = seededRandom(34);
  const totalWeight = agents.reduce((sum, agent) => sum + agent.weight, 0);
  const today = Date.now() - (Date.now() % DAY_MS);
  for (let day = DAYS - 1; day >= 1; day--) {
    const start = today - day * DAY_MS;
    const weekend = [0, 6].includes(new Date(start).getUTCDay());
    const questions = Math.round((weekend ? 8 : 30) * (0.7 + random() * 0.6));
    for (let i = 0; i < questions; i++) {
      let pick = random() * totalWeight;
      const agent = agents.find((candidate) => (pick -= candidate.weight) < 0) ?? agents[0]!;
      const prompt = 300 + Math.floor(random() * 900);
      const completion = 40 + Math.floor(random() * 260);
      const outcome = random();
      await recordUsage(repos, {
        kind: 'answer',
        status: outcome < 0.04 ? 'failed' : outcome < 0.08 ? 'blocked' : 'completed',
        organization_id: admin.organizationId,
        agent_id: agent.id,
        user_id: people[Math.floor(random() * people.length)]!,
        model: 'fake-model',
        prompt_tokens: prompt,
        completion_tokens: completion,
        cost: prompt * PRICE_IN + completion * PRICE_OUT,
        latency_ms: 600 + Math.floor(random() * 2400),
        occurred_on: new Date(start + 8 * 3_600_000 + Math.floor(random() * 10 * 3_600_000)).toISOString(),
      });
    }
  }
}

async function main(): Promise<void> {
  if (CHROMIUM_PATH === undefined) throw new Error('No Chromium: install it with `apt-get install chromium`, or set CHROMIUM_PATH');
  const server = await startServer();
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, headless: true });
  try {
    await arrange(server);
    const context = await browser.newContext({ baseURL: server.baseUrl, viewport: { width: 1280, height: 800 }, locale: 'en-GB', timezoneId: 'UTC' });
    const page = await context.newPage();
    await page.goto('/sign-in');
    await page.getByLabel('E-mail').fill(EMAIL);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('navigation', { name: 'Main' }).waitFor();

    await page.goto('/analytics?period=30d');
    // Every chart drawn.
    const drawn = page.locator('.chart-card[data-ready] .recharts-wrapper > svg.recharts-surface');
    for (let waited = 0; (await drawn.count()) < 7; waited += 100) {
      if (waited > 30_000) throw new Error('The charts were not drawn within 30 s');
      await page.waitForTimeout(100);
    }
    await page.mouse.move(0, 0);
    await page.evaluate('document.activeElement?.blur()');
    mkdirSync(dirname(OUTPUT), { recursive: true });
    await page.screenshot({ path: OUTPUT });
    process.stdout.write(`Saved ${OUTPUT}\n`);
  } finally {
    await browser.close();
    await server.close();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`console-screenshot-analytics failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
});
