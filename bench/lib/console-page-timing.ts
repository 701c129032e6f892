// What the console suite reads in the browser. A script injected before the console's own (through
// the browser's protocol, which the page's Content-Security-Policy does not govern) notes with
// performance.now(), whose zero is the start of the navigation, the moment each control a person
// needs is there and usable, and keeps the page's long tasks (PerformanceObserver, "longtask").
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../test/browser/support/chromium.js';
import type { CleanupStack } from './cleanup.js';

/** Moments noted in the page, in ms since the navigation started; absent until seen. */
export interface ReadyMarks {
  /** The sign-in page's "Sign in" button, enabled. */
  signIn?: number;
  /** The chat page's question box (labelled "question" or "message"), enabled, with its Send button. */
  composer?: number;
  /** The arranged answer's text on the page (a thread page only). */
  thread?: number;
}

export interface LongTask {
  startMs: number;
  durationMs: number;
}

export interface ScriptTransfer {
  files: number;
  /** Bytes on the wire, headers included, as the Resource Timing API counts them. */
  transferBytes: number;
  /** Bytes of the bodies as sent (compressed when served compressed). */
  encodedBytes: number;
  decodedBytes: number;
}

/**
 * Which marks a page watches depends on its path, so that the watching stops as soon as they are
 * seen: a long answer's rendering is then measured without the watcher's work.
 */
const timingScript = (threadText: string) => `(() => {
  const marks = {};
  const longTasks = [];
  Object.defineProperty(window, '__benchMarks', { value: marks });
  Object.defineProperty(window, '__benchLongTasks', { value: longTasks });
  try {
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) longTasks.push({ startMs: entry.startTime, durationMs: entry.duration });
    }).observe({ type: 'longtask', buffered: true });
  } catch {}
  const usable = (element) => !element.disabled && element.getAttribute('aria-disabled') !== 'true';
  const named = (element, pattern) => [...(element.labels ?? [])].some((label) => pattern.test(label.textContent ?? '')) || pattern.test(element.getAttribute('aria-label') ?? '');
  const buttonNamed = (text) => [...document.querySelectorAll('button')].find((button) => button.textContent.trim() === text);
  const checks = {
    signIn: () => { const button = buttonNamed('Sign in'); return button !== undefined && usable(button); },
    composer: () => [...document.querySelectorAll('textarea, input')].some((field) => usable(field) && named(field, /question|message/i)) && buttonNamed('Send') !== undefined,
    thread: () => (document.body?.textContent ?? '').includes(${JSON.stringify(threadText)}),
  };
  const path = location.pathname;
  const watched = path === '/sign-in' ? ['signIn'] : /\\/chat\\/\\d+$/.test(path) ? ['composer', 'thread'] : /\\/chat$/.test(path) ? ['composer'] : [];
  if (watched.length === 0) return;
  const observer = new MutationObserver(() => {
    const now = performance.now();
    for (const name of watched) if (marks[name] === undefined && checks[name]()) marks[name] = now;
    if (watched.every((name) => marks[name] !== undefined)) observer.disconnect();
  });
  observer.observe(document, { childList: true, subtree: true, attributes: true, characterData: true });
})();`;

export async function launchChromium(cleanup: CleanupStack): Promise<Browser> {
  if (CHROMIUM_PATH === undefined) throw new Error('No Chromium (CHROMIUM_PATH, /usr/bin/chromium): install it with `apt-get install chromium`');
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, headless: true });
  cleanup.defer('close Chromium', () => browser.close());
  return browser;
}

/** A fresh context (empty cache, no cookies) whose every page notes its ready marks and long tasks. */
export async function timedContext(browser: Browser, baseUrl: string, threadText: string): Promise<BrowserContext> {
  const context = await browser.newContext({ baseURL: baseUrl, viewport: { width: 1280, height: 800 }, locale: 'en-GB' });
  await context.addInitScript({ content: timingScript(threadText) });
  return context;
}

export const readMarks = (page: Page) => page.evaluate('({ ...window.__benchMarks })') as Promise<ReadyMarks>;

/**
 * Waits until `expression` is true in the page, asking every `everyMs`. Asked from here, through the
 * browser's protocol: Playwright's waitForFunction evaluates strings in the page, which the console's
 * Content-Security-Policy (no 'unsafe-eval') forbids.
 */
export async function pollInPage(page: Page, expression: string, { timeoutMs = 30_000, everyMs = 50 } = {}): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await page.evaluate(expression))) {
    if (Date.now() > deadline) throw new Error(`not true within ${timeoutMs} ms in ${page.url()}: ${expression}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

/** Waits until the page has noted the marks named. */
export async function waitForMarks(page: Page, names: (keyof ReadyMarks)[], timeoutMs = 30_000): Promise<ReadyMarks> {
  await pollInPage(page, `${JSON.stringify(names)}.every((name) => window.__benchMarks?.[name] !== undefined)`, { timeoutMs });
  return readMarks(page);
}

export async function forgetLongTasks(page: Page): Promise<void> {
  await page.evaluate('window.__benchLongTasks.length = 0');
}

export const readLongTasks = (page: Page) => page.evaluate('[...window.__benchLongTasks]') as Promise<LongTask[]>;

/** The JavaScript files the page loaded so far, as the Resource Timing API counts them. */
export function scriptTransfer(page: Page): Promise<ScriptTransfer> {
  return page.evaluate(`(() => {
    const scripts = performance.getEntriesByType('resource').filter((entry) => new URL(entry.name).pathname.endsWith('.js'));
    return {
      files: scripts.length,
      transferBytes: scripts.reduce((sum, entry) => sum + entry.transferSize, 0),
      encodedBytes: scripts.reduce((sum, entry) => sum + entry.encodedBodySize, 0),
      decodedBytes: scripts.reduce((sum, entry) => sum + entry.decodedBodySize, 0),
    };
  })()`) as Promise<ScriptTransfer>;
}
