// One Chromium per test file, driven by playwright-core (which downloads no browser), on the real
// server of console-server.ts. Every page's uncaught errors and console errors are collected and fail
// the test; a failed test keeps a screenshot and the page's console under test/browser/.artifacts.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './chromium.js';
import { startConsoleServer, type ConsoleServer } from './console-server.js';

const ARTIFACTS = join(dirname(fileURLToPath(import.meta.url)), '..', '.artifacts');
const require = createRequire(import.meta.url);
const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

export const DESKTOP = { width: 1280, height: 800 };
export const PHONE = { width: 390, height: 844 };

/**
 * What the browser logs that is not a fault of the page: the network line Chromium writes for every
 * 4xx the server answers and the console handles and shows (400 a field's complaint, 401 a session
 * ended, 403 a refusal, 404 a thing gone, 409 a name taken or an agent inactive, 412 a change made
 * elsewhere meanwhile, 413 and 415 a file refused, 429 a rate limit). A 5xx stays a problem.
 */
const EXPECTED_CONSOLE = /^Failed to load resource: the server responded with a status of (400|401|403|404|409|412|413|415|429)\b/;

/**
 * How long a test waits for what it means (a row, a text, a state) before calling it missing: the
 * same as Playwright's own waits (its default of 30 s), also for expect.poll, whose default of one
 * second would make a loaded machine fail. A wait ends as soon as the thing is there.
 */
export const PATIENCE_MS = 30_000;

/** Work the server does in the background (processing a document, a long answer): longer on a loaded machine. */
export const PROCESSING_MS = 90_000;

/**
 * A whole browser test's bound: a flow of many waits on a loaded 2-core machine. Each file's describe
 * takes it (`describe(name, BROWSER_TEST, …)`), so that no test has a tighter one.
 */
export const BROWSER_TEST = { timeout: 240_000 };

/** expect.poll with the tests' patience: waits until `read` gives what the matcher wants. */
export function poll<T>(read: () => T | Promise<T>, timeout = PATIENCE_MS) {
  return expect.poll(read, { timeout, interval: 100 });
}

export interface ConsolePage {
  page: Page;
  context: BrowserContext;
  /** Uncaught errors and console errors so far. */
  problems: string[];
  /** Everything the page logged, kept with a failure's screenshot. */
  log: string[];
}

export interface ConsoleBrowser {
  server(): ConsoleServer;
  /** A fresh browser context (no cookies) on a page of the console's origin. */
  open(options?: { viewport?: { width: number; height: number } }): Promise<ConsolePage>;
}

/** Registers the file's hooks: the server and the browser for all its tests, evidence on failure. */
export function useConsoleBrowser(env: Record<string, string> = {}): ConsoleBrowser {
  let server: ConsoleServer | undefined;
  let browser: Browser | undefined;
  let pages: ConsolePage[] = [];

  beforeAll(async () => {
    server = await startConsoleServer(env);
    browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, headless: true });
  }, 120_000);

  afterEach(async (context) => {
    const failed = context.task.result?.state === 'fail';
    const opened = pages;
    pages = [];
    try {
      if (failed) await keepEvidence(context.task.name, opened);
      else for (const consolePage of opened) expect(consolePage.problems, 'errors in the browser console').toEqual([]);
    } finally {
      await Promise.all(opened.map((consolePage) => consolePage.context.close()));
    }
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  return {
    server: () => server!,
    async open(options = {}) {
      const context = await browser!.newContext({ viewport: options.viewport ?? DESKTOP, baseURL: server!.baseUrl, locale: 'en-GB' });
      context.setDefaultTimeout(PATIENCE_MS);
      const page = await context.newPage();
      const consolePage: ConsolePage = { page, context, problems: [], log: [] };
      page.on('pageerror', (error) => consolePage.problems.push(`uncaught: ${error.stack ?? error.message}`));
      page.on('console', (message) => {
        const line = `${message.type()}: ${message.text()}`;
        consolePage.log.push(line);
        if (message.type() === 'error' && !EXPECTED_CONSOLE.test(message.text())) consolePage.problems.push(line);
      });
      pages.push(consolePage);
      return consolePage;
    },
  };
}

async function keepEvidence(testName: string, pages: ConsolePage[]): Promise<void> {
  mkdirSync(ARTIFACTS, { recursive: true });
  const base = testName.replace(/[^a-z0-9]+/gi, '-').slice(0, 80);
  for (const [index, { page, log, problems }] of pages.entries()) {
    const name = `${base}-${index}`;
    await page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage: true }).catch(() => undefined);
    writeFileSync(join(ARTIFACTS, `${name}.console.txt`), [...log, '', 'problems:', ...problems].join('\n'));
    process.stderr.write(`browser test failed: screenshot and console in ${join(ARTIFACTS, name)}.*\n`);
  }
}

/** Signs in through the sign-in page, as a person does, and waits for the agents page. */
export async function signIn(page: Page, email: string, password: string): Promise<void> {
  await page.goto('/sign-in');
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('navigation', { name: 'Main' }).waitFor();
}

/**
 * axe-core's checks on the page as it is now: no serious or critical violation. axe is evaluated
 * through the browser's protocol, which the page's Content-Security-Policy does not govern (the page
 * itself may run no inline script). React Aria's live announcer is left out: for 7 s after a pending
 * button's announcement it holds an entry labelled by that button, which fails role-img-alt once the
 * button is gone (e.g. the sign-in page's), a result that would depend on timing.
 */
export async function expectAccessible(page: Page, where: string): Promise<void> {
  const loaded = await page.evaluate('typeof window.axe === "object"');
  if (!loaded) await page.evaluate(AXE_SOURCE);
  const violations = (await page.evaluate(`window.axe.run({ exclude: [['[data-live-announcer]']] }, { resultTypes: ['violations'] }).then((result) =>
    result.violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
      .map((violation) => violation.id + ' (' + violation.impact + '): ' + violation.help + ' — ' + violation.nodes.slice(0, 3).map((node) => node.target.join(' ')).join(', ')))`)) as string[];
  expect(violations, `accessibility of ${where}`).toEqual([]);
}

/** Whether the page scrolls sideways (a layout that does not fit the width). */
export async function overflowsSideways(page: Page): Promise<boolean> {
  return page.evaluate('document.documentElement.scrollWidth > document.documentElement.clientWidth + 1') as Promise<boolean>;
}
