// An agent's history in a real browser: its records with checkpoint names, a comparison of two
// (instructions as a text difference, other settings as "before → after"), a restore with its
// confirmation, a checkpoint saved by hand, on a desktop and a phone; a viewer cannot restore.
import { describe, expect, it } from 'vitest';
import { createUser } from '../support/factories.js';
import { CHROMIUM_PATH } from './support/chromium.js';
import { BROWSER_TEST, expectAccessible, overflowsSideways, PHONE, poll, signIn, useConsoleBrowser, type ConsoleBrowser } from './support/console-browser.js';

const BASELINE = ['You answer questions about the product manuals.', 'Be brief.', 'Cite the manual you quote.'].join('\n');
const TUNED = ['You answer questions about the product manuals.', 'Be thorough and give examples.', 'Cite the manual you quote.'].join('\n');

interface ArrangedAgent {
  id: number;
  name: string;
  baselineId: number;
  tunedId: number;
  /** The last change (temperature 0.2 → 0.5): the agent as it is. */
  latestId: number;
}

let sequence = 0;

/**
 * An agent whose instructions and temperature changed a few times, with two checkpoints:
 * "Baseline" (BASELINE, 0.7) and "Tuned" (TUNED, 0.2), then one more change of temperature.
 */
async function arrangeAgent(browser: ConsoleBrowser): Promise<ArrangedAgent> {
  const { admin } = browser.server();
  const name = `Manuals helper ${++sequence}`;
  const created = await admin.api.post('/api/v2/agents', { name, instructions: BASELINE, temperature: 0.7 });
  expect(created.status).toBe(201);
  const id = created.body.data.id as number;
  const baseline = await admin.api.post(`/api/v2/agents/${id}/history`, { checkpoint_name: 'Baseline', checkpoint_description: 'Approved wording' });
  expect(baseline.status).toBe(201);
  expect((await admin.api.put(`/api/v2/agents/${id}`, { instructions: TUNED, temperature: 0.2 })).status).toBe(200);
  const tuned = await admin.api.post(`/api/v2/agents/${id}/history`, { checkpoint_name: 'Tuned' });
  expect(tuned.status).toBe(201);
  expect((await admin.api.put(`/api/v2/agents/${id}`, { temperature: 0.5 })).status).toBe(200);
  const latest = (await admin.api.get(`/api/v2/agents/${id}/history?page_size=1`)).body.data.items[0];
  return { id, name, baselineId: baseline.body.data.history_id, tunedId: tuned.body.data.history_id, latestId: latest.history_id };
}

describe.skipIf(CHROMIUM_PATH === undefined)('console: an agent’s history', BROWSER_TEST, () => {
  const browser = useConsoleBrowser();

  it('lists the records with their checkpoints, compares two, saves a checkpoint and restores an earlier one', async () => {
    const agent = await arrangeAgent(browser);
    const { page } = await browser.open();
    await signIn(page, browser.server().email, browser.server().password);
    await page.goto(`/agents/${agent.id}/history`);
    await page.getByRole('heading', { name: `History of ${agent.name}`, level: 1 }).waitFor();

    const rows = page.getByRole('row');
    const baselineRow = rows.filter({ hasText: 'Baseline' });
    await baselineRow.getByText('Approved wording').waitFor();
    await rows.filter({ hasText: 'Tuned' }).waitFor();
    // Newest first: the last temperature change is on top; the change before "Tuned" says what it changed.
    await poll(() => rows.nth(1).innerText()).toMatch(/Temperature/);
    await poll(() => rows.filter({ hasText: 'v2' }).filter({ hasText: 'Updated' }).innerText()).toMatch(/Instructions, Temperature/);
    expect(await page.getByRole('link', { name: 'Chat', exact: true }).getAttribute('href')).toBe(`/agents/${agent.id}/chat`);
    expect(await page.getByRole('link', { name: 'Settings' }).getAttribute('href')).toBe(`/agents/${agent.id}`);
    await expectAccessible(page, 'the history');

    // Compare the two checkpoints, ticked with the keyboard.
    for (const name of [`Compare #${agent.baselineId} Baseline`, `Compare #${agent.tunedId} Tuned`]) {
      await page.getByRole('checkbox', { name }).focus();
      await page.keyboard.press('Space');
      await poll(() => page.getByRole('checkbox', { name }).isChecked()).toBe(true);
    }
    await page.getByRole('link', { name: /^Compare #\d+ and #\d+$/ }).click();
    await page.getByRole('heading', { name: 'Compare records', level: 1 }).waitFor();
    const removed = page.locator('.diff-line', { has: page.locator('del', { hasText: 'Be brief.' }) });
    const added = page.locator('.diff-line', { has: page.locator('ins', { hasText: 'Be thorough and give examples.' }) });
    await removed.waitFor();
    await added.waitFor();
    expect(await removed.innerText()).toContain('−');
    expect(await added.innerText()).toContain('+');
    expect(await page.locator('del', { hasText: 'Be brief.' }).textContent()).toContain('Removed line');
    // Side by side: the replaced line faces its replacement.
    const [removedBox, addedBox] = [await removed.boundingBox(), await added.boundingBox()];
    expect(addedBox!.x).toBeGreaterThan(removedBox!.x + removedBox!.width - 1);
    expect(Math.abs(addedBox!.y - removedBox!.y)).toBeLessThan(2);
    const temperature = page.getByRole('list', { name: 'Changed settings' }).getByRole('listitem').filter({ hasText: 'Temperature' });
    // "before"/"after" are words for screen readers; on screen the old value is struck through.
    expect((await temperature.innerText()).replace(/\s+/g, ' ')).toMatch(/Temperature: before: 0\.7 → after: 0\.2/);
    expect(await temperature.locator('del').innerText()).toContain('0.7');
    expect(await temperature.locator('ins').innerText()).toContain('0.2');
    await expectAccessible(page, 'the comparison');

    // Another record on the right, chosen in its list: the same instructions, a later temperature.
    await page.getByRole('button', { name: /\bTo\b/ }).click();
    await page.getByRole('option', { name: new RegExp(`^#${agent.latestId} Updated`) }).click();
    await poll(() => temperature.innerText()).toMatch(/0\.7[\s\S]*0\.5/);
    expect(new URL(page.url()).searchParams.get('to')).toBe(String(agent.latestId));
    expect(await added.isVisible()).toBe(true);

    // Back to the history: save a checkpoint of the present configuration.
    await page.getByRole('link', { name: 'History', exact: true }).click();
    await page.getByRole('heading', { name: `History of ${agent.name}`, level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Save checkpoint' }).click();
    const saveDialog = page.getByRole('dialog', { name: 'Save a checkpoint' });
    await saveDialog.getByLabel('Name').fill('Before the restore');
    await saveDialog.getByLabel('Description (optional)').fill('Warmer answers');
    await expectAccessible(page, 'the checkpoint dialog');
    await saveDialog.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('status').filter({ hasText: 'Checkpoint “Before the restore” saved.' }).waitFor();
    await poll(() => rows.nth(1).innerText()).toContain('Before the restore');

    // Restore the baseline, with the confirmation.
    await page.getByRole('button', { name: `Restore #${agent.baselineId} Baseline` }).click();
    const confirm = page.getByRole('alertdialog', { name: `Restore #${agent.baselineId}?` });
    await confirm.getByText('Nothing is deleted').waitFor();
    await confirm.getByLabel('Note for the new record (optional)').fill('Back to the approved wording');
    await expectAccessible(page, 'the restore confirmation');
    await confirm.getByRole('button', { name: 'Restore', exact: true }).click();
    await page.getByRole('status').filter({ hasText: 'Agent restored' }).waitFor();
    await poll(() => rows.nth(1).innerText()).toContain(`Restored to #${agent.baselineId}: Baseline`);
    expect(await rows.nth(1).innerText()).toContain('Back to the approved wording');

    const restored = (await browser.server().admin.api.get(`/api/v2/agents/${agent.id}`)).body.data;
    expect(restored.instructions).toBe(BASELINE);
    expect(restored.temperature).toBe(0.7);
    await expectAccessible(page, 'the history after a restore');
  });

  it('fits a 390 px wide screen: the history as cards, the comparison stacked', async () => {
    const agent = await arrangeAgent(browser);
    const { page } = await browser.open({ viewport: PHONE });
    await signIn(page, browser.server().email, browser.server().password);
    await page.goto(`/agents/${agent.id}/history`);
    await page.getByRole('heading', { name: `History of ${agent.name}`, level: 1 }).waitFor();
    await page.getByRole('row').filter({ hasText: 'Baseline' }).waitFor();
    expect(await overflowsSideways(page)).toBe(false);
    await expectAccessible(page, 'the history on a phone');

    // Tapped on the box, as on a touch screen (the input itself is hidden under it).
    for (const name of [`Compare #${agent.baselineId} Baseline`, `Compare #${agent.tunedId} Tuned`]) {
      await page.locator('label', { has: page.getByRole('checkbox', { name }) }).click();
      await poll(() => page.getByRole('checkbox', { name }).isChecked()).toBe(true);
    }
    await page.getByRole('link', { name: /^Compare #\d+ and #\d+$/ }).click();
    const removed = page.locator('.diff-line', { has: page.locator('del', { hasText: 'Be brief.' }) });
    const added = page.locator('.diff-line', { has: page.locator('ins', { hasText: 'Be thorough and give examples.' }) });
    await added.waitFor();
    // Stacked: the newer text comes below the older one.
    expect((await added.boundingBox())!.y).toBeGreaterThan((await removed.boundingBox())!.y + 10);
    expect(await overflowsSideways(page)).toBe(false);
    await expectAccessible(page, 'the comparison on a phone');

    // Restore from the comparison; the history then says so, with the new record on top.
    await page.getByRole('button', { name: `Restore #${agent.tunedId} Tuned` }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Restore', exact: true }).click();
    await page.getByRole('status').filter({ hasText: 'Agent restored' }).waitFor();
    await poll(() => page.getByRole('row').nth(1).innerText()).toContain(`Restored to #${agent.tunedId}: Tuned`);
    expect(await overflowsSideways(page)).toBe(false);
    expect((await browser.server().admin.api.get(`/api/v2/agents/${agent.id}`)).body.data.temperature).toBe(0.2);
  });

  it('pages the history as the API does, and says what changed across a page boundary', async () => {
    const { admin } = browser.server();
    const created = await admin.api.post('/api/v2/agents', { name: `Much changed ${++sequence}`, instructions: 'Start.', temperature: 0.7 });
    const id = created.body.data.id as number;
    // 1 create + 22 updates: 23 records, a page of 20 and one of 3.
    for (let edit = 1; edit <= 22; edit++) {
      expect((await admin.api.put(`/api/v2/agents/${id}`, edit % 2 === 0 ? { max_tokens: 500 + edit } : { description: `Edit ${edit}` })).status).toBe(200);
    }
    const { page } = await browser.open();
    await signIn(page, browser.server().email, browser.server().password);
    await page.goto(`/agents/${id}/history`);
    const pages = page.getByRole('navigation', { name: 'History pages' });
    await pages.getByText('1–20 of 23 records · page 1 of 2').waitFor();
    const rows = page.getByRole('row');
    expect(await rows.count()).toBe(21);
    // The page's oldest row (version 4, a description edit) is compared with the first row of the next page.
    await poll(() => rows.nth(20).innerText()).toMatch(/v4[\s\S]*Description/);
    await pages.getByRole('button', { name: 'Older' }).click();
    await pages.getByText('21–23 of 23 records · page 2 of 2').waitFor();
    expect(new URL(page.url()).searchParams.get('page')).toBe('2');
    await poll(() => rows.count()).toBe(4);
    await poll(() => rows.nth(3).innerText()).toContain('First version');
  });

  it('a viewer sees the history but cannot restore or save a checkpoint, and is told why', async () => {
    const agent = await arrangeAgent(browser);
    const password = 'a viewer’s password 42';
    const viewer = await createUser(browser.server().t.app, { role: 'viewer', password });
    const { page } = await browser.open();
    await signIn(page, viewer.email, password);
    await page.goto(`/agents/${agent.id}/history`);
    await page.getByRole('row').filter({ hasText: 'Baseline' }).waitFor();
    await page.getByText('Viewers can look but not change anything').waitFor();
    const restore = page.getByRole('button', { name: `Restore #${agent.baselineId} Baseline` });
    expect(await restore.isDisabled()).toBe(true);
    expect(await page.getByRole('button', { name: 'Save checkpoint' }).isDisabled()).toBe(true);
    await expectAccessible(page, 'the history seen by a viewer');
  });
});
