// The organization's models in a real browser: an LLM configuration added with a key that is never
// shown again (and not sent again unless typed anew), tested against the loopback fake model (it
// answers) and while the fake refuses the key (the provider's error said plainly), and the model
// deployment changed for chat and judge; the page at phone width.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { createUser } from '../support/factories.js';
import { CHROMIUM_PATH } from './support/chromium.js';
import { BROWSER_TEST, expectAccessible, overflowsSideways, PHONE, signIn, useConsoleBrowser } from './support/console-browser.js';

const KEY = 'sk-console-test-0123456789abcdef';

async function openModels(page: Page): Promise<void> {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Organization' }).click();
  await page.getByRole('navigation', { name: 'Organization' }).getByRole('link', { name: 'Models' }).click();
  await page.getByRole('heading', { name: 'Models', level: 1 }).waitFor();
}

const row = (page: Page, name: string) => page.getByRole('row').filter({ has: page.getByRole('rowheader', { name: new RegExp(`^${name}`) }) });

describe.skipIf(CHROMIUM_PATH === undefined)('console: models', BROWSER_TEST, () => {
  const browser = useConsoleBrowser();

  it('adds a configuration whose key is never shown again, tests it, and sets the deployment', async () => {
    const server = browser.server();
    const { page } = await browser.open();
    await signIn(page, server.email, server.password);
    await openModels(page);
    await row(page, 'Fake model').getByText('Key set', { exact: false }).waitFor();
    await expectAccessible(page, 'the models page');

    // Added: a provider without an address of its own needs one, said before sending.
    await page.getByRole('button', { name: 'Add configuration' }).click();
    const dialog = page.getByRole('dialog', { name: 'New LLM configuration' });
    await dialog.getByRole('textbox', { name: 'Name' }).fill('Local model');
    await dialog.getByRole('button', { name: /Provider$/ }).click();
    await page.getByRole('option', { name: /^OpenAI-compatible/ }).click();
    await dialog.getByRole('textbox', { name: 'Model' }).fill('fake-model');
    await dialog.getByRole('textbox', { name: 'API key' }).fill(KEY);
    await dialog.getByRole('textbox', { name: 'Input price' }).fill('0.15');
    await dialog.getByRole('textbox', { name: 'Output price' }).fill('0.6');
    await page.keyboard.press('Tab');
    await dialog.getByRole('button', { name: 'Add configuration' }).click();
    await dialog.getByText('This provider needs the address it answers at.').waitFor();
    await expectAccessible(page, 'the new configuration dialog');
    await dialog.getByRole('textbox', { name: 'Base URL' }).fill(server.fake.baseUrl);
    await dialog.getByRole('button', { name: 'Add configuration' }).click();
    await dialog.waitFor({ state: 'detached' });
    const local = row(page, 'Local model');
    await local.getByText('Key set', { exact: false }).waitFor();
    await local.getByText('in $0.15, out $0.6').waitFor();
    expect(await page.content()).not.toContain(KEY);

    // Changed without typing a key: the field is empty, says a key is set, and no key is sent.
    const sentBodies: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'PUT') sentBodies.push(request.postData() ?? '');
    });
    await local.getByRole('button', { name: 'Change Local model' }).click();
    const change = page.getByRole('dialog', { name: 'Change Local model' });
    const keyField = change.getByRole('textbox', { name: 'API key' });
    expect(await keyField.inputValue()).toBe('');
    await change.getByText(/^Key set \(.+\): it is never shown/).waitFor();
    await change.getByRole('textbox', { name: 'Output price' }).fill('0.8');
    await page.keyboard.press('Tab');
    await change.getByRole('button', { name: 'Save changes' }).click();
    await change.waitFor({ state: 'detached' });
    await local.getByText('in $0.15, out $0.8').waitFor();
    expect(sentBodies).toHaveLength(1);
    expect(JSON.parse(sentBodies[0]!)).toEqual({ output_price_per_million: 0.8 });
    await local.getByText('Key set', { exact: false }).waitFor();

    // Tested: the fake answers; then it refuses the key, and the provider's error is said plainly.
    await local.getByRole('button', { name: 'Test Local model' }).click();
    await local.getByText(/Works\s*fake-model answered in \d+ ms\./).waitFor();
    server.fake.failNext(401);
    await local.getByRole('button', { name: 'Test Local model' }).click();
    await local.getByText(/Failed\s*The key was refused: .*401/).waitFor();
    expect(await page.content()).not.toContain(KEY);

    // The deployment: chat by the new configuration, judge by the fake one.
    await page.getByRole('button', { name: /Chat$/ }).click();
    await page.getByRole('option', { name: 'Local model' }).click();
    await page.getByRole('button', { name: /Judge$/ }).click();
    await page.getByRole('option', { name: 'Fake model' }).click();
    await page.getByRole('button', { name: 'Save deployment' }).click();
    await page.getByText('Model deployment saved.').waitFor();
    await page.getByText(`Last changed by ${server.email}`, { exact: false }).waitFor();
    const configurations = (await server.admin.api.get(`/api/v2/organizations/${server.admin.organizationId}/llm-configurations`)).body.data as { items: { id: number; name: string }[] };
    const localId = configurations.items.find((item) => item.name === 'Local model')!.id;
    const deployment = (await server.admin.api.get(`/api/v2/organizations/${server.admin.organizationId}/model-deployment`)).body.data;
    expect(deployment).toMatchObject({ chat: localId, judge: server.modelConfigurationId, embedding: null, image: null });
    await expectAccessible(page, 'the models page after the changes');

    // After a reload the deployment is as saved.
    await page.reload();
    await page.getByRole('button', { name: /Local model\s*Chat$/ }).waitFor();
    await page.getByRole('button', { name: /Fake model\s*Judge$/ }).waitFor();
  });

  it('works on a phone', async () => {
    const server = browser.server();
    const { page } = await browser.open({ viewport: PHONE });
    await signIn(page, server.email, server.password);
    await page.goto('/organization/models');
    await page.getByRole('heading', { name: 'Models', level: 1 }).waitFor();
    await row(page, 'Fake model').getByRole('button', { name: 'Test Fake model' }).click();
    await row(page, 'Fake model').getByText('Works', { exact: true }).waitFor();
    expect(await overflowsSideways(page)).toBe(false);
    await expectAccessible(page, 'the models page on a phone');
    await page.getByRole('button', { name: 'Add configuration' }).click();
    await page.getByRole('dialog', { name: 'New LLM configuration' }).waitFor();
    expect(await overflowsSideways(page)).toBe(false);
    await expectAccessible(page, 'the new configuration dialog on a phone');
  });

  it('shows a member the models and the deployment, without their settings or changes', async () => {
    const server = browser.server();
    const member = await createUser(server.t.app, { role: 'member', email: 'member@example.com', password: 'a long member password' });
    const { page } = await browser.open();
    await signIn(page, member.email, 'a long member password');
    await page.goto('/organization/models');
    await page.getByRole('heading', { name: 'Models', level: 1 }).waitFor();
    await row(page, 'Fake model').waitFor();
    await page.getByText('Only owners and admins see the models’ settings', { exact: false }).waitFor();
    expect(await page.getByRole('button', { name: 'Add configuration' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Test Fake model' }).count()).toBe(0);
    expect(await page.getByText('Key set', { exact: false }).count()).toBe(0);
    expect(await page.getByRole('button', { name: /Chat$/ }).isDisabled()).toBe(true);
    await page.getByText('Only owners and admins change the model deployment.').waitFor();
    await expectAccessible(page, 'the models page for a member');
  });
});
