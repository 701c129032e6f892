// Guardrails in a real browser, as a person uses them: one of each kind made, a text tested in the live
// box with what it finds marked and what it does said, a guardrail changed and tested again, one
// deleted; the feature flag turned off and on again; the pages at phone width.
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { CHROMIUM_PATH } from './support/chromium.js';
import { BROWSER_TEST, expectAccessible, overflowsSideways, PHONE, poll, signIn, useConsoleBrowser } from './support/console-browser.js';

/** Ticks a checkbox of a React Aria group by its label (its input is visually hidden). */
async function tick(page: Page, name: string | RegExp): Promise<void> {
  await page.locator('label').filter({ has: page.getByRole('checkbox', { name }) }).click();
}

async function choose(page: Page, field: string | RegExp, option: string | RegExp): Promise<void> {
  await page.getByRole('button', { name: field }).click();
  await page.getByRole('option', { name: option }).click();
}

/** Starts a new guardrail of a kind, named. */
async function newGuardrail(page: Page, name: string, kind: string, action: string): Promise<void> {
  await page.goto('/guardrails');
  await page.getByRole('link', { name: 'New guardrail' }).click();
  await page.getByRole('heading', { name: 'New guardrail', level: 1 }).waitFor();
  await page.getByRole('textbox', { name: 'Name' }).fill(name);
  await choose(page, /Kind$/, new RegExp(`^${kind}`));
  await choose(page, /Action$/, new RegExp(`^${action}`));
}

/** Creates it, and waits for its own page, where the test box is. */
async function create(page: Page, name: string): Promise<void> {
  await page.getByRole('button', { name: 'Create guardrail' }).click();
  await page.getByRole('heading', { name, level: 1 }).waitFor();
  await page.waitForURL(/\/guardrails\/\d+$/);
}

/** Tests a text in the live box; the outcome once it is shown. */
async function testText(page: Page, text: string): Promise<Locator> {
  await page.getByRole('textbox', { name: 'Text to test' }).fill(text);
  await page.getByRole('button', { name: 'Test', exact: true }).click();
  const outcome = page.locator('.test-outcome');
  await outcome.waitFor();
  return outcome;
}

describe.skipIf(CHROMIUM_PATH === undefined)('console: guardrails', BROWSER_TEST, () => {
  const browser = useConsoleBrowser();

  it('makes one guardrail of each kind, tests texts in the live box, changes one and deletes one', async () => {
    const server = browser.server();
    const { page } = await browser.open();
    await signIn(page, server.email, server.password);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Guardrails' }).click();
    await page.getByRole('heading', { name: 'Guardrails', level: 1 }).waitFor();
    await page.getByText('No guardrails yet.', { exact: false }).waitFor();
    await expectAccessible(page, 'the guardrails list');

    // PII redaction of e-mail addresses and phone numbers: the address is found, marked and redacted.
    await newGuardrail(page, 'No contact details', 'PII redaction', 'Redact');
    await page.getByText('Save the guardrail to test it', { exact: false }).waitFor();
    await tick(page, /^E-mail address/);
    await tick(page, /^Phone number/);
    await expectAccessible(page, 'the new guardrail form');
    await create(page, 'No contact details');
    let outcome = await testText(page, 'Write to bob.smith@example.com today');
    await outcome.getByText('Redacted', { exact: true }).waitFor();
    expect(await outcome.locator('mark').allTextContents()).toEqual(['bob.smith@example.com [E-mail address]']);
    await outcome.getByText('Write to [EMAIL_ADDRESS] today').waitFor();
    await expectAccessible(page, 'a guardrail with its test');
    outcome = await testText(page, 'Nothing personal here');
    await outcome.getByText('Passed', { exact: true }).waitFor();

    // Blocked terms and patterns: a wrong pattern is said before sending, an unbounded one by the server.
    await newGuardrail(page, 'Secret projects', 'Blocked terms', 'Block');
    await page.getByRole('textbox', { name: 'Blocked terms' }).fill('project falcon');
    await page.getByRole('textbox', { name: 'Blocked patterns' }).fill('ref-(\\d');
    await page.getByRole('button', { name: 'Create guardrail' }).click();
    await page.getByText('Line 1 is not a regular expression', { exact: false }).waitFor();
    await page.getByRole('textbox', { name: 'Blocked patterns' }).fill('ref-\\d+');
    await page.getByRole('button', { name: 'Create guardrail' }).click();
    // The server's refusal is said by the field it is about.
    await page.getByText('Line 1 can match text of any length', { exact: false }).waitFor();
    await poll(() => page.getByRole('textbox', { name: 'Blocked patterns' }).getAttribute('aria-invalid')).toBe('true');
    await page.getByRole('textbox', { name: 'Blocked patterns' }).fill('\\bref-\\d{1,6}\\b');
    await create(page, 'Secret projects');
    outcome = await testText(page, 'Tell me about Project Falcon and REF-1234.');
    await outcome.getByText('Blocked', { exact: true }).waitFor();
    expect(await outcome.locator('mark').allTextContents()).toEqual(['Project Falcon [Blocked term]', 'REF-1234 [Blocked pattern]']);

    // Length: the limit is needed; a text over it is blocked.
    await newGuardrail(page, 'Short questions', 'Length', 'Block');
    await page.getByRole('button', { name: 'Create guardrail' }).click();
    await page.getByText('Set a most characters, a most tokens, or both.').waitFor();
    await page.getByRole('textbox', { name: 'Most characters' }).fill('20');
    await page.keyboard.press('Tab');
    await create(page, 'Short questions');
    const longText = 'This question is far longer than twenty characters.';
    outcome = await testText(page, longText);
    await outcome.getByText('Blocked', { exact: true }).waitFor();
    await outcome.getByText('Too long', { exact: false }).first().waitFor();

    // Changed: while unsaved, the box says it tests the saved version; saved, the same text passes.
    await page.getByRole('textbox', { name: 'Most characters' }).fill('200');
    await page.keyboard.press('Tab');
    await page.getByText('The test applies the saved guardrail; save to test your changes.').waitFor();
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('Saved.', { exact: true }).waitFor();
    outcome = await testText(page, longText);
    await outcome.getByText('Passed', { exact: true }).waitFor();

    // Topics: a denied topic is found and warned about.
    await newGuardrail(page, 'No sport', 'Topics', 'Warn');
    await page.getByRole('textbox', { name: 'Denied topics' }).fill('football');
    // A name taken: the server's 409, said by the name.
    await page.getByRole('textbox', { name: 'Name' }).fill('Secret projects');
    await page.getByRole('button', { name: 'Create guardrail' }).click();
    await page.getByText('named "Secret projects" already exists', { exact: false }).first().waitFor();
    await poll(() => page.getByRole('textbox', { name: 'Name' }).getAttribute('aria-invalid')).toBe('true');
    await page.getByRole('textbox', { name: 'Name' }).fill('No sport');
    await create(page, 'No sport');
    outcome = await testText(page, 'Who won the football match yesterday?');
    await outcome.getByText('Warned', { exact: true }).waitFor();
    expect((await outcome.locator('mark').allTextContents()).join(' ')).toContain('football');
    await outcome.getByText('Denied topic', { exact: false }).first().waitFor();

    // The list shows all four; one is deleted from it.
    await page.getByRole('link', { name: 'Guardrails', exact: true }).first().click();
    await page.getByRole('heading', { name: 'Guardrails', level: 1 }).waitFor();
    for (const name of ['No contact details', 'Secret projects', 'Short questions', 'No sport']) await page.getByRole('link', { name, exact: true }).waitFor();
    // A row's Delete stands level with its name, not a line below it (the editor's spacing of its own Delete).
    const [nameBox, deleteBox] = [await page.getByRole('link', { name: 'No sport', exact: true }).boundingBox(), await page.getByRole('button', { name: 'Delete No sport' }).boundingBox()];
    expect(Math.abs(deleteBox!.y + deleteBox!.height / 2 - (nameBox!.y + nameBox!.height / 2))).toBeLessThan(6);
    await page.getByRole('button', { name: 'Delete No sport' }).click();
    await page.getByRole('alertdialog', { name: 'Delete No sport?' }).getByRole('button', { name: 'Delete guardrail' }).click();
    await page.getByRole('link', { name: 'No sport', exact: true }).waitFor({ state: 'detached' });
    const remaining = (await server.admin.api.get('/api/v2/guardrails')).body.data as { items: { name: string }[] };
    expect(remaining.items.map((item) => item.name).sort()).toEqual(['No contact details', 'Secret projects', 'Short questions']);
  });

  it('says when the feature flag turns guardrails off, and turns it on again; works on a phone', async () => {
    const server = browser.server();
    const made = await server.admin.api.post('/api/v2/guardrails', { name: 'Pocket limit', type: 'length', stages: ['input'], action: 'block', config: { max_characters: 10 } });
    expect(made.status).toBe(201);
    const turnedOff = await server.admin.api.put('/api/v2/feature-flags/guardrail', { enabled: false });
    expect(turnedOff.status).toBe(200);

    const { page } = await browser.open({ viewport: PHONE });
    await signIn(page, server.email, server.password);
    await page.goto(`/guardrails/${(made.body.data as { id: number }).id}`);
    await page.getByRole('heading', { name: 'Pocket limit', level: 1 }).waitFor();
    await page.getByText('Guardrails are turned off for your organization', { exact: false }).waitFor();
    await page.getByText('Testing needs the feature turned on', { exact: false }).waitFor();
    expect(await overflowsSideways(page)).toBe(false);
    await expectAccessible(page, 'a guardrail with the flag off, on a phone');
    await page.getByRole('button', { name: 'Turn guardrails on' }).click();
    await page.getByText('Guardrails are turned off for your organization', { exact: false }).waitFor({ state: 'detached' });

    const outcome = await testText(page, 'Far more than ten characters');
    await outcome.getByText('Blocked', { exact: true }).waitFor();
    expect(await overflowsSideways(page)).toBe(false);
    await page.goto('/guardrails');
    await page.getByRole('link', { name: 'Pocket limit', exact: true }).waitFor();
    expect(await overflowsSideways(page)).toBe(false);
    await expectAccessible(page, 'the guardrails list on a phone');
  });
});
