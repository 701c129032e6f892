// The agents pages in a real browser, as a person uses them: creating an agent, finding it in the list
// (search, star), changing it and seeing the change after a reload, turning it off and on, meeting
// someone else's change, deleting it; the same on a phone; and what a viewer is not offered.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { createUser } from '../support/factories.js';
import { CHROMIUM_PATH } from './support/chromium.js';
import { BROWSER_TEST, expectAccessible, overflowsSideways, PHONE, poll, signIn, useConsoleBrowser } from './support/console-browser.js';

async function agentIdFromUrl(page: Page): Promise<number> {
  await page.waitForURL(/\/agents\/\d+$/);
  return Number(new URL(page.url()).pathname.split('/').pop());
}

async function openAgentsList(page: Page): Promise<void> {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Agents' }).click();
  await page.getByRole('heading', { name: 'Agents', level: 1 }).waitFor();
}

const agentLink = (page: Page, name: string) => page.getByRole('list', { name: 'Agents' }).getByRole('link', { name, exact: true });

describe.skipIf(CHROMIUM_PATH === undefined)('console: agents', BROWSER_TEST, () => {
  const browser = useConsoleBrowser();

  it('creates, finds, stars, changes, turns off and on, meets a conflicting change, and deletes an agent', async () => {
    const { admin, email, password, modelConfigurationId } = browser.server();
    await admin.api.post('/api/v2/agents', { name: 'Billing helper', instructions: 'Answer about invoices.' });
    const corpus = (await admin.api.post('/api/v2/corpora', { name: 'Product manuals' })).body.data as { id: number };
    const guardrail = (
      await admin.api.post('/api/v2/guardrails', { name: 'Short questions', type: 'length', stages: ['input'], action: 'block', config: { max_characters: 2000 } })
    ).body.data as { id: number };
    const { page } = await browser.open();
    await signIn(page, email, password);

    // Create, with instructions, the "Fake model" configuration and a starter.
    await page.getByRole('link', { name: 'New agent' }).click();
    await page.getByRole('heading', { name: 'New agent', level: 1 }).waitFor();
    await expectAccessible(page, 'the new agent form');
    const nameField = page.getByRole('textbox', { name: 'Name', exact: true });
    await page.getByRole('textbox', { name: 'Instructions', exact: true }).fill('Answer politely, from the manuals.');
    await page.getByRole('button', { name: /LLM configuration/ }).click();
    await page.getByRole('option', { name: 'Fake model', exact: true }).click();
    await page.getByRole('button', { name: 'Add a starter' }).click();
    await page.getByRole('textbox', { name: 'Starter 1' }).fill('How do I reset my password?');
    // A blank name is said before anything is sent; the server's complaints are said by the field
    // they are about: a taken name (409), and a 400's detail pointing at a field.
    await nameField.fill('   ');
    await page.getByRole('button', { name: 'Create agent' }).click();
    await page.getByText('Give the agent a name.').waitFor();
    expect(new URL(page.url()).pathname).toBe('/agents/new');
    await nameField.fill('Billing helper');
    await page.getByRole('button', { name: 'Create agent' }).click();
    await page.getByText('An agent named "Billing helper" already exists').waitFor();
    await poll(() => nameField.getAttribute('aria-invalid')).toBe('true');
    await nameField.fill('Support bot');
    // No rule the form lets a person break ends in a 400: one is made up here, once, for its detail.
    await page.route(
      '**/api/v2/agents',
      (route) =>
        route.fulfill({
          status: 400,
          contentType: 'application/json',
          body: JSON.stringify({
            success: false,
            message: 'Request body is invalid',
            error: { code: 'bad_request', request_id: 'test', details: [{ pointer: '/body/instructions', message: 'must not mention the weather' }] },
          }),
        }),
      { times: 1 },
    );
    await page.getByRole('button', { name: 'Create agent' }).click();
    await page.getByText('must not mention the weather').waitFor();
    await page.getByRole('alert').filter({ hasText: 'some fields need a change' }).waitFor();
    expect(await page.getByRole('textbox', { name: 'Instructions', exact: true }).getAttribute('aria-invalid')).toBe('true');
    await expectAccessible(page, 'the new agent form with errors by its fields');
    await page.getByRole('textbox', { name: 'Instructions', exact: true }).fill('Answer politely, from the manuals only.');
    await page.getByRole('button', { name: 'Create agent' }).click();
    await page.getByRole('heading', { name: 'Support bot', level: 1 }).waitFor();
    const agentId = await agentIdFromUrl(page);
    const created = (await admin.api.get(`/api/v2/agents/${agentId}`)).body.data;
    expect(created).toMatchObject({ instructions: 'Answer politely, from the manuals only.', llm_configuration_id: modelConfigurationId, conversation_starters: ['How do I reset my password?'] });

    // In the list; found by a search that leaves the other agent out.
    await openAgentsList(page);
    await agentLink(page, 'Support bot').waitFor();
    await agentLink(page, 'Billing helper').waitFor();
    await page.getByRole('searchbox', { name: 'Search agents' }).fill('support');
    await poll(() => agentLink(page, 'Billing helper').count()).toBe(0);
    await agentLink(page, 'Support bot').waitFor();
    expect(new URL(page.url()).searchParams.get('q')).toBe('support');

    // Starred, and found under Starred (without the search, the other agent is still not there).
    const star = page.getByRole('button', { name: 'Star Support bot' });
    await star.click();
    await poll(() => star.getAttribute('aria-pressed')).toBe('true');
    await page.getByRole('button', { name: 'Clear the search' }).click();
    await page.getByRole('tab', { name: 'Starred' }).click();
    await agentLink(page, 'Support bot').waitFor();
    expect(await agentLink(page, 'Billing helper').count()).toBe(0);
    await expectAccessible(page, 'the starred agents');
    await page.getByRole('tab', { name: 'All' }).click();
    await agentLink(page, 'Billing helper').waitFor();
    await expectAccessible(page, 'the agents list');

    // Open it and give it an image (fetched with the session, shown from a blob).
    await page.getByRole('link', { name: 'Settings of Support bot' }).click();
    await page.getByRole('heading', { name: 'Support bot', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Make an image' }).click();
    const picture = page.getByRole('img', { name: 'Image of Support bot' });
    await picture.waitFor();
    await poll(() => picture.evaluate((image: { complete: boolean; naturalWidth: number }) => image.complete && image.naturalWidth > 0)).toBe(true);

    // Change the instructions and the starter, add a second starter and move it first, connect a
    // corpus and a guardrail, save (the image made just before is no conflict); a reload shows it all.
    const instructions = page.getByRole('textbox', { name: 'Instructions', exact: true });
    await instructions.fill('Answer briefly, from the manuals only.');
    await page.getByRole('textbox', { name: 'Starter 1' }).fill('Where is my invoice?');
    await page.getByRole('button', { name: 'Add a starter' }).click();
    await page.getByRole('textbox', { name: 'Starter 2' }).fill('What does it cost?');
    await page.getByRole('button', { name: 'Move starter 2 up' }).click();
    await page.locator('label').filter({ has: page.getByRole('checkbox', { name: 'Product manuals' }) }).click();
    await page.locator('label').filter({ has: page.getByRole('checkbox', { name: /^Short questions/ }) }).click();
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    expect((await admin.api.get(`/api/v2/agents/${agentId}`)).body.data).toMatchObject({
      instructions: 'Answer briefly, from the manuals only.',
      conversation_starters: ['What does it cost?', 'Where is my invoice?'],
      corpus_ids: [corpus.id],
      guardrail_ids: [guardrail.id],
    });
    await page.reload();
    await page.getByRole('heading', { name: 'Support bot', level: 1 }).waitFor();
    await poll(() => instructions.inputValue()).toBe('Answer briefly, from the manuals only.');
    expect(await page.getByRole('textbox', { name: 'Starter 1' }).inputValue()).toBe('What does it cost?');
    expect(await page.getByRole('textbox', { name: 'Starter 2' }).inputValue()).toBe('Where is my invoice?');
    expect(await page.getByRole('checkbox', { name: 'Product manuals' }).isChecked()).toBe(true);
    await expectAccessible(page, 'the agent editor');

    // Leaving with changes not saved asks first; staying keeps them.
    await instructions.fill('An edit not saved yet.');
    await page.getByRole('link', { name: 'History', exact: true }).click();
    const leave = page.getByRole('alertdialog', { name: 'Leave without saving?' });
    await leave.waitFor();
    await expectAccessible(page, 'the question before leaving unsaved changes');
    await leave.getByRole('button', { name: 'Stay and keep editing' }).click();
    await leave.waitFor({ state: 'detached' });
    expect(new URL(page.url()).pathname).toBe(`/agents/${agentId}`);
    expect(await instructions.inputValue()).toBe('An edit not saved yet.');
    await instructions.fill('Answer briefly, from the manuals only.');

    // Turned on (it was a draft), off, and on again.
    const active = page.getByRole('switch', { name: 'Active' });
    // The switch's input is visually hidden: a person presses the switch drawn in its label.
    const activeSwitch = page.locator('label').filter({ has: active });
    for (const expected of ['active', 'inactive', 'active']) {
      // Pressed only once the last change is done (the switch waits for the server meanwhile).
      await poll(() => active.isEnabled()).toBe(true);
      await activeSwitch.click();
      await poll(async () => (await admin.api.get(`/api/v2/agents/${agentId}`)).body.data.status).toBe(expected);
      await poll(() => active.isChecked()).toBe(expected === 'active');
    }

    // Someone changes the agent meanwhile: saving here is refused and says so; reloading shows theirs.
    expect((await admin.api.put(`/api/v2/agents/${agentId}`, { description: 'Changed by someone else' })).status).toBe(200);
    await instructions.fill('My edit, made on an old version.');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByRole('alert').filter({ hasText: 'someone else changed this agent' }).waitFor();
    expect((await admin.api.get(`/api/v2/agents/${agentId}`)).body.data.instructions).toBe('Answer briefly, from the manuals only.');
    await expectAccessible(page, 'the agent editor after a conflict');
    await page.getByRole('button', { name: 'Reload the agent' }).click();
    await poll(() => page.getByRole('textbox', { name: 'Description', exact: true }).inputValue()).toBe('Changed by someone else');
    expect(await instructions.inputValue()).toBe('Answer briefly, from the manuals only.');

    // Deleted after a question naming it; gone from the list.
    await page.getByRole('button', { name: 'Delete agent' }).click();
    const question = page.getByRole('alertdialog', { name: 'Delete Support bot?' });
    await question.waitFor();
    await question.getByRole('button', { name: 'Delete agent' }).click();
    await page.getByRole('heading', { name: 'Agents', level: 1 }).waitFor();
    await page.getByRole('status').filter({ hasText: 'Support bot was deleted.' }).waitFor();
    await agentLink(page, 'Billing helper').waitFor();
    expect(await agentLink(page, 'Support bot').count()).toBe(0);
    expect((await admin.api.get(`/api/v2/agents/${agentId}`)).status).toBe(404);
  });

  it('fits a 390 px wide screen: the list and the form, creating an agent', async () => {
    const { email, password } = browser.server();
    const { page } = await browser.open({ viewport: PHONE });
    await signIn(page, email, password);
    await page.getByRole('link', { name: 'New agent' }).click();
    await page.getByRole('heading', { name: 'New agent', level: 1 }).waitFor();
    expect(await overflowsSideways(page)).toBe(false);
    await page.getByRole('textbox', { name: 'Name', exact: true }).fill('Pocket helper');
    await page.getByRole('textbox', { name: 'Instructions', exact: true }).fill('Answer in one sentence.');
    await page.getByRole('button', { name: 'Create agent' }).click();
    await page.getByRole('heading', { name: 'Pocket helper', level: 1 }).waitFor();
    expect(await overflowsSideways(page)).toBe(false);
    await expectAccessible(page, 'the agent editor on a phone');
    await openAgentsList(page);
    await agentLink(page, 'Pocket helper').waitFor();
    expect(await overflowsSideways(page)).toBe(false);
    await expectAccessible(page, 'the agents list on a phone');
  });

  it('a viewer sees agents read-only: no "New agent", no delete, no save; what they opened is under Recent', async () => {
    const { t, admin } = browser.server();
    const password = 'viewer password, long enough';
    const viewer = await createUser(t.app, { role: 'viewer', password });
    expect((await admin.api.post('/api/v2/agents', { name: 'Read-only bot', instructions: 'Answer from the handbook.' })).status).toBe(201);

    const { page } = await browser.open();
    await signIn(page, viewer.email, password);
    await page.getByRole('heading', { name: 'Agents', level: 1 }).waitFor();
    await agentLink(page, 'Read-only bot').waitFor();
    expect(await page.getByRole('link', { name: 'New agent' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'New agent' }).count()).toBe(0);
    await page.getByText('Viewers can look but not change anything').waitFor();

    await page.getByRole('link', { name: 'Settings of Read-only bot' }).click();
    await page.getByRole('heading', { name: 'Read-only bot', level: 1 }).waitFor();
    await page.getByText('Viewers can look but not change anything').waitFor();
    expect(await page.getByRole('textbox', { name: 'Instructions', exact: true }).getAttribute('readonly')).not.toBeNull();
    expect(await page.getByRole('switch', { name: 'Active' }).isDisabled()).toBe(true);
    expect(await page.getByRole('button', { name: 'Delete agent' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Save changes' }).count()).toBe(0);
    await expectAccessible(page, 'the agent editor, read-only');

    // Opening it put it on the viewer's recent agents.
    await openAgentsList(page);
    await page.getByRole('tab', { name: 'Recent' }).click();
    await page.getByRole('tab', { name: 'Recent', selected: true }).waitFor();
    // The list of the tab left may still show while the recent agents load: wait for what is meant.
    await poll(() => page.getByRole('list', { name: 'Agents' }).getByRole('listitem').count()).toBe(1);
    await agentLink(page, 'Read-only bot').waitFor();

    // Going to /agents/new directly says why, rather than a form the server would refuse.
    await page.goto('/agents/new');
    await page.getByRole('heading', { name: 'New agent', level: 1 }).waitFor();
    await page.getByText('Viewers can look but not change anything').waitFor();
    expect(await page.getByRole('button', { name: 'Create agent' }).count()).toBe(0);
  });

  it('pages through more agents than a page holds', async () => {
    const { admin, email, password } = browser.server();
    for (let index = 1; index <= 21; index++) {
      expect((await admin.api.post('/api/v2/agents', { name: `Paged agent ${String(index).padStart(2, '0')}` })).status).toBe(201);
    }
    const { page } = await browser.open();
    await signIn(page, email, password);
    await page.getByRole('searchbox', { name: 'Search agents' }).fill('Paged agent');
    const pages = page.getByRole('navigation', { name: 'Pages of agents' });
    await pages.getByText('1–20 of 21').waitFor();
    await poll(() => page.getByRole('list', { name: 'Agents' }).getByRole('listitem').count()).toBe(20);
    await pages.getByRole('button', { name: 'Next' }).click();
    await pages.getByText('21–21 of 21').waitFor();
    await poll(() => page.getByRole('list', { name: 'Agents' }).getByRole('listitem').count()).toBe(1);
    expect(new URL(page.url()).searchParams.get('page')).toBe('2');
    await expectAccessible(page, 'the second page of agents');
  });
});
