// `npm run bench:analytics -- …` measures the API's analytics routes; this measures the console's
// analytics page on the same organization: 1,000,000 usage events over 90 days (with their
// responses, votes and documents), seeded as bench/analytics.mjs seeds them, on SQLite. The page is
// opened in Chromium, signed in, by day over the 90 days, and the time from the start of the
// navigation until every chart is drawn (each card's figures arrived and its SVG in the page, or its
// "nothing in this period") is noted in the page. The first opening (the analytics code not yet
// cached) and the median of the next ones are printed, with the aim (under 2 s). The server runs from
// the sources in a child process and serves the console of dist/console (build it first:
// `npm run build`, or any browser test builds it). See docs/performance.md, "The analytics page".
//
// Run: node --import tsx bench/console-analytics.ts
// Settings: BENCH_CONSOLE_ANALYTICS_EVENTS (default 1000000), BENCH_CONSOLE_ANALYTICS_ROUNDS (default 5).
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import type { Browser, Page } from 'playwright-core';
import { analyticsPlan, seedAnalytics, sqliteSink } from './analytics-seed.mjs';
import { ADMIN_EMAIL, buildWorld, ownerClient, startServer } from './analytics-world.mjs';
import { CleanupStack } from './lib/cleanup.js';
import { launchChromium, pollInPage } from './lib/console-page-timing.js';
import { describeMachine, formatMachine } from './lib/machine.js';
import { percentile } from './lib/percentiles.js';
import { PROJECT_ROOT } from './lib/project.js';
import { openForSeeding } from './lib/seed-database.js';
import { makeTempDir } from './lib/temp-dir.js';

const EVENTS = Number(process.env.BENCH_CONSOLE_ANALYTICS_EVENTS ?? 1_000_000);
const ROUNDS = Number(process.env.BENCH_CONSOLE_ANALYTICS_ROUNDS ?? 5);
const DAYS = 90;
const AIM_MS = 2000;
/** The page's charts: six series and the ranking. */
const CHARTS = 7;
const PAGE = '/analytics?period=90d&interval=day';

const log = (message: string) => process.stderr.write(`[bench:console-analytics] ${message}\n`);

/**
 * Noted in the page (performance.now(): ms since the navigation started) the moment every chart is
 * drawn. Injected through the browser's protocol, which the Content-Security-Policy does not govern.
 */
const CHARTS_DRAWN_SCRIPT = `(() => {
  if (location.pathname !== '/analytics') return;
  const drawn = () => document.querySelectorAll('.chart-card[data-ready] .recharts-wrapper > svg.recharts-surface, .chart-card[data-ready] .empty').length === ${CHARTS};
  const observer = new MutationObserver(() => {
    if (window.__chartsDrawn === undefined && drawn()) { window.__chartsDrawn = performance.now(); observer.disconnect(); }
  });
  observer.observe(document, { childList: true, subtree: true, attributes: true });
})();`;

async function signIn(page: Page, password: string): Promise<void> {
  await page.goto('/sign-in');
  await page.getByLabel('E-mail').fill(ADMIN_EMAIL);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('navigation', { name: 'Main' }).waitFor();
}

/** Opens the page in a new tab of the signed-in context; ms until every chart is drawn. */
async function timeOpening(browser: { newPage(): Promise<Page> }): Promise<number> {
  const page = await browser.newPage();
  try {
    await page.goto(PAGE);
    await pollInPage(page, 'window.__chartsDrawn !== undefined', { timeoutMs: 120_000 });
    const problems = await page.locator('.chart-card .note-error').allInnerTexts();
    if (problems.length > 0) throw new Error(`the page said: ${problems.join('; ')}`);
    return (await page.evaluate('window.__chartsDrawn')) as number;
  } finally {
    await page.close();
  }
}

async function measure(browser: Browser, baseUrl: string, password: string): Promise<{ first: number; rest: number[] }> {
  const context = await browser.newContext({ baseURL: baseUrl, viewport: { width: 1280, height: 800 }, locale: 'en-GB' });
  try {
    await context.addInitScript({ content: CHARTS_DRAWN_SCRIPT });
    await signIn(await context.newPage(), password);
    const first = await timeOpening(context);
    const rest: number[] = [];
    for (let round = 0; round < ROUNDS; round++) rest.push(await timeOpening(context));
    return { first, rest };
  } finally {
    await context.close();
  }
}

async function main(): Promise<void> {
  if (!existsSync(join(PROJECT_ROOT, 'dist', 'console', 'index.html'))) throw new Error('No console in dist/console: run `npm run build` first');
  const cleanup = new CleanupStack();
  try {
    const dataDir = await makeTempDir('agent-platform-console-analytics-bench', cleanup);
    const password = randomBytes(15).toString('base64url');
    let server = await startServer(cleanup, dataDir, password, undefined);
    const world = await buildWorld(await ownerClient(server, password));
    const plan = analyticsPlan({ events: EVENTS, days: DAYS, endMs: Date.now() });
    await server.stop();
    const seedStarted = performance.now();
    const db = openForSeeding(dataDir);
    const seeded = await seedAnalytics(sqliteSink(db), world, plan, log);
    db.close();
    log(`seeded ${EVENTS} events, ${seeded.responses} responses in ${((performance.now() - seedStarted) / 1000).toFixed(0)} s`);
    server = await startServer(cleanup, dataDir, password, undefined);
    const browser = await launchChromium(cleanup);
    const { first, rest } = await measure(browser, server.baseUrl, password);
    const median = percentile(Float64Array.from(rest).sort(), 50);
    process.stdout.write(`Machine: ${formatMachine(describeMachine())}\n`);
    process.stdout.write(`${EVENTS.toLocaleString('en')} usage events over ${DAYS} days, SQLite; the analytics page by day over the ${DAYS} days (${PAGE})\n\n`);
    process.stdout.write('| opening | charts drawn, ms | < 2 s | load average |\n|---|---:|:-:|---:|\n');
    process.stdout.write(`| first (its code not cached) | ${first.toFixed(0)} | ${first < AIM_MS ? 'yes' : 'no'} | ${loadavg()[0]!.toFixed(1)} |\n`);
    process.stdout.write(`| median of the next ${ROUNDS} | ${median.toFixed(0)} | ${median < AIM_MS ? 'yes' : 'no'} | ${loadavg()[0]!.toFixed(1)} |\n`);
  } finally {
    await cleanup.runAll();
  }
}

await main();
