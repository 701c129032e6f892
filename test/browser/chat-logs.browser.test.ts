// The chat logs in a real browser, on answers made by real questions to the fake model: the log
// filtered by vote and by agent (the filters in the address), a thread opened read-only with the
// passages its answer cites, the API's CSV of the rows shown downloaded and read back; axe on each
// page, and a pass on a phone.
import { readFile } from 'node:fs/promises';
import Papa from 'papaparse';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { arrangeAskedAgents } from './support/asked-agents.js';
import { CHROMIUM_PATH } from './support/chromium.js';
import { BROWSER_TEST, expectAccessible, overflowsSideways, PHONE, poll, signIn, useConsoleBrowser } from './support/console-browser.js';

async function choose(page: Page, field: RegExp, option: string): Promise<void> {
  await page.getByRole('button', { name: field }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

/** The questions of the log's rows, as shown. */
const questions = (page: Page) => page.locator('.log-table tbody .log-question').allInnerTexts();

describe.skipIf(CHROMIUM_PATH === undefined)('console: chat logs', BROWSER_TEST, () => {
  const browser = useConsoleBrowser();

  it('filters the log by vote and agent, opens a thread with its sources, and exports the rows as CSV', async () => {
    const asked = await arrangeAskedAgents(browser.server());
    const { page } = await browser.open();
    await signIn(page, browser.server().email, browser.server().password);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Chat logs' }).click();
    await page.getByRole('heading', { name: 'Chat logs', level: 1 }).waitFor();
    // Newest first.
    await poll(() => questions(page)).toEqual(['Can I fly business class to Lisbon?', 'Where do I book leave?', 'How many holidays do I get?', 'How long is parental leave?']);
    await expectAccessible(page, 'the chat logs');

    await choose(page, /Vote$/, 'Voted down');
    await poll(() => new URL(page.url()).searchParams.get('vote')).toBe('down');
    await poll(() => questions(page)).toEqual(['Can I fly business class to Lisbon?']);
    await choose(page, /Vote$/, 'Voted up');
    await poll(() => questions(page)).toEqual(['How long is parental leave?']);
    await choose(page, /Vote$/, 'Any');
    await choose(page, /Agent$/, asked.handbook.name);
    await poll(() => new URL(page.url()).searchParams.get('agent')).toBe(String(asked.handbook.id));
    await poll(() => questions(page)).toEqual(['Where do I book leave?', 'How many holidays do I get?', 'How long is parental leave?']);

    // The API's CSV of the same filters.
    const download = page.waitForEvent('download');
    await page.getByRole('link', { name: 'Export CSV' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/^chat-logs-\d{4}-\d{2}-\d{2}\.csv$/);
    const csv = Papa.parse<Record<string, string>>(await readFile((await file.path())!, 'utf8'), { header: true, skipEmptyLines: true });
    expect(csv.data.map((row) => row.query)).toEqual(['How long is parental leave?', 'How many holidays do I get?', 'Where do I book leave?']);
    expect(new Set(csv.data.map((row) => row.agent_name))).toEqual(new Set([asked.handbook.name]));
    expect(csv.data.map((row) => row.up_votes)).toEqual(['1', '0', '0']);

    // A thread, read-only, with the passage its answer cites.
    await page.getByRole('link', { name: 'How long is parental leave?' }).click();
    await page.getByRole('heading', { name: /^Thread: /, level: 1 }).waitFor();
    const exchange = page.getByRole('article', { name: /How long is parental leave\?/ });
    await exchange.getByText('1 up, 0 down').waitFor();
    await exchange.getByRole('region', { name: 'Sources of answer 1' }).getByText('Parental leave lasts sixteen weeks.', { exact: false }).waitFor();
    expect(await page.getByRole('textbox').count()).toBe(0);
    await expectAccessible(page, 'a thread of the chat logs');
    // Back to the rows as they were filtered.
    await page.getByRole('link', { name: '← Chat logs' }).click();
    await poll(() => questions(page)).toEqual(['Where do I book leave?', 'How many holidays do I get?', 'How long is parental leave?']);
  });

  it('fits a phone, accessible', async () => {
    const { page } = await browser.open({ viewport: PHONE });
    await signIn(page, browser.server().email, browser.server().password);
    await page.goto('/logs');
    await page.getByRole('heading', { name: 'Chat logs', level: 1 }).waitFor();
    await poll(() => page.locator('.log-table tbody tr').count()).toBeGreaterThan(0);
    expect(await overflowsSideways(page)).toBe(false);
    await expectAccessible(page, 'the chat logs on a phone');
  });
});
