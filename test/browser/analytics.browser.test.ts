// The analytics page in a real browser, on usage made by real questions to the fake model: the
// period's figures drawn as charts, a change of period redrawn, the figures of one agent, a chart's
// CSV downloaded and read back, the view kept in the address (reload, Back), the most active agents
// ranked; axe on the page, and a pass on a phone.
import { readFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { arrangeAskedAgents } from './support/asked-agents.js';
import { CHROMIUM_PATH } from './support/chromium.js';
import { BROWSER_TEST, expectAccessible, overflowsSideways, PHONE, poll, signIn, useConsoleBrowser } from './support/console-browser.js';

const CHARTS = 7;

async function choose(page: Page, field: RegExp, option: string): Promise<void> {
  await page.getByRole('button', { name: field }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

/** Every chart drawn: each card has its figures and an SVG. */
async function waitForCharts(page: Page): Promise<void> {
  await poll(() => page.locator('.chart-card[data-ready] .recharts-wrapper > svg.recharts-surface, .chart-card[data-ready] .empty').count()).toBe(CHARTS);
}

const queriesCard = (page: Page) => page.getByRole('region', { name: 'Queries', exact: true });

describe.skipIf(CHROMIUM_PATH === undefined)('console: analytics', BROWSER_TEST, () => {
  const browser = useConsoleBrowser();

  it('draws the period’s figures, redraws for another period and one agent, downloads a chart’s CSV and keeps the view in the address', async () => {
    const asked = await arrangeAskedAgents(browser.server());
    const { page } = await browser.open();
    await signIn(page, browser.server().email, browser.server().password);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Analytics' }).click();
    await page.getByRole('heading', { name: 'Analytics', level: 1 }).waitFor();
    await waitForCharts(page);
    await poll(() => queriesCard(page).locator('.chart-headline').innerText()).toBe('4 queries');
    const totals = page.getByRole('region', { name: 'Totals of the period' });
    await poll(() => totals.innerText()).toMatch(/Votes up \/ down\s+1 \/ 1/);
    expect(await queriesCard(page).locator('.chart-drawing').getAttribute('aria-label')).toMatch(/^Queries per day, 30 points: 4 queries in total/);
    await expectAccessible(page, 'the analytics page');

    // Another period: points of an hour, said in the address and in what the chart is read as.
    await choose(page, /Period$/, 'Last 24 hours');
    await poll(() => new URL(page.url()).searchParams.get('period')).toBe('24h');
    await poll(() => queriesCard(page).locator('.chart-drawing').getAttribute('aria-label')).toMatch(/^Queries per hour, 2[45] points: 4 queries in total/);
    await waitForCharts(page);

    // One agent's figures.
    await choose(page, /Figures for$/, 'An agent');
    await choose(page, /Agent$/, asked.travel.name);
    await poll(() => new URL(page.url()).searchParams.get('agent')).toBe(String(asked.travel.id));
    await poll(() => queriesCard(page).locator('.chart-headline').innerText()).toBe('1 queries');

    // The figures behind the chart: shown as a table, and downloaded as CSV.
    await queriesCard(page).getByRole('button', { name: 'Table of figures' }).click();
    const table = queriesCard(page).getByRole('table');
    await poll(() => table.locator('tfoot').innerText()).toMatch(/Total\s+1\s+0\s+0/);
    const download = page.waitForEvent('download');
    await queriesCard(page).getByRole('button', { name: 'Download CSV of queries' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(new RegExp(`^query-count-agent-${asked.travel.id}-\\d{4}-\\d{2}-\\d{2}-to-\\d{4}-\\d{2}-\\d{2}-by-hour\\.csv$`));
    const lines = (await readFile((await file.path())!, 'utf8')).trimEnd().split('\r\n');
    expect(lines[0]).toBe('start,queries,completed,blocked,failed');
    const rows = lines.slice(1).map((line) => line.split(','));
    expect(rows.length).toBeGreaterThanOrEqual(24);
    expect(rows.every(([start]) => !Number.isNaN(Date.parse(start!)))).toBe(true);
    expect(rows.reduce((sum, row) => sum + Number(row[1]), 0)).toBe(1);

    // Reload keeps the view; Back goes to the organization's figures.
    await page.reload();
    await poll(() => queriesCard(page).locator('.chart-headline').innerText()).toBe('1 queries');
    await page.goBack();
    await poll(() => new URL(page.url()).searchParams.get('agent')).toBe(null);
    await poll(() => queriesCard(page).locator('.chart-headline').innerText()).toBe('4 queries');

    // The most active agents, ranked.
    const ranking = page.getByRole('region', { name: 'Most active' });
    expect(await ranking.locator('.chart-drawing').getAttribute('aria-label')).toBe(`Most active agents by questions asked: 1. ${asked.handbook.name}, 3; 2. ${asked.travel.name}, 1.`);
    await choose(page, /Rank$/, 'Users');
    await poll(() => new URL(page.url()).searchParams.get('rank')).toBe('users');
    await poll(() => ranking.locator('.chart-drawing').getAttribute('aria-label')).toMatch(/^Most active users by questions asked: 1\. .+, 4\.$/);
  });

  it('fits a phone, accessible', async () => {
    const { page } = await browser.open({ viewport: PHONE });
    await signIn(page, browser.server().email, browser.server().password);
    await page.goto('/analytics?period=7d');
    await page.getByRole('heading', { name: 'Analytics', level: 1 }).waitFor();
    await waitForCharts(page);
    expect(await overflowsSideways(page)).toBe(false);
    await expectAccessible(page, 'the analytics page on a phone');
  });
});
