// The console suite: the web console as a person meets it, in Debian's Chromium (playwright-core),
// served by the built server (`node dist/cli.js serve`, the console of dist/console with its brotli
// and gzip copies). Measured, never asserted:
//   - the JavaScript the first load of the sign-in page moves (compressed, as served): aim <= 300 KB;
//   - the time until the sign-in page can be used (its Sign in button there and enabled): aim < 1 s;
//   - an agent's chat page (a thread with an answered question) after a reload: aim < 1.5 s;
//   - an answer streamed in 20,000 small pieces: whether every piece reached the page (the rendered
//     text equals the text sent) and the page's long tasks meanwhile.
// Each is repeated and the medians printed. See docs/performance.md, suite `console`.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { startFakeOpenAi, type FakeLlmServer } from '../test/support/fake-openai.js';
import { startAgentPlatform, type AgentPlatformServer } from './lib/agent-platform-server.js';
import { ANSWER, arrangeAnsweredThread } from './lib/console-fixtures.js';
import { forgetLongTasks, launchChromium, pollInPage, readLongTasks, scriptTransfer, timedContext, waitForMarks, type ScriptTransfer } from './lib/console-page-timing.js';
import { apiKeyClient } from './lib/credentials.js';
import { percentile } from './lib/percentiles.js';
import { PROJECT_ROOT } from './lib/project.js';
import { fixed, type SuiteReport } from './lib/report.js';
import type { BenchSuite, SuiteContext } from './lib/suite.js';

const LOAD_ROUNDS = 5;
const STREAM_ROUNDS = 3;
const STREAM_PIECES = 20_000;
const STREAM_TIMEOUT_MS = 180_000;
const SCRIPT_AIM_KB = 300;
const SIGN_IN_AIM_MS = 1000;
const CHAT_RELOAD_AIM_MS = 1500;
const LONG_TASK_MS = 100;

interface SignInLoad extends ScriptTransfer {
  interactiveMs: number;
  encodings: string[];
}

interface ChatReload {
  composerMs: number;
  threadMs: number;
}

interface StreamRound {
  ms: number;
  sameText: boolean;
  longTasks: number;
  over100: number;
  longestMs: number;
}

const median = (values: number[]) => percentile(Float64Array.from(values).sort(), 50);
const kb = (bytes: number) => bytes / 1024;

/** The console's own sign-in, as a person does it. */
async function signInThroughPage(page: Page, email: string, password: string): Promise<void> {
  await page.goto('/sign-in');
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('navigation', { name: 'Main' }).waitFor();
}

/** The sign-in page opened in a fresh context: nothing cached, as a first visit. */
async function measureSignInLoad(browser: Browser, baseUrl: string): Promise<SignInLoad> {
  const context = await timedContext(browser, baseUrl, ANSWER);
  try {
    const page = await context.newPage();
    const encodings = new Set<string>();
    page.on('response', (response) => {
      if (new URL(response.url()).pathname.endsWith('.js')) encodings.add(response.headers()['content-encoding'] ?? 'none');
    });
    await page.goto('/sign-in');
    const marks = await waitForMarks(page, ['signIn']);
    // Whatever the page fetches on its own after it is usable counts too.
    await page.waitForLoadState('networkidle');
    return { interactiveMs: marks.signIn!, encodings: [...encodings], ...(await scriptTransfer(page)) };
  } finally {
    await context.close();
  }
}

/** The thread's page visited once (the cache filled, as for someone who uses the console), then reloaded. */
async function measureChatReloads(browser: Browser, platform: AgentPlatformServer, path: string): Promise<ChatReload[]> {
  const context = await timedContext(browser, platform.server.baseUrl, ANSWER);
  try {
    const page = await context.newPage();
    await signInThroughPage(page, platform.adminEmail, platform.adminPassword);
    await page.goto(path);
    await waitForMarks(page, ['composer', 'thread']);
    const reloads: ChatReload[] = [];
    for (let round = 0; round < LOAD_ROUNDS; round++) {
      await page.reload();
      const marks = await waitForMarks(page, ['composer', 'thread']);
      reloads.push({ composerMs: marks.composer!, threadMs: marks.thread! });
    }
    return reloads;
  } finally {
    await context.close();
  }
}

/** Words with a paragraph now and then, as a model writes: one small piece each. */
function streamPieces(): string[] {
  return Array.from({ length: STREAM_PIECES }, (_, index) => (index % 400 === 199 ? `word${index}.\n\n` : `word${index} `));
}

const collapsed = (text: string) => text.replace(/\s+/g, ' ').trim();

/** One long answer into a new thread; the fake model sends every piece at once, the worst case for the page. */
async function measureStream(page: Page, fake: FakeLlmServer, agentId: number): Promise<StreamRound> {
  const pieces = streamPieces();
  const sent = pieces.join('');
  fake.chunks = pieces;
  fake.answer = sent;
  try {
    await page.goto(`/agents/${agentId}/chat`);
    await waitForMarks(page, ['composer']);
    await page.getByRole('textbox', { name: /question|message/i }).fill('Talk for a long time');
    await forgetLongTasks(page);
    const started = (await page.evaluate('performance.now()')) as number;
    await page.getByRole('button', { name: 'Send' }).click();
    // Over when an answer is on the page and it is no longer being written (its Stop button gone).
    await pollInPage(page, `document.querySelector('.answer-text') !== null && ![...document.querySelectorAll('button')].some((button) => button.textContent.trim() === 'Stop')`, {
      timeoutMs: STREAM_TIMEOUT_MS,
      everyMs: 100,
    });
    const ended = (await page.evaluate('performance.now()')) as number;
    const rendered = await page.locator('.answer-text').last().innerText();
    const tasks = (await readLongTasks(page)).filter((task) => task.startMs >= started);
    return {
      ms: ended - started,
      sameText: collapsed(rendered) === collapsed(sent),
      longTasks: tasks.length,
      over100: tasks.filter((task) => task.durationMs > LONG_TASK_MS).length,
      longestMs: Math.max(0, ...tasks.map((task) => task.durationMs)),
    };
  } finally {
    fake.chunks = undefined;
  }
}

function report(loads: SignInLoad[], reloads: ChatReload[], streams: StreamRound[]): SuiteReport {
  const scriptKb = median(loads.map((load) => kb(load.transferBytes)));
  const signInMs = median(loads.map((load) => load.interactiveMs));
  const chatMs = median(reloads.map((reload) => Math.max(reload.composerMs, reload.threadMs)));
  const whole = streams.filter((stream) => stream.sameText).length;
  const loadRow = (label: string, load: SignInLoad) => [
    label,
    String(load.files),
    fixed(kb(load.transferBytes), 1),
    fixed(kb(load.encodedBytes), 1),
    fixed(kb(load.decodedBytes), 1),
    load.encodings.join(', '),
    fixed(load.interactiveMs, 0),
  ];
  return {
    title: `Console: the sign-in page, an agent's chat page and a ${STREAM_PIECES.toLocaleString('en')}-piece answer in Chromium`,
    results: [],
    tables: [
      {
        title: `First load of the sign-in page, cold cache (${LOAD_ROUNDS} rounds)`,
        header: ['round', 'JS files', 'JS transferred KB', 'JS encoded KB', 'JS decoded KB', 'encoding', 'interactive ms'],
        rows: loads.map((load, index) => loadRow(String(index + 1), load)),
      },
      {
        title: `An agent's chat page (a thread with one cited answer) reloaded, warm cache (${LOAD_ROUNDS} rounds)`,
        header: ['round', 'question box ready ms', 'thread shown ms'],
        rows: reloads.map((reload, index) => [String(index + 1), fixed(reload.composerMs, 0), fixed(reload.threadMs, 0)]),
      },
      {
        title: `An answer streamed in ${STREAM_PIECES.toLocaleString('en')} pieces, all sent at once by the fake model (${STREAM_ROUNDS} rounds)`,
        header: ['round', 'send to end ms', 'rendered = sent', 'long tasks', `over ${LONG_TASK_MS} ms`, 'longest ms'],
        rows: streams.map((stream, index) => [
          String(index + 1),
          fixed(stream.ms, 0),
          stream.sameText ? 'yes' : 'NO',
          String(stream.longTasks),
          String(stream.over100),
          fixed(stream.longestMs, 0),
        ]),
      },
    ],
    aims: [
      { label: 'JavaScript moved by the first load of the sign-in page (median)', value: scriptKb, comparison: '<=', target: SCRIPT_AIM_KB, unit: ' KB' },
      { label: 'sign-in page usable after navigation start (median)', value: signInMs, comparison: '<', target: SIGN_IN_AIM_MS, unit: ' ms' },
      { label: 'chat page usable, thread shown, after a reload (median)', value: chatMs, comparison: '<', target: CHAT_RELOAD_AIM_MS, unit: ' ms' },
      { label: 'long answers rendered whole (every piece on the page)', value: whole, comparison: '>=', target: STREAM_ROUNDS },
    ],
    notes: [
      `Long tasks during the long answer (median over rounds): longest ${fixed(median(streams.map((stream) => stream.longestMs)), 0)} ms, ` +
        `${fixed(median(streams.map((stream) => stream.over100)), 0)} over ${LONG_TASK_MS} ms.`,
      'Times are from the navigation start (performance.now() in the page) to the moment the control is in the page and enabled, noted by a MutationObserver.',
      'JS transferred is the Resource Timing transferSize of the .js files (headers included); encoded is the body as served (brotli or gzip when the build wrote a copy).',
    ],
  };
}

async function runConsoleSuite({ config, cleanup, log }: SuiteContext): Promise<SuiteReport> {
  // CONSOLE_DIR: a console built elsewhere (CONSOLE_OUT_DIR of a Vite build, precompressed), else dist/console.
  const consoleDir = process.env.CONSOLE_DIR;
  const served = consoleDir ?? join(PROJECT_ROOT, 'dist', 'console');
  if (!existsSync(join(served, 'index.html'))) throw new Error(`No console in ${served}: build it with \`npm run build\``);
  log(`starting the fake model (in this process) and the Agent Platform server with the console of ${served}`);
  const fake = await startFakeOpenAi();
  cleanup.defer('stop the fake model', () => fake.close());
  const platform = await startAgentPlatform(config, cleanup, { EGRESS_ALLOWED_HOSTS: fake.host, ...(consoleDir === undefined ? {} : { CONSOLE_DIR: consoleDir }) });
  const client = await apiKeyClient(platform);
  const { agentId, threadId } = await arrangeAnsweredThread(client, fake);
  const browser = await launchChromium(cleanup);
  const baseUrl = platform.server.baseUrl;

  log('first loads of the sign-in page');
  const loads: SignInLoad[] = [];
  for (let round = 0; round < LOAD_ROUNDS; round++) loads.push(await measureSignInLoad(browser, baseUrl));
  log('reloads of the chat page');
  const reloads = await measureChatReloads(browser, platform, `/agents/${agentId}/chat/${threadId}`);
  log(`${STREAM_ROUNDS} answers of ${STREAM_PIECES} pieces`);
  const context = await timedContext(browser, baseUrl, ANSWER);
  const streams: StreamRound[] = [];
  try {
    const page = await context.newPage();
    await signInThroughPage(page, platform.adminEmail, platform.adminPassword);
    for (let round = 0; round < STREAM_ROUNDS; round++) streams.push(await measureStream(page, fake, agentId));
  } finally {
    await context.close();
  }
  return report(loads, reloads, streams);
}

export const consoleSuite: BenchSuite = {
  name: 'console',
  description: "The web console in Chromium: sign-in page's JavaScript and time to use, chat page reload, a 20,000-piece streamed answer",
  timeBudgetSeconds: () => 900,
  run: runConsoleSuite,
};
